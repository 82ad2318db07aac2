import { stat } from 'node:fs/promises';
import { EngineError } from '../errors.ts';
import { ALLOWED_DEMUXERS, type MediaRunOptions, runFfprobe } from './run.ts';

export interface ProbedStream {
  index: number;
  type: 'video' | 'audio' | 'subtitle' | 'data' | 'attachment';
  codec: string;
  width?: number;
  height?: number;
  sampleRate?: number;
  channels?: number;
  durationMs?: number;
  /** Cover art and other single pictures in an audio file. */
  attachedPicture?: boolean;
}

export interface MediaProbe {
  /** The demuxer ffprobe used, e.g. "mov,mp4,m4a,3gp,3g2,mj2". */
  formatName: string;
  durationMs: number;
  size: number;
  bitRate: number;
  streams: ProbedStream[];
  hasVideo: boolean;
  hasAudio: boolean;
  /** Of the first real video stream (cover art excluded); null without video. */
  width: number | null;
  height: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
}

interface RawProbe {
  format?: { format_name?: string; duration?: string; size?: string; bit_rate?: string };
  streams?: Array<{
    index?: number;
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    sample_rate?: string;
    channels?: number;
    duration?: string;
    disposition?: { attached_pic?: number };
  }>;
}

const ms = (seconds: string | undefined) => {
  const n = Number(seconds);
  return Number.isFinite(n) && n > 0 ? Math.round(n * 1000) : 0;
};

const refused = (en: string) => new EngineError('media_unsupported', '不支持该文件格式', en);

/**
 * ffprobe of one file on disk. Only demuxers of ALLOWED_DEMUXERS may open it (ffmpeg's
 * format_whitelist: an HLS or ffconcat playlist, an image sequence or anything else that could name
 * other files or URLs is refused by ffmpeg itself); `format` forces one demuxer (the sniffed type).
 */
export async function probeFile(
  path: string,
  options: MediaRunOptions & { format?: string } = {},
): Promise<MediaProbe> {
  const info = await stat(path);
  if (!info.isFile()) throw refused(`${path} is not a regular file`);
  const forced = options.format ? ['-f', options.format] : [];
  let out: Buffer;
  try {
    out = await runFfprobe(
      [
        '-v',
        'error',
        ...forced,
        '-show_entries',
        'format=format_name,duration,size,bit_rate:stream=index,codec_type,codec_name,width,height,sample_rate,channels,duration:stream_disposition=attached_pic',
        '-of',
        'json',
        '-i',
        path,
      ],
      { timeoutMs: 60_000, ...options },
    );
  } catch (error) {
    if (error instanceof EngineError && error.code === 'media_failed') {
      throw new EngineError('media_unsupported', '不支持该文件格式', error.en, { cause: error });
    }
    throw error;
  }
  const raw = JSON.parse(out.toString('utf8') || '{}') as RawProbe;
  const formatName = raw.format?.format_name ?? '';
  // Belt and braces: the whitelist already refused other demuxers.
  const names = formatName.split(',');
  if (
    options.restrictDemuxers !== false &&
    !names.some((n) => (ALLOWED_DEMUXERS as readonly string[]).includes(n))
  ) {
    throw refused(`demuxer ${formatName || '(none)'} is not allowed`);
  }
  const streams: ProbedStream[] = (raw.streams ?? []).map((s, i) => ({
    index: s.index ?? i,
    type: (['video', 'audio', 'subtitle', 'attachment'].includes(s.codec_type ?? '')
      ? s.codec_type
      : 'data') as ProbedStream['type'],
    codec: s.codec_name ?? '',
    ...(s.width ? { width: s.width } : {}),
    ...(s.height ? { height: s.height } : {}),
    ...(s.sample_rate ? { sampleRate: Number(s.sample_rate) } : {}),
    ...(s.channels ? { channels: s.channels } : {}),
    ...(ms(s.duration) ? { durationMs: ms(s.duration) } : {}),
    ...(s.disposition?.attached_pic ? { attachedPicture: true } : {}),
  }));
  const video = streams.find((s) => s.type === 'video' && !s.attachedPicture);
  const audio = streams.find((s) => s.type === 'audio');
  let durationMs = ms(raw.format?.duration) || Math.max(0, ...streams.map((s) => s.durationMs ?? 0));
  // Browser recordings (MediaRecorder WebM) carry no duration: read it from the last packet's end.
  if (!durationMs && streams.length) durationMs = await durationFromPackets(path, forced, options);
  return {
    formatName,
    durationMs,
    size: Number(raw.format?.size ?? info.size) || info.size,
    bitRate: Number(raw.format?.bit_rate ?? 0) || 0,
    streams,
    hasVideo: Boolean(video),
    hasAudio: Boolean(audio),
    width: video?.width ?? null,
    height: video?.height ?? null,
    videoCodec: video?.codec ?? null,
    audioCodec: audio?.codec ?? null,
  };
}

/** End of the last packet (pts + duration), for containers written without a duration. */
async function durationFromPackets(
  path: string,
  forced: string[],
  options: MediaRunOptions,
): Promise<number> {
  try {
    const out = await runFfprobe(
      [
        '-v',
        'error',
        ...forced,
        '-show_entries',
        'packet=pts_time,duration_time',
        '-of',
        'csv=p=0',
        '-i',
        path,
      ],
      { timeoutMs: 60_000, ...options },
    );
    let end = 0;
    for (const line of out.toString('utf8').split('\n')) {
      const [pts, dur] = line.split(',').map(Number);
      if (Number.isFinite(pts)) end = Math.max(end, (pts ?? 0) + (Number.isFinite(dur) ? (dur ?? 0) : 0));
    }
    return Math.round(end * 1000);
  } catch {
    return 0;
  }
}
