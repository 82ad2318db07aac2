import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type TimedText, toSrt, toVtt } from '@vw/contract';
import { Zip, ZipPassThrough } from 'fflate';
import { eraseFilterGraph } from '../erase/erase.ts';
import { EngineError } from '../errors.ts';
import { probeFile } from '../media/probe.ts';
import { ALLOWED_DEMUXERS, runFfmpeg, runFfprobe, spawnMedia } from '../media/run.ts';
import { probeVideo } from '../ocr/frames.ts';
import { buildTimeMap, mappedDuration, slowVideoGraph } from './timemap.ts';
import {
  DEFAULT_SUBTITLE_STYLE,
  type RenderOptions,
  type RenderResult,
  type StemsOptions,
  type SubtitleStyle,
} from './types.ts';

/** '#RRGGBB' → ASS '&H00BBGGRR'. */
export function assColor(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!m) throw new EngineError('invalid_request', `颜色格式应为 #RRGGBB：${hex}`, `bad colour ${hex}`);
  return `&H00${m[3]}${m[2]}${m[1]}`.toUpperCase();
}

/** h:mm:ss.cc (ASS counts centiseconds). */
export function assTime(ms: number): string {
  const cs = Math.max(0, Math.round(ms / 10));
  const h = Math.floor(cs / 360_000);
  const m = Math.floor((cs % 360_000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(c).padStart(2, '0')}`;
}

/** Text as an ASS event: override braces and backslashes neutralised, line breaks as \N. */
export function assText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .replace(/\\/g, '＼')
    .replace(/\{/g, '｛')
    .replace(/\}/g, '｝')
    .replace(/\n+/g, '\\N');
}

const ALIGN: Record<SubtitleStyle['position'], number> = { bottom: 2, middle: 5, top: 8 };

/** The cue of `others` that overlaps `cue` the most (the bilingual partner line), if any. */
function partner(cue: TimedText, others: TimedText[]): TimedText | undefined {
  let best: TimedText | undefined;
  let bestOverlap = 0;
  for (const o of others) {
    const overlap = Math.min(cue.end_ms, o.end_ms) - Math.max(cue.start_ms, o.start_ms);
    if (overlap > bestOverlap) {
      best = o;
      bestOverlap = overlap;
    }
  }
  return best;
}

/**
 * An ASS script for libass: one style from `style` (font, size, colour, outline or box, position,
 * margin), events from `cues`; with `second` each event gets a second line (the cue of the other
 * language that overlaps it most) in the secondary size and colour — bilingual two-line subtitles.
 * Sizes are pixels of a `frame` (default 1920×1080; pass the video size so text is not stretched).
 */
export function toAss(
  cues: TimedText[],
  style: Partial<SubtitleStyle> = {},
  second?: TimedText[],
  frame: { width: number; height: number } = { width: 1920, height: 1080 },
): string {
  const s: SubtitleStyle = { ...DEFAULT_SUBTITLE_STYLE, ...style };
  const scale = frame.height / 1080;
  const px = (n: number) => Math.max(0, Math.round(n * scale));
  const borderStyle = s.box ? 3 : 1;
  const outlineColor = assColor(s.outline_color);
  const back = s.box ? assColor(s.outline_color).replace('&H00', '&H40') : '&H80000000';
  const header = [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${frame.width}`,
    `PlayResY: ${frame.height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: TV.709',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Default,${s.font.replace(/,/g, ' ')},${px(s.size)},${assColor(s.color)},&H000000FF,${outlineColor},${back},${s.bold ? -1 : 0},0,0,0,100,100,0,0,${borderStyle},${px(s.outline)},0,${ALIGN[s.position]},${px(40)},${px(40)},${px(s.margin_v)},1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  ];
  const secondTag = `{\\fs${px(s.second_size ?? s.size * 0.75)}\\c${assColor(s.second_color ?? s.color)}}`;
  const events = cues
    .filter((c) => c.text.trim() && c.end_ms > c.start_ms)
    .map((c) => {
      const other = second ? partner(c, second) : undefined;
      const text = other?.text.trim()
        ? `${assText(c.text)}\\N${secondTag}${assText(other.text)}`
        : assText(c.text);
      return `Dialogue: 0,${assTime(c.start_ms)},${assTime(c.end_ms)},Default,,0,0,0,,${text}`;
    });
  return `${[...header, ...events].join('\n')}\n`;
}

/** SRT, VTT or ASS text of cues (SRT/VTT through the contract's writers). */
export function subtitlesText(
  cues: TimedText[],
  format: 'srt' | 'vtt' | 'ass',
  style?: Partial<SubtitleStyle>,
  second?: TimedText[],
): string {
  if (format === 'srt') return toSrt(cues);
  if (format === 'vtt') return toVtt(cues);
  return toAss(cues, style, second);
}

const USER_INPUT = ['-format_whitelist', ALLOWED_DEMUXERS.join(',')];

/**
 * The final MP4: the video with the mixed audio (AAC) and subtitles burned in through libass (x264
 * re-encode), or added as soft mov_text tracks (video copied), or none (video copied). Fonts: Noto Sans
 * CJK from fontconfig.
 */
export async function renderVideo(opts: RenderOptions): Promise<RenderResult> {
  const probe = await probeFile(opts.video, { signal: opts.signal });
  if (!probe.hasVideo || !probe.width || !probe.height) {
    throw new EngineError('media_unsupported', '文件中没有视频画面', `no video stream in ${opts.video}`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'vw-render-'));
  try {
    const subs = opts.subtitles;
    const burn = subs?.mode === 'burn' && subs.cues.length > 0;
    const slow = buildTimeMap(opts.slow ?? [], probe.durationMs);
    const outMs = mappedDuration(slow, probe.durationMs);
    const args: string[] = [...USER_INPUT, '-i', opts.video, ...USER_INPUT, '-i', opts.audio];
    const maps = ['-map', slow.length || opts.erase?.spans.length ? '[vout]' : '0:v:0', '-map', '1:a:0'];
    const codecs: string[] = [];
    const erase = opts.erase?.spans.length ? opts.erase : undefined;
    if (erase && slow.length) {
      throw new EngineError('invalid_request', '擦除字幕与放慢画面不能同时使用', 'erase with slow video');
    }
    if ((burn && subs) || slow.length || erase) {
      const filters: string[] = [];
      let from = '0:v:0';
      if (erase) {
        const info = await probeVideo(opts.video, { signal: opts.signal });
        filters.push(eraseFilterGraph(erase.spans, erase.method, info, from, 'verased'));
        from = 'verased';
      }
      if (slow.length) {
        filters.push(slowVideoGraph(slow, probe.durationMs, await frameRate(opts.video, opts.signal)));
        from = 'vslow';
      }
      if (burn && subs) {
        const ass = join(dir, 'subs.ass');
        await writeFile(
          ass,
          toAss(subs.cues, subs.style, subs.bilingual, { width: probe.width, height: probe.height }),
        );
        // The temp path has no ':' or quotes, so it needs no filter escaping.
        filters.push(`[${from}]ass=filename=${ass}[vout]`);
      } else filters.push(`[${from}]null[vout]`);
      if (slow.length || erase) codecs.push('-filter_complex', filters.join(';'));
      else codecs.push('-vf', `ass=filename=${join(dir, 'subs.ass')}`);
      codecs.push(
        '-c:v',
        'libx264',
        '-preset',
        opts.preset ?? 'superfast',
        '-crf',
        String(opts.crf ?? 23),
        '-pix_fmt',
        'yuv420p',
      );
    } else {
      codecs.push('-c:v', 'copy');
    }
    if (subs?.mode === 'soft' && subs.cues.length) {
      const tracks: Array<{ cues: TimedText[]; lang: string }> = [{ cues: subs.cues, lang: 'chi' }];
      if (subs.bilingual?.length) tracks.push({ cues: subs.bilingual, lang: 'eng' });
      for (const [i, t] of tracks.entries()) {
        const srt = join(dir, `track${i}.srt`);
        await writeFile(srt, toSrt(t.cues));
        args.push('-format_whitelist', 'srt', '-f', 'srt', '-i', srt);
        maps.push('-map', `${2 + i}:s:0`);
        codecs.push(`-metadata:s:s:${i}`, `language=${t.lang}`);
      }
      codecs.push('-c:s', 'mov_text');
    }
    const progress = opts.onProgress ? ['-progress', 'pipe:1', '-nostats'] : [];
    const proc = spawnMedia(
      'ffmpeg',
      [
        ...args,
        ...maps,
        ...codecs,
        '-c:a',
        'aac',
        '-b:a',
        '192k',
        '-ar',
        '48000',
        '-t',
        (outMs / 1000).toFixed(3),
        '-movflags',
        '+faststart',
        ...progress,
        '-y',
        opts.out,
      ],
      { signal: opts.signal, timeoutMs: 4 * 60 * 60_000, restrictDemuxers: false },
    );
    if (opts.onProgress && probe.durationMs > 0) {
      let buf = '';
      proc.child.stdout.on('data', (c: Buffer) => {
        buf += c.toString('utf8');
        const lines = buf.split('\n');
        buf = lines.pop() ?? '';
        for (const line of lines) {
          const m = /^out_time_us=(\d+)/.exec(line);
          if (m) opts.onProgress?.(Math.min(1, Number(m[1]) / 1000 / outMs));
        }
      });
    } else proc.child.stdout.resume();
    await proc.done;
    opts.onProgress?.(1);
    return {
      video_codec: burn || slow.length || erase ? 'libx264' : 'copy',
      duration_ms: outMs,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Frames per second of the first video stream (25 when ffprobe cannot say). */
async function frameRate(video: string, signal?: AbortSignal): Promise<number> {
  const out = await runFfprobe(
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=avg_frame_rate,r_frame_rate',
      '-of',
      'csv=p=0',
      video,
    ],
    { signal },
  );
  for (const part of out.toString('utf8').trim().split(/[,\n]/)) {
    const [a, b] = part.split('/').map(Number);
    const fps = b ? a / b : a;
    if (fps > 0 && fps < 240) return fps;
  }
  return 25;
}

/** Dub-only export: any audio in, 48 kHz MP3 (192 kbit/s) or 16-bit WAV out. */
export async function exportAudio(
  input: string,
  out: string,
  format: 'mp3' | 'wav',
  opts: { signal?: AbortSignal } = {},
): Promise<void> {
  const codec =
    format === 'mp3'
      ? ['-c:a', 'libmp3lame', '-b:a', '192k', '-f', 'mp3']
      : ['-c:a', 'pcm_s16le', '-f', 'wav'];
  await runFfmpeg(['-i', input, '-vn', '-ar', '48000', ...codec, '-y', out], { signal: opts.signal });
}

/** Stems ZIP: dub.wav, background.wav (when given) and extras, streamed (stored, WAV barely compresses). */
export async function writeStems(opts: StemsOptions): Promise<void> {
  const files: Array<{ name: string; path?: string; text?: string }> = [{ name: 'dub.wav', path: opts.dub }];
  if (opts.background) files.push({ name: 'background.wav', path: opts.background });
  files.push(...(opts.extra ?? []));
  const out = createWriteStream(opts.out);
  const finished = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  let failed: Error | null = null;
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      failed = err;
      out.destroy(err);
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  for (const f of files) {
    const entry = new ZipPassThrough(f.name);
    zip.add(entry);
    if (f.text !== undefined) {
      entry.push(new TextEncoder().encode(f.text), true);
      continue;
    }
    if (!f.path) continue;
    const src = createReadStream(f.path);
    await pipeline(src, async (chunks: AsyncIterable<Buffer>) => {
      for await (const c of chunks) {
        entry.push(new Uint8Array(c.buffer, c.byteOffset, c.length));
        // Respect the file stream's backpressure.
        if (out.writableNeedDrain) await new Promise<void>((r) => out.once('drain', () => r()));
      }
      entry.push(new Uint8Array(0), true);
    });
  }
  zip.end();
  await finished;
  if (failed) throw failed;
}
