import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.ts';
import { probeFile } from '../media/probe.ts';
import { decodeSamples, espeakSynth, rmsDb, run } from './dub.fixture.ts';
import { measureLoudness } from './ffmpeg-log.ts';
import { mixDub } from './mix.ts';
import { placeLines } from './place.ts';
import { exportAudio, renderVideo, toAss, writeStems } from './render.ts';

let dir: string;
let dub: string;
let video: string;
const LINES = [
  { start_ms: 500, text: '第一句配音从这里开始。' },
  { start_ms: 3500, text: '这一段要保留原声。' },
];
const KEEP = { start_ms: 3300, end_ms: 5800 };
const DURATION = 6000;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-dub-mix-'));
  const synth = espeakSynth(dir);
  const files = await Promise.all(LINES.map((l) => synth.synthesize(l.text)));
  dub = join(dir, 'dub.wav');
  await placeLines(
    files.map((file, i) => ({ file, start_ms: LINES[i].start_ms })),
    dub,
    { duration_ms: DURATION },
  );
  // The "original": a 320×240 clip whose audio is a steady 1 kHz tone at −20 dBFS (stereo, 44.1 kHz).
  video = join(dir, 'clip.mp4');
  await run('ffmpeg', [
    '-v', 'error',
    '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=6',
    '-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=44100:duration=6,volume=0.14,pan=stereo|c0=c0|c1=c0',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-y', video,
  ]); // biome-ignore format: ffmpeg argument pairs
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Level of the 1 kHz background between two times (ms), speech filtered out by a narrow band-pass. */
async function toneLevel(file: string, fromMs: number, toMs: number): Promise<number> {
  const out = join(dir, `band-${Math.random().toString(36).slice(2)}.wav`);
  await run('ffmpeg', [
    '-v',
    'error',
    '-i',
    file,
    '-af',
    'bandpass=f=1000:width_type=q:w=30,bandpass=f=1000:width_type=q:w=30',
    '-ac',
    '1',
    '-ar',
    '48000',
    '-y',
    out,
  ]);
  const s = await decodeSamples(out);
  return rmsDb(s, fromMs * 48, toMs * 48);
}

describe('mixDub', () => {
  it('ducks the original under the dub, keeps it in keep regions and hits −16 LUFS (online)', async () => {
    const out = join(dir, 'mix-duck.wav');
    const r = await mixDub({
      dub,
      original: video,
      background: 'duck',
      loudness: 'online',
      keep: [KEEP],
      out,
    });
    expect(r.target_lufs).toBe(-16);
    const measured = await measureLoudness(out);
    expect(Math.abs(measured.integrated - -16)).toBeLessThanOrEqual(1);
    expect(Math.abs(r.lufs - measured.integrated)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(r.duration_ms - DURATION)).toBeLessThanOrEqual(30);
    const probe = await probeFile(out);
    expect(probe.streams[0]).toMatchObject({ sampleRate: 48_000, channels: 2 });
    // While line 1 speaks (≈0.8–1.8 s) the tone sits well under its level before the line (0–0.4 s).
    const before = await toneLevel(out, 50, 400);
    const under = await toneLevel(out, 900, 1600);
    expect(before - under).toBeGreaterThan(6);
    // Inside the keep region the dub is silent (line 2 is muted) and the tone is back at full level.
    const kept = await toneLevel(out, 3700, 4500);
    expect(Math.abs(kept - before)).toBeLessThan(2);
    const all = await decodeSamples(out);
    const broadband = rmsDb(all, 3700 * 48, 4500 * 48);
    expect(Math.abs(broadband - kept)).toBeLessThan(1.5);
  }, 60_000);

  it('mutes the original (except keep regions) and hits −23 LUFS (broadcast)', async () => {
    const out = join(dir, 'mix-mute.m4a');
    const r = await mixDub({
      dub,
      original: video,
      background: 'mute',
      loudness: 'broadcast',
      keep: [KEEP],
      out,
    });
    expect(Math.abs(r.lufs - -23)).toBeLessThanOrEqual(1);
    const s = await decodeSamples(out);
    const before = rmsDb(s, 50 * 48, 400 * 48); // no tone before line 1
    const kept = rmsDb(s, 3700 * 48, 4500 * 48); // the tone in the keep region
    expect(before).toBeLessThan(-70);
    expect(kept - before).toBeGreaterThan(25);
  }, 60_000);

  it('refuses ducking without the original', async () => {
    const err = await mixDub({ dub, background: 'duck', loudness: 'online', out: join(dir, 'x.wav') }).catch(
      (e) => e,
    );
    expect(isEngineError(err, 'invalid_request')).toBe(true);
  });
});

