import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOverall, checkSample, speakerItem } from './sample-check.ts';
import {
  centroid,
  checkSpeakers,
  cosine,
  detectSpeakerModels,
  type FileEmbeddings,
  findSpeakerModel,
  judgeSpeakers,
  speakerWindows,
} from './speakers.ts';
import { tinySpeakerModel } from './tiny-speaker.fixture.ts';

/*
 * The one-speaker check: model detection on folder layouts (no weights can be fetched here), the
 * window / centroid / decision maths on synthetic embeddings with a known truth, the report item, and
 * the child-process wiring with an unreadable model (reported, never thrown, server untouched).
 */

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-speakers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('speaker-embedding model detection', () => {
  it('refuses a folder without its .onnx file, naming what is missing', async () => {
    const models = join(dir, 'incomplete');
    await mkdir(join(models, '3dspeaker-eres2net'), { recursive: true });
    await writeFile(join(models, '3dspeaker-eres2net', 'README.md'), 'weights not here');
    await mkdir(join(models, 'vits-zh'), { recursive: true }); // not a speaker model: ignored
    const found = await detectSpeakerModels(models);
    expect(found).toEqual([
      expect.objectContaining({ file: null, missing: ['*.onnx'], label: '3D-Speaker (sherpa-onnx)' }),
    ]);
    const r = await findSpeakerModel(models);
    expect(r.model).toBeNull();
    expect('reason' in r && r.reason).toMatch(/3dspeaker-eres2net lacks \*\.onnx/);
  });

  it('detects a complete folder and a loose published file, usable ones first', async () => {
    const models = join(dir, 'complete');
    await mkdir(join(models, 'speaker-embedding-broken'), { recursive: true });
    await mkdir(join(models, 'wespeaker-resnet34'), { recursive: true });
    await writeFile(join(models, 'wespeaker-resnet34', 'model.onnx'), 'x');
    await writeFile(join(models, '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx'), 'x');
    const found = await detectSpeakerModels(models);
    expect(found.map((m) => [m.label, Boolean(m.file)])).toEqual([
      ['3D-Speaker (sherpa-onnx)', true],
      ['WeSpeaker (sherpa-onnx)', true],
      ['Speaker embedding (sherpa-onnx)', false],
    ]);
    expect(found[1]!.file).toBe(join(models, 'wespeaker-resnet34', 'model.onnx'));
    const r = await findSpeakerModel(models);
    expect(r.model?.file).toMatch(/3dspeaker_speech_eres2net.*\.onnx$/);
  });

  it('says what to configure without a models folder or without a model', async () => {
    const none = await findSpeakerModel(undefined);
    expect('reason' in none && none.reason).toMatch(/SHERPA_ONNX_MODELS_DIR/);
    const empty = join(dir, 'empty');
    await mkdir(empty, { recursive: true });
    const r = await findSpeakerModel(empty);
    expect('reason' in r && r.reason).toMatch(/no speaker-embedding model.*3dspeaker/);
  });
});

describe('windows and decision', () => {
  it('cuts voiced spans into ~3 s windows and skips short spans', () => {
    expect(
      speakerWindows([
        { start_ms: 0, end_ms: 9000 },
        { start_ms: 9500, end_ms: 10_500 }, // 1 s: too short
        { start_ms: 11_000, end_ms: 16_000 }, // 5 s → two of 2.5 s
        { start_ms: 20_000, end_ms: 24_000 }, // 4 s → one
      ]),
    ).toEqual([
      { start_ms: 0, end_ms: 3000 },
      { start_ms: 3000, end_ms: 6000 },
      { start_ms: 6000, end_ms: 9000 },
      { start_ms: 11_000, end_ms: 13_500 },
      { start_ms: 13_500, end_ms: 16_000 },
      { start_ms: 20_000, end_ms: 24_000 },
    ]);
  });

  // Synthetic embeddings: a speaker is a random direction, each window that direction plus small noise.
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  const DIM = 192;
  const voice = () => Array.from({ length: DIM }, rnd);
  const A = voice();
  const B = voice();
  const near = (v: number[], noise = 0.15) => v.map((x) => x + noise * rnd());
  const file = (name: string, speakers: number[][]): FileEmbeddings => ({
    name,
    windows: speakers.map((s, i) => ({ start_ms: i * 3000, end_ms: (i + 1) * 3000, embedding: near(s) })),
  });

  it('maths: cosine and the normalised centroid', () => {
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([2, 0], [5, 0])).toBe(1);
    expect(
      centroid([
        [2, 0],
        [0, 10],
      ]),
    ).toEqual([0.5, 0.5]);
    expect(cosine(A, B)).toBeLessThan(0.3);
  });

  it('passes one speaker over several files', () => {
    const v = judgeSpeakers([file('a.wav', [A, A, A, A]), file('b.wav', [A, A, A])], { engine: 'test' });
    expect(v.one).toBe(true);
    expect(v.lowest).toBeGreaterThan(0.9);
    expect(v.windows).toBe(7);
  });

  it('finds the window where another person speaks', () => {
    const v = judgeSpeakers([file('a.wav', [A, A, B, A, A]), file('b.wav', [A, A, A])], { engine: 'test' });
    expect(v.one).toBe(false);
    expect(v.outlier).toMatchObject({ file: 'a.wav', window: { start_ms: 6000, end_ms: 9000 } });
    expect(v.lowest).toBeLessThan(v.threshold);
    const item = speakerItem(v);
    expect(item.status).toBe('fail');
    expect(item.measured).toMatch(/a\.wav 0:06–0:09/);
    expect(item.advice).toMatch(/a\.wav 0:06–0:09 的声音与该文件其余部分不像同一个人/);
  });

  it('finds the file recorded by someone else', () => {
    const v = judgeSpeakers([file('a.wav', [A, A, A]), file('b.wav', [A, A, A]), file('c.wav', [B, B, B])], {
      engine: 'test',
    });
    expect(v.one).toBe(false);
    expect(v.outlier).toMatchObject({ file: 'c.wav', window: null });
    expect(speakerItem(v).advice).toMatch(/c\.wav 整个文件的声音与其他文件不像同一个人/);
  });

  it('lists files too short to compare and does not decide on nothing', () => {
    const v = judgeSpeakers([{ name: 'short.wav', windows: [] }], { engine: 'test' });
    expect(v.skipped).toEqual(['short.wav']);
    expect(speakerItem(v).status).toBe('not_checked');
  });
});

