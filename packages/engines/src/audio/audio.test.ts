import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  concatAudioFiles,
  decodeAudio,
  encodeAudio,
  normalizeLoudness,
  probeAudio,
  probeAudioBuffer,
  resamplePcm,
  shiftPitch,
} from './ffmpeg.ts';
import { createMp3Encoder, stopMp3Threads } from './mp3-encoder.ts';
import { srtTime, toSrt, toVtt } from './subtitles.ts';
import {
  applyGainDb,
  concatPcm,
  decodeWav,
  encodeWav,
  type Pcm,
  readWavInfo,
  silence,
  silentWav,
} from './wav.ts';

/** One second of a 440 Hz tone at 22.05 kHz, at a quarter of full scale. */
function tone(ms = 1000, sampleRate = 22_050, amplitude = 8000): Pcm {
  const samples = new Int16Array(Math.round((ms / 1000) * sampleRate));
  for (let i = 0; i < samples.length; i++)
    samples[i] = Math.round(amplitude * Math.sin((2 * Math.PI * 440 * i) / sampleRate));
  return { samples, sampleRate };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-audio-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('WAV', () => {
  it('writes a silent 16-bit mono WAV of exact size and header', () => {
    const wav = silentWav(1500);
    expect(wav.length).toBe(44 + 1.5 * 44_100 * 2);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(wav.readUInt16LE(20)).toBe(1);
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(44_100);
    expect(wav.readUInt32LE(28)).toBe(88_200);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.readUInt32LE(40)).toBe(1.5 * 44_100 * 2);
    expect(wav.subarray(44).every((b) => b === 0)).toBe(true);
    expect(silentWav(10, 8000).length).toBe(44 + 160);
  });

  it('round-trips PCM and skips extra chunks when reading', () => {
    const pcm = tone(50);
    const wav = encodeWav(pcm);
    expect(decodeWav(wav).samples).toEqual(pcm.samples);
    // A LIST chunk between fmt and data, as some servers write.
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([4, 0, 0, 0]), Buffer.from('INFO')]);
    const withList = Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
    expect(readWavInfo(withList).dataBytes).toBe(pcm.samples.length * 2);
    expect(decodeWav(withList).samples).toEqual(pcm.samples);
    expect(() => readWavInfo(Buffer.from('not a wav file'))).toThrow(/RIFF/);
  });

  it('joins PCM with pauses and applies gain with clipping', () => {
    const joined = concatPcm([tone(100), silence(250, 22_050), tone(100)]);
    expect(joined.samples.length).toBe(2205 + 5513 + 2205);
    expect(applyGainDb({ samples: Int16Array.of(1000, -30000), sampleRate: 8000 }, 6).samples).toEqual(
      Int16Array.of(1995, -32768),
    );
    expect(() => concatPcm([tone(10), tone(10, 8000)])).toThrow(/cannot join/);
  });
});

