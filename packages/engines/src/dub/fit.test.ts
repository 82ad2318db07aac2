import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWavInfo } from '../audio/wav.ts';
import { EngineError, isEngineError } from '../errors.ts';
import { condenseWith, createChatClient } from '../llm/chat.ts';
import { type FakeChatServer, startFakeChatServer } from '../llm/fake-chat-server.ts';
import { espeakSynth, writeTone } from './dub.fixture.ts';
import { fitLine, fitSummary } from './fit.ts';
import { pcmMs, readPcm, trimSilence } from './pcm.ts';
import { placeLines } from './place.ts';
import { DEFAULT_FIT_CAPS, type FitResult } from './types.ts';

let dir: string;
let chat: FakeChatServer;
let synth: ReturnType<typeof espeakSynth>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-dub-fit-'));
  chat = await startFakeChatServer();
  synth = espeakSynth(dir);
});
afterAll(async () => {
  await chat.close();
  await rm(dir, { recursive: true, force: true });
});

/** Spoken length (silence trimmed) of a text, the truth the slots are cut from. */
async function natural(text: string): Promise<number> {
  return pcmMs(trimSilence(await readPcm(await synth.synthesize(text))).pcm);
}

const TEXTS = [
  '大家好，欢迎来到今天的节目。',
  '我们先来看一下今天的天气情况。',
  '北京今天晴转多云，最高气温二十五度。',
  '上海有小雨，出门记得带伞。',
  '接下来是体育新闻，国家队赢得了比赛。',
  '观众朋友们，感谢收看，我们明天再见。',
];

describe('fitLine: the closed-loop timing fit', () => {
  it('leaves a line that fits alone, trimming the engine’s edge silence', async () => {
    const len = await natural(TEXTS[0]);
    const r = await fitLine({
      text: TEXTS[0],
      slot: { start_ms: 0, end_ms: Math.ceil(len) + 500 },
      nextStartMs: null,
      synthesize: synth.synthesize,
      workDir: dir,
    });
    expect(r.fits).toBe(true);
    expect(r.summary).toBe('时长合适');
    expect(r.actions.map((a) => a.kind)).toEqual(['trim']);
    expect(Math.abs(r.duration_ms - len)).toBeLessThanOrEqual(2);
    const info = readWavInfo(await readHead(r.file));
    expect(info.sampleRate).toBe(48_000);
    expect(Math.abs((await stat(r.file)).size - 44 - r.duration_ms * 96)).toBeLessThanOrEqual(96);
  });

  it('borrows the gap first and speeds up only the rest (30 % too long)', async () => {
    const len = await natural(TEXTS[1]);
    const slotMs = Math.round(len / 1.3);
    const r = await fitLine({
      text: TEXTS[1],
      slot: { start_ms: 1000, end_ms: 1000 + slotMs },
      nextStartMs: 1000 + slotMs + 500,
      synthesize: synth.synthesize,
      workDir: dir,
    });
    expect(r.fits).toBe(true);
    const borrow = r.actions.find((a) => a.kind === 'borrow_gap');
    expect(borrow?.ms).toBe(500 - DEFAULT_FIT_CAPS.minGapMs);
    const speed = r.actions.find((a) => a.kind === 'speed');
    expect(speed?.rate).toBeGreaterThan(1);
    expect(speed?.rate).toBeLessThanOrEqual(DEFAULT_FIT_CAPS.maxRate + 0.01);
    expect(r.duration_ms).toBeLessThanOrEqual(slotMs + 420 + 50);
    expect(r.engines).toEqual(['Rubber Band R3']);
    expect(r.summary).toMatch(/^超出 \d+\.\d s → 借用间隙 0\.4 s，语速 1\.\d\d×$/);
  });

  it('reports a line it cannot fit with the reason (60 % too long, no gap, no language model)', async () => {
    const len = await natural(TEXTS[2]);
    const slotMs = Math.round(len / 1.6);
    const r = await fitLine({
      text: TEXTS[2],
      slot: { start_ms: 0, end_ms: slotMs },
      nextStartMs: slotMs + 40,
      synthesize: synth.synthesize,
      workDir: dir,
    });
    expect(r.fits).toBe(false);
    expect(r.actions.find((a) => a.kind === 'speed')?.rate).toBeCloseTo(1.35, 1);
    expect(r.actions.some((a) => a.kind === 'borrow_gap')).toBe(false);
    expect(r.overflow_ms).toBeGreaterThan(50);
    expect(Math.abs(r.duration_ms - (r.available_ms + r.overflow_ms))).toBeLessThanOrEqual(2);
    expect(r.reason).toContain('自动缩写暂未开放');
    expect(r.summary).toContain('仍超出');
  });

  it('condenses through the language model (fake OpenAI-compatible server) and synthesises again', async () => {
    const text = '接下来是体育新闻，国家队在昨天晚上的比赛中以三比一战胜了对手，赢得了小组第一。';
    const len = await natural(text);
    const slotMs = Math.round(len / 1.6);
    const client = createChatClient({ baseURL: chat.url, apiKey: 'k', model: 'fake-chat' });
    const before = chat.requests.length;
    const r = await fitLine({
      text,
      slot: { start_ms: 0, end_ms: slotMs },
      nextStartMs: null,
      synthesize: synth.synthesize,
      condense: condenseWith(client),
      workDir: dir,
    });
    expect(chat.requests.length - before).toBeGreaterThanOrEqual(1);
    expect(chat.requests.length - before).toBeLessThanOrEqual(2);
    const rewrites = r.actions.filter((a) => a.kind === 'condense');
    expect(rewrites.length).toBeGreaterThanOrEqual(1);
    expect(r.text).toBe(rewrites.at(-1)?.text);
    expect(r.text.length).toBeLessThan(text.length);
    expect(r.fits).toBe(true);
    expect(r.duration_ms).toBeLessThanOrEqual(slotMs + 50);
    expect(r.summary).toMatch(/精简文本 \d 次/);
  });

  it('falls back to speed when the language model fails, and says so when the line stays unfit', async () => {
    const len = await natural(TEXTS[4]);
    const slotMs = Math.round(len / 1.6);
    let calls = 0;
    const r = await fitLine({
      text: TEXTS[4],
      slot: { start_ms: 0, end_ms: slotMs },
      nextStartMs: null,
      synthesize: synth.synthesize,
      condense: async () => {
        calls++;
        throw new EngineError('remote_error', '语言模型请求失败（HTTP 503）', 'chat failed');
      },
      workDir: dir,
    });
    expect(calls).toBe(1);
    expect(r.fits).toBe(false);
    expect(r.actions.find((a) => a.kind === 'speed')?.rate).toBeCloseTo(1.35, 1);
    expect(r.reason).toContain('语言模型精简失败：语言模型请求失败（HTTP 503）');
  });

  it('marks slow video as the last resort when allowed', async () => {
    const len = await natural(TEXTS[3]);
    const slotMs = Math.round(len / 1.5);
    const r = await fitLine({
      text: TEXTS[3],
      slot: { start_ms: 0, end_ms: slotMs },
      nextStartMs: slotMs,
      synthesize: synth.synthesize,
      allowSlowVideo: true,
      workDir: dir,
    });
    const slow = r.actions.find((a) => a.kind === 'slow_video');
    expect(r.fits).toBe(true);
    expect(slow?.rate).toBeGreaterThanOrEqual(0.66);
    expect(slow?.rate).toBeLessThan(1);
    expect(r.summary).toContain('放慢视频');
  });

  it('writes the Chinese summary the editor shows', () => {
    expect(
      fitSummary(
        800,
        [
          { kind: 'trim', ms: 200 },
          { kind: 'borrow_gap', ms: 300 },
          { kind: 'speed', rate: 1.12 },
        ],
        true,
        0,
      ),
    ).toBe('超出 0.8 s → 借用间隙 0.3 s，语速 1.12×');
  });
});

