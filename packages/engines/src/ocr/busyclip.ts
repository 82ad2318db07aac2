import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../media/run.ts';
import type { TestCue } from '../media/testclips.ts';

export interface BusyClipOptions {
  width: number;
  height: number;
  duration_ms: number;
  /** Text and times; every cue is drawn yellow in a half-transparent box, '\n' starts a second line. */
  cues: Pick<TestCue, 'text' | 'start_ms' | 'end_ms'>[];
  /** Picks the fractal's place and the grain, so a held-out clip differs from the one tuned on. */
  seed: number;
  /** How much of the picture the box behind the text hides, 0..1 (default 0.56). */
  boxOpacity?: number;
  fps?: number;
}

/** Points on the Mandelbrot set's edge where a slow zoom stays detailed. */
const PLACES = [
  [-0.743644, -0.131826],
  [-0.7453, 0.1127],
  [-1.25066, 0.02012],
  [-0.16, 1.0405],
  [0.282, 0.01],
  [-0.7269, 0.1889],
];

const assTime = (ms: number) => {
  const cs = Math.round(ms / 10);
  const s = Math.floor(cs / 100);
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
};

function busyAss(opts: BusyClipOptions): string {
  const { width, height } = opts;
  const size = Math.round(height * 0.062);
  const pad = Math.max(3, Math.round(height / 120));
  const margin = Math.round(height * 0.05);
  // BorderStyle 3 = a box in OutlineColour, whose alpha (00 opaque … FF clear) lets the picture through.
  const alpha = Math.round(255 * (1 - (opts.boxOpacity ?? 0.56)))
    .toString(16)
    .toUpperCase()
    .padStart(2, '0');
  return `${[
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Boxed,Noto Sans CJK SC,${size},&H0000E6FF,&H000000FF,&H${alpha}000000,&H${alpha}000000,0,0,0,0,100,100,0,0,3,${pad},0,2,20,20,${margin},1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...opts.cues.map(
      (c) =>
        `Dialogue: 0,${assTime(c.start_ms)},${assTime(c.end_ms)},Boxed,,0,0,0,,${c.text.replace(/\r?\n/g, '\\N')}`,
    ),
  ].join('\n')}\n`;
}

/**
 * A hard case for subtitle recognition: yellow subtitles in a half-transparent box over a zooming,
 * morphing Mandelbrot texture with heavy film grain (every frame differs everywhere, bright and dark
 * details right behind the letters). H.264, silent.
 */
export async function makeBusyClip(out: string, opts: BusyClipOptions): Promise<void> {
  const fps = opts.fps ?? 25;
  const d = opts.duration_ms / 1000;
  const [x, y] = PLACES[opts.seed % PLACES.length];
  const dir = await mkdtemp(join(tmpdir(), 'vw-busy-'));
  try {
    const ass = join(dir, 'subs.ass');
    await writeFile(ass, busyAss(opts));
    // The fractal is drawn small (cheap) and scaled up; grain is added at full size.
    const background = [
      `mandelbrot=s=${opts.width >> 2}x${opts.height >> 2}:r=${fps}:maxiter=256:start_x=${x}:start_y=${y}`,
      `start_scale=0.6:end_scale=0.02:end_pts=${Math.round(d * fps * 1.2)}`,
      'morphamp=0.1:morphxf=0.07:morphyf=0.05',
    ].join(':');
    const grain = `noise=alls=36:allf=t+u:all_seed=${opts.seed}`;
    await runFfmpeg(
      [
        '-f',
        'lavfi',
        '-i',
        background,
        '-vf',
        `scale=${opts.width}:${opts.height}:flags=bicubic,${grain},subtitles=filename=${ass},format=yuv420p`,
        '-t',
        d.toFixed(3),
        '-an',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '20',
        '-g',
        String(fps * 2),
        '-y',
        out,
      ],
      { restrictDemuxers: false, timeoutMs: 30 * 60_000 },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
