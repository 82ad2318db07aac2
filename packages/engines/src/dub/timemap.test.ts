import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../audio/wav.ts';
import { probeFile } from '../media/probe.ts';
import { decodeSamples, espeakSynth, run, tone } from './dub.fixture.ts';
import { fitLine } from './fit.ts';
import { mixDub } from './mix.ts';
import { readPcm } from './pcm.ts';
import { placeLines } from './place.ts';
import { renderVideo } from './render.ts';
import { buildTimeMap, MAX_SLOW_FACTOR, mappedDuration, mapTime, slowAudio } from './timemap.ts';

let dir: string;
let video: string;
const DURATION = 6000;
const TEXT = '这一句配音太长了，加速也放不下。';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-dub-slow-'));
  video = join(dir, 'clip.mp4');
  await run('ffmpeg', [
    '-v', 'error',
    '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=6',
    '-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=44100:duration=6,volume=0.14',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-y', video,
  ]); // biome-ignore format: ffmpeg argument pairs
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('time map', () => {
  it('maps times through slowed stretches in whole milliseconds, merging and capping', () => {
    const map = buildTimeMap(
      [
        { start_ms: 1000, end_ms: 2000, add_ms: 400 },
        { start_ms: 3000, end_ms: 4000, add_ms: 900 }, // capped at 1.5×
      ],
      6000,
    );
    expect(map).toEqual([
      { start_ms: 1000, end_ms: 2000, add_ms: 400 },
      { start_ms: 3000, end_ms: 4000, add_ms: Math.floor(1000 * (MAX_SLOW_FACTOR - 1)) },
    ]);
    expect(mapTime(map, 500)).toBe(500);
    expect(mapTime(map, 1000)).toBe(1000);
    expect(mapTime(map, 1500)).toBe(1700);
    expect(mapTime(map, 2000)).toBe(2400);
    expect(mapTime(map, 3000)).toBe(3400);
    expect(mapTime(map, 5000)).toBe(5900);
    expect(mappedDuration(map, 6000)).toBe(6900);
    expect(
      buildTimeMap(
        [
          { start_ms: 0, end_ms: 1000, add_ms: 100 },
          { start_ms: 500, end_ms: 1200, add_ms: 100 },
        ],
        6000,
      ),
    ).toEqual([{ start_ms: 0, end_ms: 1200, add_ms: 200 }]);
  });
});

describe('slow video', () => {
  it('fits a line too long even at 1.35×, slows that stretch, and keeps the next line on its mapped cue', async () => {
    const synth = espeakSynth(dir);
    const natural = (await readPcm(await synth.synthesize(TEXT))).samples.length / 48;
    // At 1.35× it still runs ~25 % past its slot (no gap to borrow: the next cue is minGap away).
    const slot = { start_ms: 1000, end_ms: 1000 + Math.round(natural / 1.35 / 1.25) };
    const nextStart = slot.end_ms + 80;
    expect(nextStart + 800).toBeLessThan(DURATION);
    const base = { text: TEXT, slot, nextStartMs: nextStart, synthesize: synth.synthesize, workDir: dir };
    const unfit = await fitLine(base);
    expect(unfit.fits).toBe(false);
    const fit = await fitLine({ ...base, allowSlowVideo: true });
    expect(fit.fits).toBe(true);
    const slow = fit.actions.find((a) => a.kind === 'slow_video');
    expect(slow?.ms).toBeGreaterThan(0);
    expect(fit.summary).toContain('放慢视频');

    const map = buildTimeMap(
      [{ start_ms: slot.start_ms, end_ms: slot.end_ms, add_ms: slow?.ms ?? 0 }],
      DURATION,
    );
    expect(map[0]?.add_ms).toBe(slow?.ms);
    const added = map[0]!.add_ms;
    // The line fits its stretch in the output timeline.
    expect(fit.duration_ms).toBeLessThanOrEqual(mapTime(map, slot.end_ms) - mapTime(map, slot.start_ms) + 50);

    const toneFile = join(dir, 'next.wav');
    await writeFile(toneFile, encodeWav(tone(500)));
    const outMs = mappedDuration(map, DURATION);
    const dub = join(dir, 'dub.wav');
    const report = await placeLines(
      [
        { file: fit.file, start_ms: mapTime(map, slot.start_ms) },
        { file: toneFile, start_ms: mapTime(map, nextStart) },
      ],
      dub,
      { duration_ms: outMs },
    );
    expect(report.clipped).toEqual([]);
    // The next line starts exactly at its mapped cue: the first loud sample of the tone.
    const samples = await decodeSamples(dub);
    const at = (nextStart + added) * 48;
    expect(report.offsets[1]).toBe(at);
    let onset = at - 100;
    while (onset < samples.length && Math.abs(samples[onset]) < 1000) onset++;
    expect(onset).toBe(at);
    expect(samples.length).toBe(outMs * 48);

    // The original audio follows the slowed video: exactly the output length.
    const original = join(dir, 'original-slow.wav');
    await slowAudio(video, original, map, { durationMs: DURATION });
    expect((await decodeSamples(original)).length).toBe(outMs * 48);
    const mix = join(dir, 'mix.wav');
    await mixDub({ dub, original, background: 'duck', loudness: 'online', out: mix });
    const mp4 = join(dir, 'slow.mp4');
    const rendered = await renderVideo({
      video,
      audio: mix,
      slow: map,
      subtitles: {
        cues: [{ start_ms: mapTime(map, slot.start_ms), end_ms: mapTime(map, slot.end_ms), text: '放慢' }],
        mode: 'burn',
      },
      out: mp4,
    });
    expect(rendered.duration_ms).toBe(DURATION + added);
    const probe = await probeFile(mp4);
    expect(probe.hasVideo && probe.hasAudio).toBe(true);
    const { stdout } = await run('ffprobe', [
      '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=duration,nb_frames', '-of', 'csv=p=0', mp4,
    ]); // biome-ignore format: ffprobe arguments
    const [videoSec, frames] = String(stdout).trim().split(',').map(Number);
    // The video itself grew by the added time (one frame of rounding), at a constant 25 fps.
    expect(Math.abs(videoSec * 1000 - (DURATION + added))).toBeLessThanOrEqual(41);
    expect(Math.abs(frames - ((DURATION + added) / 1000) * 25)).toBeLessThanOrEqual(1.01);
    expect(Math.abs(probe.durationMs - (DURATION + added))).toBeLessThanOrEqual(41);
  }, 120_000);
});
