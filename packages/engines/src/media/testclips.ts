import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EngineError } from '../errors.ts';
import { MANDARIN_VOICE, toEspeakInput } from '../espeak/input.ts';
import { pickGrayFrames } from '../ocr/frames.ts';
import type { Box } from '../ocr/types.ts';
import { runFfmpeg } from './run.ts';

const exec = promisify(execFile);

export interface TestCue {
  text: string;
  start_ms: number;
  end_ms: number;
  position: 'bottom' | 'top';
  color?: 'white' | 'yellow';
  /** 2 = the text has two lines (split at '\n'; a bilingual cue is "中文\nEnglish"). */
  lines?: 1 | 2;
}

export interface SubtitledClipOptions {
  width: number;
  height: number;
  duration_ms: number;
  background: 'still' | 'moving';
  cues: TestCue[];
  /** espeak-ng reads each cue's first line at its time into the audio track (else a silent track). */
  speech?: boolean;
  /** Frame rate (default 25). */
  fps?: number;
  /** Measure each cue's drawn box (default true; a long bench clip skips it). */
  measureBoxes?: boolean;
  signal?: AbortSignal;
}

export interface SubtitledClip {
  /** Per cue (same order): where it was drawn (text with its outline), normalised. */
  boxes: Box[];
}

const FONT = 'Noto Sans CJK SC';

const assTime = (ms: number) => {
  const cs = Math.round(ms / 10);
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
};

/** ASS with four styles (bottom/top × white/yellow), black outline, Noto Sans CJK. */
export function testClipAss(opts: Pick<SubtitledClipOptions, 'width' | 'height' | 'cues'>): string {
  const { width, height } = opts;
  const size = Math.round(height * 0.062);
  const outline = Math.max(1.5, Math.round(height / 240));
  const margin = Math.round(height * 0.05);
  const style = (name: string, colour: string, align: number) =>
    `Style: ${name},${FONT},${size},${colour},&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,${outline},0,${align},20,20,${margin},1`;
  const lines = [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    style('BottomWhite', '&H00FFFFFF', 2),
    style('BottomYellow', '&H0000FFFF', 2),
    style('TopWhite', '&H00FFFFFF', 8),
    style('TopYellow', '&H0000FFFF', 8),
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  ];
  for (const c of opts.cues) {
    const name = `${c.position === 'top' ? 'Top' : 'Bottom'}${c.color === 'yellow' ? 'Yellow' : 'White'}`;
    const text = c.text.replace(/\r?\n/g, '\\N');
    lines.push(`Dialogue: 0,${assTime(c.start_ms)},${assTime(c.end_ms)},${name},,0,0,0,,${text}`);
  }
  return `${lines.join('\n')}\n`;
}

function validate(opts: SubtitledClipOptions) {
  const bad = (en: string) => new EngineError('invalid_request', `测试视频参数无效：${en}`, en);
  if (!(opts.width >= 64 && opts.height >= 64 && opts.width % 2 === 0 && opts.height % 2 === 0)) {
    throw bad('width and height must be even and at least 64');
  }
  if (!(opts.duration_ms > 0)) throw bad('duration_ms must be positive');
  for (const c of opts.cues) {
    if (!(c.start_ms >= 0 && c.end_ms > c.start_ms && c.end_ms <= opts.duration_ms)) {
      throw bad(`cue "${c.text}" has times outside the clip`);
    }
  }
}

function backgroundSource(opts: SubtitledClipOptions, fps: number): string {
  const size = `${opts.width}x${opts.height}`;
  const d = (opts.duration_ms / 1000).toFixed(3);
  if (opts.background === 'still') return `color=c=0x3a5f7d:s=${size}:r=${fps}:d=${d}`;
  // Slowly moving mid-tone gradients: a real moving picture without text of its own.
  return `gradients=s=${size}:r=${fps}:d=${d}:c0=0x1f4e79:c1=0x7a3b2e:c2=0x2e7a4f:c3=0x6b6b20:nb_colors=4:speed=0.03:type=linear:seed=1`;
}

/**
 * Where each cue was drawn: the subtitles rendered alone on a flat grey picture at the middle of each
 * cue (one frame per cue), compared with the grey; the bounding box of what differs (text + outline).
 */
