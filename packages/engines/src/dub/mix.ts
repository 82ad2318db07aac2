import { extname } from 'node:path';
import { EngineError } from '../errors.ts';
import { probeFile } from '../media/probe.ts';
import { ffmpegInfo, parseSummary } from './ffmpeg-log.ts';
import { type KeepRegion, LOUDNESS_TARGETS, type MixOptions, type MixResult } from './types.ts';

const PEAK_LIMIT_DB = -1;

/** ffmpeg expression true inside any region (seconds). */
const inRegions = (regions: KeepRegion[]) =>
  regions
    .map((r) => `between(t,${(r.start_ms / 1000).toFixed(3)},${(r.end_ms / 1000).toFixed(3)})`)
    .join('+');

const outputCodec = (out: string): string[] => {
  switch (extname(out).toLowerCase()) {
    case '.wav':
      return ['-c:a', 'pcm_s16le'];
    case '.mp3':
      return ['-c:a', 'libmp3lame', '-b:a', '192k'];
    case '.m4a':
    case '.aac':
      return ['-c:a', 'aac', '-b:a', '192k'];
    default:
      throw new EngineError(
        'invalid_request',
        '混音输出只支持 WAV、MP3、M4A',
        `unsupported mix output ${out}`,
      );
  }
};

/**
 * The filter graph of the mix (before loudness): the dub, silent inside keep regions; the background
 * (original audio, and music when given) ducked under the dub by a sidechain compressor, muted except
 * inside keep regions, or kept as it is.
 */
export function mixGraph(
  opts: Pick<MixOptions, 'background' | 'keep' | 'original' | 'music'>,
  { bedOut = false }: { bedOut?: boolean } = {},
): {
  graph: string;
  inputs: number;
  /** True when the graph also has a `[bedout]` pad: the background exactly as it sits in the mix. */
  bed: boolean;
} {
  const keep = opts.keep?.filter((r) => r.end_ms > r.start_ms) ?? [];
  const stereo = 'aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';
  const parts: string[] = [];
  const dubMute = keep.length ? `,volume=0:enable='${inRegions(keep)}'` : '';
  const beds: string[] = [];
  let inputs = 1;
  const useOriginal = opts.original && (opts.background !== 'mute' || keep.length > 0);
  if (useOriginal) {
    const gate = opts.background === 'mute' ? `,volume=0:enable='not(${inRegions(keep)})'` : '';
    parts.push(`[${inputs}:a]${stereo}${gate}[orig]`);
    beds.push('[orig]');
    inputs++;
  }
  if (opts.music) {
    // Music sits under speech: 12 dB lower than it comes.
    parts.push(`[${inputs}:a]${stereo},volume=-12dB[music]`);
    beds.push('[music]');
    inputs++;
  }
  const duck = opts.background === 'duck' || (opts.music && opts.background !== 'keep');
  parts.push(`[0:a]${stereo}${dubMute}${duck && beds.length ? ',asplit=2[dub][sc]' : '[dub]'}`);
  if (!beds.length) return { graph: `${parts.join(';')};[dub]anull[mix]`, inputs, bed: false };
  const bed = beds.length > 1 ? '[bed]' : beds[0];
  if (beds.length > 1)
    parts.push(`${beds.join('')}amix=inputs=${beds.length}:duration=first:normalize=0[bed]`);
  let under = bed;
  if (duck) {
    // ≈ −36 dBFS threshold, strong ratio: the background drops ~15–20 dB while a line is spoken.
    parts.push(
      `${bed}[sc]sidechaincompress=threshold=0.015:ratio=12:attack=15:release=400:level_sc=1[ducked]`,
    );
    under = '[ducked]';
  }
  if (bedOut) {
    parts.push(`${under}asplit=2[under][bedout]`);
    under = '[under]';
  }
  parts.push(`[dub]${under}amix=inputs=2:duration=first:normalize=0[mix]`);
  return { graph: parts.join(';'), inputs, bed: bedOut };
}

/**
 * Mixes the placed dub with its background and normalises loudness in two passes: measure the mix
 * (EBU R128, ffmpeg ebur128), then one linear gain to the preset (−16 LUFS online, −23 LUFS
 * broadcast) with a −1 dBFS look-ahead limiter, measuring the output in the same run.
 */
export async function mixDub(opts: MixOptions): Promise<MixResult> {
  const target = LOUDNESS_TARGETS[opts.loudness];
  if (target === undefined) {
    throw new EngineError('invalid_request', '响度预设无效', `unknown loudness preset ${opts.loudness}`);
  }
  if (!opts.original && (opts.background !== 'mute' || opts.keep?.length)) {
    throw new EngineError(
      'invalid_request',
      '压低或保留原声需要原视频/原音频',
      `background '${opts.background}' and keep regions need the original audio`,
    );
  }
  const codec = outputCodec(opts.out);
  const { graph, bed } = mixGraph(opts, { bedOut: Boolean(opts.backgroundOut) });
  const inputs = ['-i', opts.dub];
  if (opts.original && (opts.background !== 'mute' || opts.keep?.length)) inputs.push('-i', opts.original);
  if (opts.music) inputs.push('-i', opts.music);
  const { signal } = opts;

  // Pass 1: measure the mix as it comes (ebur128 at 48 kHz; loudnorm's 192 kHz resampling costs
  // ten times as much on a long track).
  const first = parseSummary(
    await ffmpegInfo(
      [
        ...inputs,
        '-filter_complex',
        `${graph};[mix]ebur128=framelog=verbose[out]${bed ? ';[bedout]anullsink' : ''}`,
        '-map',
        '[out]',
        '-f',
        'null',
        '-',
      ],
      {
        signal,
      },
    ),
  );
  if (!Number.isFinite(first.integrated)) {
    throw new EngineError('invalid_request', '混音结果没有声音，无法标准化响度', 'the mix is silent');
  }
  // Pass 2: one linear gain to the target, a look-ahead peak limiter with its delay compensated (no
  // shift of the dub), and the result measured in the same run.
  const gain = (target - first.integrated).toFixed(2);
  const limit = (10 ** (PEAK_LIMIT_DB / 20)).toFixed(4);
  const limiter = `volume=${gain}dB,alimiter=limit=${limit}:level=false:latency=true:attack=5:release=60`;
  // The background stem gets the same gain, so dub + background stems add up to the mix.
  const stem =
    bed && opts.backgroundOut
      ? {
          pads: `;[bedout]${limiter}[bg]`,
          args: ['-map', '[bg]', '-ar', '48000', '-ac', '2', '-c:a', 'pcm_s16le', '-y', opts.backgroundOut],
        }
      : { pads: '', args: [] };
  const log = await ffmpegInfo(
    [
      ...inputs,
      '-filter_complex',
      `${graph};[mix]${limiter},asplit=2[out][m];[m]ebur128=peak=sample:framelog=verbose[meter]${stem.pads}`,
      '-map',
      '[out]',
      '-ar',
      '48000',
      '-ac',
      '2',
      ...codec,
      '-y',
      opts.out,
      ...stem.args,
      '-map',
      '[meter]',
      '-f',
      'null',
      '-',
    ],
    { signal },
  );
  const result = parseSummary(log);
  const probe = await probeFile(opts.out, { signal });
  return {
    lufs: Math.round(result.integrated * 10) / 10,
    target_lufs: target,
    peak_db: result.peak,
    ...(stem.args.length && opts.backgroundOut ? { background_file: opts.backgroundOut } : {}),
    duration_ms: probe.durationMs,
  };
}