describe('render and exports', () => {
  const cues = [{ start_ms: 500, end_ms: 3000, text: '配音字幕测试' }];
  const english = [{ start_ms: 400, end_ms: 3100, text: 'Dubbing subtitle test' }];

  it('writes ASS with the style, scaled to the frame, and bilingual second lines', () => {
    const ass = toAss(cues, { color: '#FFCC00', size: 54, outline: 2, position: 'top' }, english, {
      width: 640,
      height: 360,
    });
    expect(ass).toContain('PlayResX: 640');
    expect(ass).toContain('Style: Default,Noto Sans CJK SC,18,&H0000CCFF,');
    expect(ass).toMatch(/,1,1,0,8,13,13,20,1$/m); // outline style, 1 px (2 at 1080), top, margins scaled
    expect(ass).toContain(
      'Dialogue: 0,0:00:00.50,0:00:03.00,Default,,0,0,0,,配音字幕测试\\N{\\fs13\\c&H0066E0FF}Dubbing subtitle test',
    );
    expect(toAss([{ start_ms: 0, end_ms: 1, text: 'a{\\b1}b' }])).toContain(',,a｛＼b1｝b');
  });

  it('burns subtitles (libass, x264) and replaces the audio; frames differ only where the text is', async () => {
    const mix = join(dir, 'mix-for-video.m4a');
    await mixDub({ dub, original: video, background: 'duck', loudness: 'online', out: mix });
    const out = join(dir, 'burned.mp4');
    const progress: number[] = [];
    const r = await renderVideo({
      video,
      audio: mix,
      subtitles: { cues, mode: 'burn', bilingual: english },
      out,
      preset: 'ultrafast',
      onProgress: (f) => progress.push(f),
    });
    expect(r.video_codec).toBe('libx264');
    const probe = await probeFile(out);
    expect(probe.videoCodec).toBe('h264');
    expect(probe.audioCodec).toBe('aac');
    expect([probe.width, probe.height]).toEqual([320, 240]);
    expect(Math.abs(probe.durationMs - DURATION)).toBeLessThanOrEqual(100);
    expect(progress.at(-1)).toBe(1);
    // Compare a frame of the original and of the render at 1.5 s: the bottom band (subtitles) differs a
    // lot, the top half hardly at all (only x264 noise).
    const diff = async (crop: string) => {
      const { stderr } = await run('ffmpeg', [
        '-i', video, '-i', out,
        '-filter_complex', `[0:v]trim=start=1.5,setpts=PTS-STARTPTS,${crop}[a];[1:v]trim=start=1.5,setpts=PTS-STARTPTS,${crop}[b];[a][b]psnr`,
        '-frames:v', '1', '-f', 'null', '-',
      ]); // biome-ignore format: ffmpeg arguments
      return Number(/average:([\d.]+|inf)/.exec(stderr)?.[1].replace('inf', '99'));
    };
    const top = await diff('crop=320:100:0:0');
    const bottom = await diff('crop=320:90:0:150');
    expect(top).toBeGreaterThan(30);
    expect(bottom).toBeLessThan(top - 8);
  }, 90_000);

  it('adds soft subtitles (mov_text) and copies the video when nothing is burned', async () => {
    const out = join(dir, 'soft.mp4');
    const r = await renderVideo({
      video,
      audio: dub,
      subtitles: { cues, mode: 'soft', bilingual: english },
      out,
    });
    expect(r.video_codec).toBe('copy');
    const probe = await probeFile(out);
    const subs = probe.streams.filter((s) => s.type === 'subtitle');
    expect(subs.map((s) => s.codec)).toEqual(['mov_text', 'mov_text']);
    const { stdout } = await run('ffmpeg', [
      '-v',
      'error',
      '-i',
      out,
      '-map',
      '0:s:0',
      '-f',
      'srt',
      'pipe:1',
    ]);
    expect(stdout).toContain('配音字幕测试');
  }, 60_000);

  it('exports dub-only MP3/WAV and a stems ZIP', async () => {
    const mp3 = join(dir, 'dub.mp3');
    await exportAudio(dub, mp3, 'mp3');
    const p = await probeFile(mp3);
    expect(p.audioCodec).toBe('mp3');
    expect(Math.abs(p.durationMs - DURATION)).toBeLessThanOrEqual(80);
    const zip = join(dir, 'stems.zip');
    await writeStems({
      dub,
      background: dub,
      extra: [{ name: 'subtitles.srt', text: '1\n00:00:00,500 --> 00:00:03,000\n配音\n' }],
      out: zip,
    });
    const entries = unzipSync(new Uint8Array(await readFile(zip)));
    expect(Object.keys(entries)).toEqual(['dub.wav', 'background.wav', 'subtitles.srt']);
    expect(Buffer.from(entries['dub.wav']).equals(await readFile(dub))).toBe(true);
    expect(new TextDecoder().decode(entries['subtitles.srt'])).toContain('配音');
  }, 30_000);
});