async function readHead(file: string): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(buf, 0, 4096, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

describe('a generated SRT with lines 30–60 % too long: fit, then place', () => {
  it('every line ends inside its slot + 50 ms or is reported unfit with the reason; no overlaps; exact starts', async () => {
    // Slots are cut from each line's natural length: lines 1, 3 and 5 are 30 %, 45 % and 60 % too long.
    const over = [1, 1.3, 0.9, 1.45, 1, 1.6];
    const lens = await Promise.all(TEXTS.map(natural));
    const cues: Array<{ start_ms: number; end_ms: number; text: string }> = [];
    let t = 700;
    for (const [i, text] of TEXTS.entries()) {
      const slot = Math.round((lens[i] / over[i]) * (over[i] <= 1 ? 1.1 : 1));
      cues.push({ start_ms: t, end_ms: t + slot, text });
      t += slot + 250 + (i % 2) * 333;
    }
    const durationMs = t + 500;
    const results: FitResult[] = await Promise.all(
      cues.map((c, i) =>
        fitLine({
          text: c.text,
          slot: c,
          nextStartMs: cues[i + 1]?.start_ms ?? null,
          trackEndMs: durationMs,
          synthesize: synth.synthesize,
          workDir: dir,
          name: `line-${i}`,
        }),
      ),
    );
    for (const [i, r] of results.entries()) {
      const c = cues[i];
      const end = c.start_ms + r.duration_ms;
      if (r.fits) {
        expect(end, `line ${i}: ${r.summary}`).toBeLessThanOrEqual(c.start_ms + r.available_ms + 50);
        const room = cues[i + 1] ? cues[i + 1].start_ms - DEFAULT_FIT_CAPS.minGapMs : durationMs;
        expect(end).toBeLessThanOrEqual(room + 50);
      } else {
        expect(r.reason, `line ${i}`).toMatch(/超出/);
        expect(r.overflow_ms).toBeGreaterThan(0);
      }
      if (over[i] > 1) expect(r.summary).toMatch(/^超出/);
    }
    expect(results.filter((r) => !r.fits).length).toBeLessThanOrEqual(1);

    const out = join(dir, 'track.wav');
    const report = await placeLines(
      results.map((r, i) => ({ file: r.file, start_ms: cues[i].start_ms })),
      out,
      { duration_ms: durationMs },
    );
    expect(report.offsets).toEqual(cues.map((c) => Math.round(c.start_ms * 48)));
    // Clipping only ever happens to a line reported unfit; nothing overlaps by construction.
    for (const c of report.clipped) expect(results[c.index].fits).toBe(false);
    const track = await readPcm(out);
    expect(track.samples.length).toBe(Math.round(durationMs * 48));
    // Onsets read back from the PCM: each line's first audible sample is within 10 ms of its cue.
    for (const [i, c] of cues.entries()) {
      const at = Math.round(c.start_ms * 48);
      let k = at - 480;
      while (k < track.samples.length && Math.abs(track.samples[k]) <= 300) k++;
      expect(Math.abs(k - at) / 48, `line ${i} onset`).toBeLessThanOrEqual(25);
      expect(k).toBeGreaterThanOrEqual(at);
    }
  }, 60_000);
});

describe('placeLines on a long track', () => {
  it('60 lines over 10 minutes: the last line starts on its cue (no drift), lines clipped not overlapped', async () => {
    const toneFile = join(dir, 'tone.wav');
    await writeTone(toneFile, 1200, 440, 22_050); // resampled by placement (an engine's own rate)
    const exact = join(dir, 'tone48.wav');
    await writeTone(exact, 1200, 440, 48_000);
    // Starts with fractions of a millisecond of rounding each (9 973.37 ms apart).
    const lines = Array.from({ length: 60 }, (_, i) => ({
      file: i % 2 ? toneFile : exact,
      start_ms: 250 + i * 9973.37,
    }));
    // Line 10 would run into line 11 (placed 700 ms later): it must be cut, not mixed.
    lines[11] = { ...lines[11], start_ms: lines[10].start_ms + 700 };
    const durationMs = 600_000;
    const out = join(dir, 'long.wav');
    const t0 = performance.now();
    const report = await placeLines(lines, out, { duration_ms: durationMs });
    const took = performance.now() - t0;
    expect(report.clipped).toEqual([{ index: 10, cut_ms: 500 }]);
    const last = lines.at(-1) as { start_ms: number };
    const lastAt = Math.round((last.start_ms / 1000) * 48_000);
    expect(report.offsets.at(-1)).toBe(lastAt);
    // Read the samples around the last cue back from the file and find the onset.
    const fh = await open(out, 'r');
    const window = Buffer.alloc(48_000 * 2);
    const from = lastAt - 24_000;
    await fh.read(window, 0, window.length, 44 + from * 2);
    await fh.close();
    const samples = new Int16Array(window.buffer, window.byteOffset, window.length / 2);
    const onset = samples.findIndex((s) => Math.abs(s) > 1000) + from;
    expect(Math.abs(onset - lastAt) / 48).toBeLessThanOrEqual(10);
    expect(took).toBeLessThan(30_000);
  }, 60_000);
});

describe('bad input', () => {
  it('refuses an empty slot and a line outside the track, writing nothing', async () => {
    const empty = await fitLine({
      text: '你好',
      slot: { start_ms: 500, end_ms: 500 },
      nextStartMs: null,
      synthesize: synth.synthesize,
      workDir: dir,
      name: 'empty-slot',
    }).catch((e: unknown) => e);
    expect(isEngineError(empty, 'invalid_request')).toBe(true);
    await expect(stat(join(dir, 'empty-slot.wav'))).rejects.toThrow();
    const out = join(dir, 'never.wav');
    const outside = await placeLines([{ file: join(dir, 'tone48.wav'), start_ms: 5000 }], out, {
      duration_ms: 4000,
    }).catch((e: unknown) => e);
    expect(isEngineError(outside, 'invalid_request')).toBe(true);
    await expect(stat(out)).rejects.toThrow();
  });

  it('stops when aborted and leaves no temporary files', async () => {
    const controller = new AbortController();
    const len = await natural(TEXTS[5]);
    const err = await fitLine({
      text: TEXTS[5],
      slot: { start_ms: 0, end_ms: Math.round(len / 1.3) },
      nextStartMs: null,
      synthesize: async (text) => {
        const file = await synth.synthesize(text);
        controller.abort();
        return file;
      },
      workDir: dir,
      name: 'aborted',
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    for (const suffix of ['', '.src', '.fast'])
      await expect(stat(join(dir, `aborted${suffix}.wav`))).rejects.toThrow();
  });
});