describe('report wiring', () => {
  it('reports 未检查 without naming the operator setup when there is no model', () => {
    const [, speaker] = checkOverall([], { kind: 'fast', speakers: null });
    expect(speaker).toMatchObject({ rule: 'speaker', status: 'not_checked', measured: '未检查' });
    expect(speaker!.advice).toBe('本站暂未开启说话人检查；请确认样本中只有一个人的声音');
  });

  it('runs the model in a child process; an unreadable model is reported, not thrown', async () => {
    const wav = join(dir, 'tone.wav');
    await run('ffmpeg', [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'lavfi'],
      ...['-i', 'sine=frequency=220:duration=4:sample_rate=16000', '-af', 'volume=-14dB', '-y', wav],
    ]);
    const bad = join(dir, 'complete', 'wespeaker-resnet34', 'model.onnx'); // 1 byte, not ONNX
    const check = await checkSample([{ name: 'tone.wav', path: wav }], {
      kind: 'fast',
      speakerModel: { file: bad, where: bad, missing: [], label: 'WeSpeaker (sherpa-onnx)' },
    });
    const speaker = check.overall.find((i) => i.rule === 'speaker')!;
    expect(speaker.status).toBe('not_checked');
    expect(speaker.advice).toMatch(/说话人检查失败：说话人向量进程异常退出.*model\.onnx/);
  });
});

describe('with a real (tiny) model', () => {
  it('passes one voice and finds the window where another voice speaks', async () => {
    const models = join(dir, 'tiny');
    await mkdir(join(models, '3dspeaker-tiny'), { recursive: true });
    await writeFile(join(models, '3dspeaker-tiny', 'model.onnx'), tinySpeakerModel());
    const found = await findSpeakerModel(models);
    if (!found.model) throw new Error('tiny model not detected');
    // "Voices": a 220 Hz tone for 9 s; the second file switches to 1500 Hz between 6 and 9 s.
    const tone = (out: string, expr: string) =>
      run('ffmpeg', [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'lavfi'],
        ...['-i', `aevalsrc='0.2*${expr}':s=16000:d=9`, '-y', out],
      ]);
    const same = join(dir, 'same.wav');
    const mixed = join(dir, 'mixed.wav');
    await tone(same, 'sin(2*PI*220*t)');
    await tone(mixed, 'if(between(t,6,9),sin(2*PI*1500*t),sin(2*PI*220*t))');
    const spans = [{ start_ms: 0, end_ms: 9000 }];
    const one = await checkSpeakers(found.model, [{ name: 'same.wav', path: same, spans }]);
    expect(one).toMatchObject({ one: true, windows: 3, engine: '3D-Speaker (sherpa-onnx)' });
    expect(one.lowest).toBeGreaterThan(0.95);
    const two = await checkSpeakers(found.model, [
      { name: 'same.wav', path: same, spans },
      { name: 'mixed.wav', path: mixed, spans },
    ]);
    expect(two.one).toBe(false);
    expect(two.outlier).toMatchObject({ file: 'mixed.wav', window: { start_ms: 6000, end_ms: 9000 } });
  });
});