async function measureBoxes(ass: string, opts: SubtitledClipOptions, fps: number): Promise<Box[]> {
  const { width, height, cues } = opts;
  if (!cues.length) return [];
  const frameMs = 1000 / fps;
  const picks = cues.map((c) => Math.floor((c.start_ms + c.end_ms) / 2 / frameMs));
  const d = (opts.duration_ms / 1000).toFixed(3);
  const frames = await pickGrayFrames(
    ['-f', 'lavfi', '-i', `color=c=0x808080:s=${width}x${height}:r=${fps}:d=${d}`],
    picks,
    {
      fps,
      width,
      height,
      filters: `subtitles=filename=${ass}`,
      restrictDemuxers: false,
      signal: opts.signal,
    },
  );
  const boxes: Box[] = cues.map((c, i) => {
    const frame = frames.get(picks[i]);
    return frame ? diffBox(frame, width, height, c.position) : { x: 0, y: 0, w: 0, h: 0 };
  });
  return boxes;
}

function diffBox(frame: Buffer, width: number, height: number, position: 'top' | 'bottom'): Box {
  const bg = frame[0];
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  // Only the cue's own half: another cue shown at the same time (top title) is not this cue's box.
  const [from, to] = position === 'top' ? [0, height >> 1] : [height >> 1, height];
  for (let y = from; y < to; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (Math.abs(frame[row + x] - bg) > 12) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  if (x1 < 0) return { x: 0, y: 0, w: 0, h: 0 };
  return { x: x0 / width, y: y0 / height, w: (x1 - x0 + 1) / width, h: (y1 - y0 + 1) / height };
}

async function speechTrack(dir: string, opts: SubtitledClipOptions): Promise<string[]> {
  const inputs: string[] = [];
  const filters: string[] = [];
  let k = 0;
  for (const c of opts.cues) {
    const first = c.text.split('\n')[0].trim();
    if (!first) continue;
    const zh = /\p{Script=Han}/u.test(first);
    const voice = zh ? MANDARIN_VOICE : 'en-us';
    const file = join(dir, `cue${k}.wav`);
    await exec(
      'espeak-ng',
      ['-m', '-v', voice, '-s', zh ? '190' : '170', '-w', file, toEspeakInput(first, { voice })],
      {
        signal: opts.signal,
      },
    );
    inputs.push('-i', file);
    // Never past the cue's end: the spoken line stays inside its subtitle.
    const len = ((c.end_ms - c.start_ms) / 1000).toFixed(3);
    filters.push(`[${k + 1}:a]atrim=0:${len},aresample=48000,adelay=${c.start_ms}:all=1[s${k}]`);
    k++;
  }
  if (!k) return [];
  const mix = `${filters.join(';')};${Array.from({ length: k }, (_, i) => `[s${i}]`).join('')}amix=inputs=${k}:normalize=0:duration=longest,apad[aout]`;
  return [...inputs, '-filter_complex_script', await writeScript(dir, mix)];
}

async function writeScript(dir: string, text: string) {
  const file = join(dir, 'audio.filter');
  await writeFile(file, text);
  return file;
}

/**
 * A test/demo video with burned-in subtitles (libass, Noto Sans CJK, white or yellow with a black
 * outline, bottom or top, one or two lines) over a still or moving background, H.264 + AAC, and the
 * box each cue was drawn in (measured on a render of the subtitles alone), so tests know the truth.
 */
export async function makeSubtitledClip(out: string, opts: SubtitledClipOptions): Promise<SubtitledClip> {
  validate(opts);
  const fps = opts.fps ?? 25;
  const dir = await mkdtemp(join(tmpdir(), 'vw-clip-'));
  try {
    const ass = join(dir, 'subs.ass');
    await writeFile(ass, testClipAss(opts));
    const d = (opts.duration_ms / 1000).toFixed(3);
    const audio = opts.speech ? await speechTrack(dir, opts) : [];
    const audioInputs = audio.length ? audio : ['-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono'];
    await runFfmpeg(
      [
        '-f',
        'lavfi',
        '-i',
        backgroundSource(opts, fps),
        ...audioInputs,
        '-map',
        '0:v',
        '-map',
        audio.length ? '[aout]' : '1:a',
        '-vf',
        `subtitles=filename=${ass},format=yuv420p`,
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '18',
        '-g',
        String(fps * 2),
        '-c:a',
        'aac',
        '-b:a',
        '96k',
        '-t',
        d,
        '-movflags',
        '+faststart',
        '-y',
        out,
      ],
      { restrictDemuxers: false, signal: opts.signal, timeoutMs: 30 * 60_000 },
    );
    return { boxes: opts.measureBoxes === false ? [] : await measureBoxes(ass, opts, fps) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