describe('ffmpeg', () => {
  it('encodes MP3 and OGG/Opus that ffprobe accepts', async () => {
    const pcm = tone(2000);
    const mp3 = await encodeAudio(pcm, { format: 'mp3' });
    const ogg = await encodeAudio(pcm, { format: 'ogg' });
    const wav = await encodeAudio(pcm, { format: 'wav', sampleRate: 16_000 });
    expect(mp3.subarray(0, 3).toString('ascii') === 'ID3' || mp3[0] === 0xff).toBe(true);
    expect(ogg.subarray(0, 4).toString('ascii')).toBe('OggS');
    const [m, o, w] = await Promise.all([
      probeAudioBuffer(mp3),
      probeAudioBuffer(ogg),
      probeAudioBuffer(wav),
    ]);
    expect(m).toMatchObject({ codec: 'mp3', channels: 1, sampleRate: 22_050 });
    expect(o).toMatchObject({ codec: 'opus', format: 'ogg', channels: 1 });
    expect(w).toMatchObject({ codec: 'pcm_s16le', sampleRate: 16_000 });
    for (const p of [m, o, w]) expect(p.durationMs).toBeGreaterThan(1900);
    for (const p of [m, o, w]) expect(p.durationMs).toBeLessThan(2150);
    const back = await decodeAudio(mp3);
    expect(back.sampleRate).toBe(22_050);
    expect(Math.abs(back.samples.length - pcm.samples.length)).toBeLessThan(2000);
  });

  it('normalises loudness, resamples and shifts pitch keeping the length', async () => {
    const quiet = tone(3000, 22_050, 500);
    const loud = await normalizeLoudness(quiet);
    const rms = (p: Pcm) => Math.sqrt(p.samples.reduce((s, v) => s + v * v, 0) / p.samples.length);
    expect(loud.sampleRate).toBe(22_050);
    expect(rms(loud)).toBeGreaterThan(rms(quiet) * 4);
    const down = await resamplePcm(quiet, 16_000);
    expect(down.samples.length).toBeCloseTo(48_000, -2);
    const higher = await shiftPitch(tone(1000), 12);
    expect(higher.samples.length).toBe(22_050);
    // Still sounding at the end: nothing of the speech is cut.
    expect(Math.max(...higher.samples.subarray(21_000, 22_000))).toBeGreaterThan(2000);
  });

  it('concatenates files with pauses into one encoded file', async () => {
    const a = join(dir, 'a.wav');
    const b = join(dir, 'b.wav');
    await writeFile(a, encodeWav(tone(1000)));
    await writeFile(b, encodeWav(tone(500)));
    const out = join(dir, 'joined.mp3');
    await concatAudioFiles([{ path: a }, { pauseMs: 700 }, { path: b }], { output: out, format: 'mp3' });
    const probe = await probeAudio(out);
    expect(probe.codec).toBe('mp3');
    expect(probe.durationMs).toBeGreaterThan(2150);
    expect(probe.durationMs).toBeLessThan(2350);
  });

  it('encodes an MP3 stream written chunk by chunk while its output is read', async () => {
    const encoder = createMp3Encoder({ sampleRate: 22_050 });
    const parts: Buffer[] = [];
    encoder.output.on('data', (c: Buffer) => parts.push(c));
    for (let i = 0; i < 4; i++) await encoder.write(tone(500).samples);
    await encoder.end();
    const mp3 = Buffer.concat(parts);
    const probe = await probeAudioBuffer(mp3);
    expect(probe.codec).toBe('mp3');
    expect(probe.sampleRate).toBe(22_050);
    expect(probe.durationMs).toBeGreaterThan(1950);
    expect(probe.durationMs).toBeLessThan(2150);
    // The tone survives: decoded, its level is the input's (8000 peak → RMS ≈ 5657) within LAME's loss.
    const back = await decodeAudio(mp3, 22_050);
    const middle = back.samples.subarray(4_000, 40_000);
    const rms = Math.sqrt(middle.reduce((sum, v) => sum + v * v, 0) / middle.length);
    expect(rms).toBeGreaterThan(5_100);
    expect(rms).toBeLessThan(6_200);
  });

  it('stops an MP3 stream when its signal aborts, and waits while its output is unread', async () => {
    const abort = new AbortController();
    const encoder = createMp3Encoder({ sampleRate: 22_050, signal: abort.signal });
    // Nobody reads: a minute of audio (≈480 KB) fits, ten minutes do not.
    await encoder.write(tone(60_000).samples);
    let settled = false;
    const blocked = encoder.write(tone(600_000).samples).then(
      () => {
        settled = true;
      },
      (err) => {
        settled = true;
        throw err;
      },
    );
    // Unbounded, each turn of the event loop would add another chunk's bytes.
    while (encoder.output.readableLength < 900 * 1024) await new Promise((resolve) => setImmediate(resolve));
    for (let turn = 0; turn < 100; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    expect(encoder.output.readableLength).toBeLessThan(1024 * 1024 + 64 * 1024);
    abort.abort();
    await expect(blocked).rejects.toMatchObject({ code: 'aborted' });
    expect(encoder.output.destroyed).toBe(true);
    await expect(encoder.end()).rejects.toMatchObject({ code: 'aborted' });
  });

  it('encodes several MP3 streams at once, each whole, and leaves the caller its samples', async () => {
    const lengths = [700, 1300, 2100, 400];
    const encoded = await Promise.all(
      lengths.map(async (ms) => {
        const encoder = createMp3Encoder({ sampleRate: 22_050 });
        const parts: Buffer[] = [];
        encoder.output.on('data', (c: Buffer) => parts.push(c));
        const pcm = tone(ms);
        // Sentence by sentence, as the server writes, with the caller reading its samples after.
        for (let i = 0; i < 3; i++) {
          await encoder.write(pcm.samples);
          expect(pcm.samples.length).toBe(Math.round((ms / 1000) * 22_050));
          expect(pcm.samples[100]).toBe(tone(ms).samples[100]);
        }
        await encoder.end();
        return Buffer.concat(parts);
      }),
    );
    for (const [i, mp3] of encoded.entries()) {
      const probe = await probeAudioBuffer(mp3);
      expect(probe.durationMs).toBeGreaterThan(lengths[i] * 3 - 60);
      expect(probe.durationMs).toBeLessThan(lengths[i] * 3 + 120);
    }
  });

  it('encodes a long MP3 stream with ffmpeg: whole, and the caller keeps its samples', async () => {
    const encoder = createMp3Encoder({ sampleRate: 22_050, long: true });
    const parts: Buffer[] = [];
    encoder.output.on('data', (c: Buffer) => parts.push(c));
    const pcm = tone(500);
    for (let i = 0; i < 4; i++) await encoder.write(pcm.samples);
    expect(pcm.samples.length).toBe(11_025);
    await encoder.end();
    const probe = await probeAudioBuffer(Buffer.concat(parts));
    expect(probe.codec).toBe('mp3');
    expect(probe.sampleRate).toBe(22_050);
    expect(probe.durationMs).toBeGreaterThan(1950);
    expect(probe.durationMs).toBeLessThan(2150);
  });

  it('stops a long MP3 stream when its signal aborts', async () => {
    const abort = new AbortController();
    const encoder = createMp3Encoder({ sampleRate: 22_050, signal: abort.signal, long: true });
    encoder.output.resume();
    await encoder.write(tone(500).samples);
    abort.abort();
    await expect(encoder.end()).rejects.toMatchObject({ code: 'aborted' });
    await expect(encoder.write(tone(500).samples)).rejects.toMatchObject({ code: 'aborted' });
    expect(encoder.output.destroyed).toBe(true);
  });

  it('fails a long MP3 stream cleanly when its ffmpeg dies', async () => {
    // 16 kHz tells this stream's ffmpeg from other tests' running at the same time.
    const encoder = createMp3Encoder({ sampleRate: 16_000, long: true });
    encoder.output.resume();
    await encoder.write(tone(500, 16_000).samples);
    const ffmpegs = execFileSync('ps', ['--ppid', String(process.pid), '-o', 'pid=,args='])
      .toString()
      .split('\n')
      .filter((line) => line.includes('-flush_packets') && line.includes('-ar 16000'));
    expect(ffmpegs).toHaveLength(1);
    process.kill(Number.parseInt(ffmpegs[0], 10), 'SIGKILL');
    await expect(encoder.end()).rejects.toMatchObject({ code: 'media_failed' });
    await expect(encoder.write(tone(500, 16_000).samples)).rejects.toMatchObject({ code: 'media_failed' });
    expect(encoder.output.destroyed).toBe(true);
  });

  it('fails an open MP3 stream cleanly when its encoder thread dies, and the next stream encodes', async () => {
    const encoder = createMp3Encoder({ sampleRate: 22_050 });
    encoder.output.resume();
    await encoder.write(tone(500).samples);
    await stopMp3Threads();
    await expect(encoder.write(tone(500).samples)).rejects.toMatchObject({ code: 'media_failed' });
    await expect(encoder.end()).rejects.toMatchObject({ code: 'media_failed' });
    expect(encoder.output.destroyed).toBe(true);

    const next = createMp3Encoder({ sampleRate: 22_050 });
    const parts: Buffer[] = [];
    next.output.on('data', (c: Buffer) => parts.push(c));
    await next.write(tone(1000).samples);
    await next.end();
    const probe = await probeAudioBuffer(Buffer.concat(parts));
    expect(probe.durationMs).toBeGreaterThan(950);
    expect(probe.durationMs).toBeLessThan(1150);
  });

  it('refuses what it cannot read with a media error', async () => {
    await expect(decodeAudio(Buffer.from('definitely not audio'))).rejects.toMatchObject({
      code: 'media_failed',
    });
  });
});

describe('subtitles', () => {
  const cues = [
    { startMs: 0, endMs: 1234.4, text: '第一句。' },
    { startMs: 1234.4, endMs: 3_723_000, text: 'Second\nline' },
    { startMs: 3_723_000, endMs: 3_724_000, text: '  ' },
  ];

  it('writes SRT with comma milliseconds and numbered cues', () => {
    expect(srtTime(3_723_004)).toBe('01:02:03,004');
    expect(toSrt(cues)).toBe(
      '1\n00:00:00,000 --> 00:00:01,234\n第一句。\n\n2\n00:00:01,234 --> 01:02:03,000\nSecond line\n',
    );
  });

  it('writes WebVTT with dot milliseconds', () => {
    expect(toVtt(cues)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.234\n第一句。\n\n00:00:01.234 --> 01:02:03.000\nSecond line\n',
    );
  });
});
