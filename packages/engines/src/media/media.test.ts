import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { getPriority, setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { deprioritize } from '../process/tool.ts';
import {
  createMediaInspector,
  extractAudio,
  probeFile,
  safeArgs,
  spawnMedia,
  thumbnail,
  transcodeStream,
  waveformPeaks,
} from './index.ts';

let dir: string;
const file = (name: string) => path.join(dir, name);
const ff = (...args: string[]) =>
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args]);

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'vw-media-test-'));
  // 4 s of 320×240 video with a 440 Hz tone whose second half is silent: known truth for probe and peaks.
  ff(
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=25',
    '-f',
    'lavfi',
    '-i',
    "sine=frequency=440:sample_rate=44100,volume=enable='gte(t,2)':volume=0",
    '-t',
    '4',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    file('clip.mp4'),
  );
  execFileSync('espeak-ng', ['-v', 'en', '-w', file('speech.wav'), 'hello world, this is a test']);
  writeFileSync(
    file('evil.m3u8'),
    `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nhttp://127.0.0.1:9/x.ts\n#EXTINF:10,\n${file('clip.mp4')}\n#EXT-X-ENDLIST\n`,
  );
  writeFileSync(
    file('evil.ffconcat'),
    `ffconcat version 1.0\nfile '${file('clip.mp4')}'\nfile '/etc/passwd'\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('safety options', () => {
  it('puts the protocol and demuxer whitelists before every input and never reads stdin', () => {
    const args = safeArgs('ffmpeg', ['-i', 'a', '-i', 'b', 'out']);
    expect(args).toContain('-nostdin');
    expect(args.filter((a) => a === '-protocol_whitelist')).toHaveLength(2);
    expect(args[args.indexOf('-protocol_whitelist') + 1]).toBe('file,pipe');
    expect(args.indexOf('-format_whitelist')).toBeLessThan(args.indexOf('-i'));
  });
});

describe('probeFile', () => {
  it('reads duration, streams, size and codecs of a video', async () => {
    const p = await probeFile(file('clip.mp4'));
    expect(p.formatName).toContain('mp4');
    expect(p.durationMs).toBeGreaterThanOrEqual(3900);
    expect(p.durationMs).toBeLessThanOrEqual(4100);
    expect(p).toMatchObject({
      width: 320,
      height: 240,
      hasVideo: true,
      hasAudio: true,
      videoCodec: 'h264',
      audioCodec: 'aac',
    });
    expect(p.size).toBe(statSync(file('clip.mp4')).size);
  });

  it('reads a WAV of speech', async () => {
    const p = await probeFile(file('speech.wav'), { format: 'wav' });
    expect(p).toMatchObject({ hasAudio: true, hasVideo: false, width: null, audioCodec: 'pcm_s16le' });
    expect(p.durationMs).toBeGreaterThan(1000);
  });

  it('refuses playlists that name other files or URLs, and text', async () => {
    for (const name of ['evil.m3u8', 'evil.ffconcat']) {
      const error = await probeFile(file(name)).catch((e) => e);
      expect(error).toBeInstanceOf(EngineError);
      expect(error.code).toBe('media_unsupported');
    }
    // Even when asked for the playlist demuxer by name.
    const forced = await probeFile(file('evil.m3u8'), { format: 'hls' }).catch((e) => e);
    expect(forced.code).toBe('media_unsupported');
  });

  it('refuses a truncated MP4 (no index)', async () => {
    const whole = readFileSync(file('clip.mp4'));
    writeFileSync(file('cut.mp4'), whole.subarray(0, Math.floor(whole.length / 2)));
    const error = await probeFile(file('cut.mp4')).catch((e) => e);
    expect(error.code).toBe('media_unsupported');
  });
});

describe('waveformPeaks', () => {
  it('gives min/max per bucket: loud where the tone plays, silent after', async () => {
    const { peaks, bucketsPerSecond, durationMs } = await waveformPeaks(file('clip.mp4'), 10);
    expect(bucketsPerSecond).toBe(10);
    expect(durationMs).toBeGreaterThan(3900);
    expect(peaks.length).toBeGreaterThanOrEqual(78);
    expect(peaks.length).toBeLessThanOrEqual(84);
    const bucket = (i: number) => [peaks[2 * i], peaks[2 * i + 1]];
    // lavfi's sine has amplitude 1/8: about ±0.125 in the first two seconds.
    expect(bucket(5)[1]).toBeGreaterThan(0.1);
    expect(bucket(5)[0]).toBeLessThan(-0.1);
    expect(Math.abs(bucket(30)[1])).toBeLessThan(0.02);
  });
});

describe('thumbnail, extractAudio, transcodeStream', () => {
  it('writes a JPEG frame', async () => {
    await thumbnail(file('clip.mp4'), file('thumb.jpg'), 1, { width: 160 });
    const jpg = readFileSync(file('thumb.jpg'));
    expect(jpg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const p = await probeFile(file('thumb.jpg'), { format: 'mjpeg', restrictDemuxers: false });
    expect(p.width).toBe(160);
  });

  it('extracts 16 kHz mono WAV', async () => {
    await extractAudio(file('clip.mp4'), file('a.wav'), { rate: 16000, channels: 1 });
    const p = await probeFile(file('a.wav'));
    expect(p.streams[0]).toMatchObject({ type: 'audio', sampleRate: 16000, channels: 1 });
  });

  it('streams a WAV transcode and stops ffmpeg when the reader goes away', async () => {
    const wav = await buffer(transcodeStream(file('clip.mp4'), 'wav', { rate: 8000, channels: 1 }));
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.toString('latin1', 8, 12)).toBe('WAVE');
    // 4 s × 8000 × 2 bytes, plus the header.
    expect(wav.length).toBeGreaterThan(60_000);

    const stream = transcodeStream(file('clip.mp4'), 'wav');
    await new Promise((r) => stream.once('readable', r));
    stream.destroy();
    await new Promise((r) => stream.once('close', r));
  });

  it('errors the stream when the input is not media', async () => {
    const stream = transcodeStream(file('evil.m3u8'), 'wav');
    await expect(buffer(stream)).rejects.toThrow(EngineError);
  });
});

describe('process control', () => {
  it('kills on abort and on timeout, with the reason', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const proc = spawnMedia('ffmpeg', ['-re', '-f', 'lavfi', '-i', 'sine', '-f', 'null', '-'], {
      signal: controller.signal,
      restrictDemuxers: false,
    });
    setTimeout(() => controller.abort(), 200);
    await expect(proc.done).rejects.toMatchObject({ code: 'aborted' });
    expect(Date.now() - started).toBeLessThan(2000);

    const slow = spawnMedia('ffmpeg', ['-re', '-f', 'lavfi', '-i', 'sine', '-f', 'null', '-'], {
      timeoutMs: 300,
      restrictDemuxers: false,
    });
    await expect(slow.done).rejects.toMatchObject({ code: 'timeout' });
  });

  it('runs media below request handling (niceness 10), never raising a process already lower', async () => {
    const proc = spawnMedia('ffmpeg', ['-re', '-f', 'lavfi', '-i', 'sine', '-f', 'null', '-'], {
      restrictDemuxers: false,
    });
    expect(getPriority(proc.child.pid!)).toBe(Math.max(10, getPriority()));
    setPriority(proc.child.pid!, 15);
    deprioritize(proc.child.pid);
    expect(getPriority(proc.child.pid!)).toBe(15);
    proc.kill();
    await proc.done.catch(() => {});
  });

  it('reports the stderr tail on failure', async () => {
    const error = await probeFile(file('missing.mp4')).catch((e) => e);
    expect(existsSync(file('missing.mp4'))).toBe(false);
    expect(error).toBeInstanceOf(Error);
    const bad = spawnMedia('ffmpeg', ['-i', file('evil.ffconcat'), '-f', 'null', '-']);
    const e = await bad.done.catch((x) => x);
    expect(e.code).toBe('media_failed');
    expect(e.message).toMatch(/whitelist|Invalid/);
  });
});

describe('media inspector (helper process)', () => {
  const helperPid = () =>
    Number(
      execFileSync('pgrep', ['-P', String(process.pid), '-f', 'inspector-process'])
        .toString()
        .trim(),
    );

  it('answers as the direct calls do, keeps engine error codes, and runs at niceness 10', async () => {
    const inspector = createMediaInspector();
    try {
      expect(await inspector.probeFile(file('clip.mp4'))).toEqual(await probeFile(file('clip.mp4')));
      expect(await inspector.waveformPeaks(file('clip.mp4'), 10)).toEqual(
        await waveformPeaks(file('clip.mp4'), 10),
      );
      await inspector.thumbnail(file('clip.mp4'), file('helper-thumb.jpg'), 1);
      expect(readFileSync(file('helper-thumb.jpg')).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      const refused = await inspector.probeFile(file('evil.m3u8'), { format: 'hls' }).catch((e) => e);
      expect(refused).toBeInstanceOf(EngineError);
      expect(refused.code).toBe('media_unsupported');
      expect(getPriority(helperPid())).toBe(Math.max(10, getPriority()));
    } finally {
      await inspector.close();
    }
  });

  it('close() waits for its idle helper to exit even when nothing else keeps the process alive', () => {
    // A script (like a bench) whose last step is close(): it must print after close, and exit 0
    // instead of Node's 13 for a top-level await that never settled.
    const script = file('close-idle.mts');
    writeFileSync(
      script,
      `import { createMediaInspector } from ${JSON.stringify(new URL('./inspector.ts', import.meta.url).href)};
const inspector = createMediaInspector();
await inspector.probeFile(${JSON.stringify(file('speech.wav'))});
await inspector.close();
console.log('closed');
`,
    );
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(out.trim()).toBe('closed');
  });

  it('fails the calls of a helper that dies and starts a new one for the next call', async () => {
    const inspector = createMediaInspector();
    const fifo = file('never-written.fifo');
    execFileSync('mkfifo', [fifo]);
    let writer: FileHandle | undefined;
    try {
      await inspector.probeFile(file('speech.wav'));
      const first = helperPid();
      const stuck = inspector.waveformPeaks(fifo, 10).catch((e) => e);
      // Opening a FIFO for writing returns once its reader (the helper's ffmpeg) has opened it: the
      // call is then surely out, and ffmpeg waits for bytes while its helper is killed.
      writer = await open(fifo, 'w');
      process.kill(first, 'SIGKILL');
      const error = await stuck;
      // Not the file's fault: a code the upload does not turn into a refusal, so it can be retried.
      expect(error).toBeInstanceOf(EngineError);
      expect(error.code).toBe('engine_unavailable');
      const probe = await inspector.probeFile(file('speech.wav'), { format: 'wav' });
      expect(probe.hasAudio).toBe(true);
      expect(helperPid()).not.toBe(first);
    } finally {
      await writer?.close(); // the orphaned ffmpeg reads EOF and exits
      await inspector.close();
    }
  });
});
