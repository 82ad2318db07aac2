import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModelRegistry } from '../sherpa/models.ts';
import { makeSpeechMedia, SILERO_MODEL, type SpeechMedia } from './media.fixture.ts';
import { createSherpaAsrProviders, sherpaAsrConfig, sherpaDiarizationConfig } from './sherpa.ts';
import {
  TINY_CTC_EMISSIONS,
  TINY_CTC_FRAME_MS,
  TINY_CTC_TOKENS,
  tinyCtcModel,
  tinyCtcTokens,
} from './tiny-ctc.fixture.ts';

const run = promisify(execFile);
let root: string;
let media: SpeechMedia;
let n = 0;

async function modelsDir(models: unknown[], files: Record<string, string> = {}): Promise<string> {
  const dir = join(root, `models-${n++}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'models.json'), JSON.stringify({ models }));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return dir;
}

const senseVoice = {
  id: 'sense-voice',
  kind: 'asr',
  type: 'sense_voice',
  name: 'SenseVoice 中英日韩粤',
  languages: ['zh-CN', 'en', 'ja', 'ko', 'yue'],
  files: { model: 'sv/model.int8.onnx', tokens: 'sv/tokens.txt' },
};
const whisper = {
  id: 'whisper-tiny',
  kind: 'asr',
  type: 'whisper',
  languages: ['en', 'zh'],
  files: { encoder: 'w/tiny-encoder.onnx', decoder: 'w/tiny-decoder.onnx', tokens: 'w/tiny-tokens.txt' },
};
// The real Silero model, by absolute path (the registry allows both).
const vad = { id: 'silero-vad', kind: 'vad', files: { model: SILERO_MODEL } };
const punctuation = { id: 'ct-punc', kind: 'punctuation', files: { model: 'punc/model.onnx' } };
const diarization = {
  id: 'pyannote',
  kind: 'diarization',
  files: { segmentation: 'd/segmentation.onnx', embedding: 'd/embedding.onnx' },
};
const tts = {
  id: 'tiny-vits',
  kind: 'vits',
  languages: ['zh-CN'],
  files: { model: 'tts/model.onnx', tokens: 'tts/tokens.txt' },
};
// Not ONNX: sherpa's async recognizer factory rejects it, its synchronous constructors abort on it.
const garbage = {
  'sv/model.int8.onnx': 'not onnx',
  'sv/tokens.txt': 'a 0\n',
  'w/tiny-encoder.onnx': 'x',
  'w/tiny-decoder.onnx': 'x',
  'w/tiny-tokens.txt': 'a 0\n',
  'punc/model.onnx': 'not onnx',
  'd/segmentation.onnx': 'x',
  'd/embedding.onnx': 'x',
  'tts/model.onnx': 'x',
  'tts/tokens.txt': 'a 0\n',
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'vw-asr-sherpa-'));
  media = await makeSpeechMedia(root);
}, 30_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('models.json with recognition models and their helpers', () => {
  it('accepts asr, vad, punctuation and diarization entries beside TTS ones', () => {
    const models = parseModelRegistry({ models: [tts, senseVoice, whisper, vad, punctuation, diarization] });
    expect(models.map((m) => [m.id, m.kind, m.type])).toEqual([
      ['tiny-vits', 'vits', undefined],
      ['sense-voice', 'asr', 'sense_voice'],
      ['whisper-tiny', 'asr', 'whisper'],
      ['silero-vad', 'vad', undefined],
      ['ct-punc', 'punctuation', undefined],
      ['pyannote', 'diarization', undefined],
    ]);
    expect(models[3].languages).toEqual([]);
  });

  it.each([
    ['an asr entry without type', { ...senseVoice, type: undefined }, /unsupported asr type undefined/],
    [
      'an unknown asr type',
      { ...senseVoice, type: 'wav2vec' },
      /expected one of sense_voice, paraformer, whisper/,
    ],
    [
      'a whisper without decoder',
      { ...whisper, files: { encoder: 'e', tokens: 't' } },
      /asr whisper model needs files.decoder/,
    ],
    [
      'a file the type does not use',
      { ...senseVoice, files: { ...senseVoice.files, joiner: 'j' } },
      /has no file joiner/,
    ],
    ['an asr model without languages', { ...senseVoice, languages: [] }, /needs at least one language/],
    [
      'a diarization without embedding',
      { ...diarization, files: { segmentation: 's' } },
      /needs files.embedding/,
    ],
  ])('refuses %s', (_, entry, message) => {
    expect(() => parseModelRegistry({ models: [entry] })).toThrow(message);
  });

  it('builds the sherpa recognizer config with absolute paths and the language where the model takes one', () => {
    const [sv, w] = parseModelRegistry({ models: [senseVoice, whisper] });
    expect(sherpaAsrConfig('/m', sv, { language: 'zh-CN', numThreads: 2 })).toEqual({
      featConfig: { sampleRate: 16_000, featureDim: 80 },
      modelConfig: {
        senseVoice: { model: '/m/sv/model.int8.onnx', language: 'zh', useInverseTextNormalization: 1 },
        tokens: '/m/sv/tokens.txt',
        numThreads: 2,
        provider: 'cpu',
        debug: 0,
      },
    });
    expect(sherpaAsrConfig('/m', w).modelConfig).toMatchObject({
      whisper: {
        encoder: '/m/w/tiny-encoder.onnx',
        decoder: '/m/w/tiny-decoder.onnx',
        language: '',
        task: 'transcribe',
      },
      tokens: '/m/w/tiny-tokens.txt',
    });
    const [d] = parseModelRegistry({ models: [diarization] });
    expect(sherpaDiarizationConfig('/m', d, { speakers: 3 }).clustering).toEqual({ numClusters: 3 });
    expect(sherpaDiarizationConfig('/m', d).clustering).toEqual({ numClusters: -1, threshold: 0.5 });
  });
});

describe('sherpa-onnx recognition providers', () => {
  it('need an asr model and a VAD model, and say so', async () => {
    await expect(
      createSherpaAsrProviders({ modelsDir: await modelsDir([tts, vad], garbage) }),
    ).rejects.toMatchObject({
      code: 'engine_not_configured',
      en: expect.stringMatching(/no speech recognition model \(kind "asr"\)/),
    });
    await expect(
      createSherpaAsrProviders({ modelsDir: await modelsDir([senseVoice], garbage) }),
    ).rejects.toMatchObject({
      code: 'engine_not_configured',
      zh: expect.stringMatching(/语音活动检测模型/),
    });
    // A VAD file given outside the registry will do.
    const providers = await createSherpaAsrProviders({
      modelsDir: await modelsDir([senseVoice], garbage),
      vadModel: SILERO_MODEL,
    });
    expect(providers.map((p) => p.id)).toEqual(['sherpa-onnx:sense-voice']);
    await expect(
      createSherpaAsrProviders({
        modelsDir: await modelsDir([senseVoice], garbage),
        vadModel: join(root, 'no-vad.onnx'),
      }),
    ).rejects.toMatchObject({ code: 'model_file_missing' });
    await expect(
      createSherpaAsrProviders({
        modelsDir: await modelsDir([senseVoice, vad], garbage),
        packageName: 'sherpa-onnx-missing',
      }),
    ).rejects.toMatchObject({ code: 'engine_unavailable' });
  });

  it('offer one provider per asr model with what it can do', async () => {
    // A TTS model with a file missing is the TTS engine's problem, not recognition's.
    const { 'tts/tokens.txt': _, ...withoutTtsTokens } = garbage;
    const dir = await modelsDir([tts, senseVoice, whisper, vad, diarization], withoutTtsTokens);
    const providers = await createSherpaAsrProviders({ modelsDir: dir });
    expect(
      providers.map(({ id, label, languages, diarization, wordTimes }) => ({
        id,
        label,
        languages,
        diarization,
        wordTimes,
      })),
    ).toEqual([
      {
        id: 'sherpa-onnx:sense-voice',
        label: 'SenseVoice 中英日韩粤',
        languages: ['zh', 'en', 'ja', 'ko', 'yue'],
        diarization: true,
        wordTimes: true,
      },
      {
        id: 'sherpa-onnx:whisper-tiny',
        label: 'whisper-tiny',
        languages: ['en', 'zh'],
        diarization: true,
        wordTimes: false,
      },
    ]);
  });

  it('refuse languages the model does not know, diarization without a model, and missing files', async () => {
    const dir = await modelsDir([senseVoice, vad], garbage);
    const [asr] = await createSherpaAsrProviders({ modelsDir: dir });
    await expect(asr.transcribe(media.wav, { language: 'fr' })).rejects.toMatchObject({
      code: 'invalid_request',
      en: 'model sense-voice does not recognise fr (it knows zh, en, ja, ko, yue)',
    });
    await expect(asr.transcribe(media.wav, { diarize: true })).rejects.toMatchObject({
      code: 'engine_not_configured',
      en: expect.stringMatching(/no diarization model/),
    });
    await unlink(join(dir, 'sv/tokens.txt'));
    await expect(asr.transcribe(media.wav)).rejects.toMatchObject({
      code: 'model_file_missing',
      en: expect.stringMatching(/sense-voice is missing .*sv\/tokens\.txt/),
    });
  });

  it('turn a corrupt recognizer model into an error (in the child process)', async () => {
    const [asr] = await createSherpaAsrProviders({ modelsDir: await modelsDir([senseVoice, vad], garbage) });
    await expect(asr.transcribe(media.wav)).rejects.toMatchObject({
      code: 'model_invalid',
      en: expect.stringMatching(/recognition model failed to load: .*Protobuf parsing failed/),
    });
  });

  it('survive a helper model that aborts sherpa: only the child process dies', async () => {
    const [asr] = await createSherpaAsrProviders({
      modelsDir: await modelsDir([senseVoice, vad, punctuation], garbage),
    });
    await expect(asr.transcribe(media.wav)).rejects.toMatchObject({
      code: 'model_invalid',
      en: expect.stringMatching(/the recognition process died: .*Protobuf parsing failed/),
    });
  });

  it('say when the input has no audio', async () => {
    const [asr] = await createSherpaAsrProviders({ modelsDir: await modelsDir([senseVoice, vad], garbage) });
    const text = join(root, 'notes.txt');
    await writeFile(text, 'not media');
    await expect(asr.transcribe(text)).rejects.toMatchObject({ code: 'media_failed' });
  });

  it('kill the child process when aborted', async () => {
    const [asr] = await createSherpaAsrProviders({ modelsDir: await modelsDir([senseVoice, vad], garbage) });
    // A pipe nobody writes to: the child waits on it until it is killed.
    const fifo = join(root, 'stalled.fifo');
    await run('mkfifo', [fifo]);
    const controller = new AbortController();
    const pending = asr.transcribe(fifo, { signal: controller.signal });
    const processes = async (text: string) =>
      (await run('ps', ['-eo', 'args='])).stdout.split('\n').filter((line) => line.includes(text));
    const workers = () => processes('sherpa-worker');
    await expect.poll(workers, { timeout: 10_000, interval: 50 }).toHaveLength(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    await expect.poll(workers, { timeout: 10_000, interval: 50 }).toHaveLength(0);
    // Its ffprobe, blocked on the pipe, went with it.
    await expect.poll(() => processes(fifo), { timeout: 10_000, interval: 50 }).toHaveLength(0);
  }, 30_000);
});

describe('sherpa-onnx recognition end to end (a tiny generated CTC model, the real Silero VAD)', () => {
  it('transcribes a video chunk by chunk in the child process, with token times in file time', async () => {
    const dir = await modelsDir(
      [
        {
          id: 'tiny-ctc',
          kind: 'asr',
          type: 'zipformer_ctc',
          languages: ['zh'],
          files: { model: 'ctc/model.onnx', tokens: 'ctc/tokens.txt' },
        },
        vad,
      ],
      { 'ctc/tokens.txt': tinyCtcTokens() },
    );
    await writeFile(join(dir, 'ctc/model.onnx'), tinyCtcModel());
    const [asr] = await createSherpaAsrProviders({ modelsDir: dir });
    const progress: number[] = [];
    const transcript = await asr.transcribe(media.mp4, { onProgress: (f) => progress.push(f) });

    expect(transcript).toMatchObject({ engine: 'sherpa-onnx:tiny-ctc', language: 'zh' });
    expect(Math.abs(transcript.durationMs - media.durationMs)).toBeLessThan(100);
    expect(transcript.segments).toHaveLength(2);
    for (const [i, segment] of transcript.segments.entries()) {
      const truth = media.phrases[i];
      expect(segment.id).toBe(i);
      // Chunks start where the speech was placed (Silero, as in the VAD test).
      expect(Math.abs(segment.startMs - truth.startMs)).toBeLessThan(150);
      expect(Math.abs(segment.endMs - truth.endMs)).toBeLessThan(400);
      // The model speaks the tokens whose frame falls inside the chunk, at their frame's time.
      const lengthMs = segment.endMs - segment.startMs;
      const said = TINY_CTC_EMISSIONS.filter(([frame]) => frame < Math.floor(lengthMs / TINY_CTC_FRAME_MS));
      expect(segment.text).toBe(said.map(([, token]) => TINY_CTC_TOKENS[token]).join(''));
      expect(segment.words).toEqual(
        said.map(([frame, token], k) => ({
          text: TINY_CTC_TOKENS[token],
          startMs: segment.startMs + frame * TINY_CTC_FRAME_MS,
          endMs: k + 1 < said.length ? segment.startMs + said[k + 1][0] * TINY_CTC_FRAME_MS : segment.endMs,
        })),
      );
    }
    // Phrase 1 (~1.5 s) ends before the last emission at 2 s; phrase 2 (~2.5 s) reaches it.
    expect(transcript.segments.map((s) => s.text)).toEqual(['你好世', '你好世界']);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  }, 30_000);
});

describe('sherpa-onnx recognition of clips in memory (the speech self-check)', () => {
  it('hears 16 kHz PCM without files in one long-lived helper that keeps the model loaded', async () => {
    const dir = await modelsDir(
      [
        {
          id: 'tiny-ctc',
          kind: 'asr',
          type: 'zipformer_ctc',
          languages: ['zh'],
          files: { model: 'ctc/model.onnx', tokens: 'ctc/tokens.txt' },
        },
        vad,
      ],
      { 'ctc/tokens.txt': tinyCtcTokens() },
    );
    await writeFile(join(dir, 'ctc/model.onnx'), tinyCtcModel());
    const [asr] = await createSherpaAsrProviders({ modelsDir: dir });
    const clip = (ms: number) => ({
      samples: new Int16Array((ms / 1000) * 16_000).fill(500),
      sampleRate: 16_000,
    });
    // This process's own helpers only (other test runs may have theirs).
    const workers = async () =>
      (await run('ps', ['-eo', 'ppid=,pid=,args='])).stdout
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter(
          ([ppid, , ...args]) => Number(ppid) === process.pid && args.join(' ').includes('sherpa-worker'),
        )
        .map(([, pid]) => pid);
    try {
      // The model says the tokens whose frame lies inside the clip (as for a chunk of a file).
      const long = await asr.transcribePcm!(clip(2500), { language: 'zh' });
      expect(long).toMatchObject({ engine: 'sherpa-onnx:tiny-ctc', language: 'zh', durationMs: 2500 });
      expect(long.segments.map((s) => s.text)).toEqual(['你好世界']);
      const before = await workers();
      const short = await asr.transcribePcm!(clip(1500));
      expect(short.segments.map((s) => s.text)).toEqual(['你好世']);
      // The same helper answered both: no process per sentence.
      expect(await workers()).toEqual(before);
      expect(before).toHaveLength(1);
      await expect(
        asr.transcribePcm!({ samples: new Int16Array(100), sampleRate: 22_050 }),
      ).rejects.toMatchObject({
        code: 'invalid_request',
      });
      await expect(asr.transcribePcm!(clip(500), { language: 'fr' })).rejects.toMatchObject({
        code: 'invalid_request',
      });
    } finally {
      await asr.close();
    }
    await expect.poll(workers, { timeout: 10_000, interval: 50 }).toHaveLength(0);
  }, 30_000);
});
