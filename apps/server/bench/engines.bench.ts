/**
 * bench:engines — the speech engines of the models folder (SHERPA_ONNX_MODELS_DIR, else DATA_DIR/models)
 * on this machine's CPU, through the server's own engine set (createEngines):
 * - each installed TTS model and the standard engine (espeak-ng): real-time factor (synthesis time over
 *   audio time, sentence by sentence) and first-audio latency (a three-sentence paragraph streamed, warm);
 * - each installed recognizer: real-time factor on a generated clip (file path) and on sentences in
 *   memory (the self-check's path);
 * - the speech self-check (the product's speakChecked): its time as a share of synthesis time.
 * With no models installed it says so, measures the standard engine, and runs tiny models built at run
 * time so the paths are exercised — their figures are labelled as test models, not neural figures.
 * Goals (issue 32, 2-core CPU, recommended set): TTS RTF ≤ 0.3, recognition RTF ≤ 0.15, self-check ≤ 30 %.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  concatPcm,
  durationMs,
  type EngineVoice,
  encodeWav,
  loadModelRegistry,
  type Pcm,
  REGISTRY_FILE,
  resamplePcm,
  type SherpaModel,
  silence,
} from '@vw/engines';
import { SILERO_MODEL } from '../../../packages/engines/src/asr/media.fixture.ts';
import { tinyCtcModel, tinyCtcTokens } from '../../../packages/engines/src/asr/tiny-ctc.fixture.ts';
import { tinyVitsModel, tinyVitsTokens } from '../../../packages/engines/src/sherpa/tiny-vits.fixture.ts';
import { loadConfig } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { createEngines, type Engines } from '../src/engines/engines.ts';
import { selfChecker, speakChecked } from '../src/modules/projects/stages/self-check.ts';

const SENTENCES: Record<'zh' | 'en', string[]> = {
  zh: [
    '今天的天气很好，我们一起去公园散步吧。',
    '这本书讲述了一个年轻人在大城市里奋斗的故事。',
    '请在会议开始前十分钟到达三楼的会议室。',
    '他说话的声音很轻，但每个字都很清楚。',
    '春天来了，山上的花都开了。',
    '如果明天下雨，比赛就改到下周六举行。',
    '这家餐厅的菜味道不错，价格也很合理。',
    '我们需要在月底之前完成这个项目的全部测试。',
  ],
  en: [
    'The weather is lovely today, so let us take a walk in the park.',
    'This book tells the story of a young woman who moves to a big city.',
    'Please arrive at the meeting room on the third floor ten minutes early.',
    'He spoke softly, but every word was perfectly clear.',
    'Spring has come, and the flowers on the hill are in bloom.',
    'If it rains tomorrow, the match will be moved to next Saturday.',
    'The food in this restaurant is good and the prices are fair.',
    'We need to finish testing the whole project before the end of the month.',
  ],
};

const langOf = (language: string): 'zh' | 'en' => (language.toLowerCase().startsWith('zh') ? 'zh' : 'en');

interface Speaker {
  label: string;
  voice: EngineVoice;
  language: string;
  /** Built at run time to exercise the path: not a neural figure. */
  test: boolean;
  /** espeak-ng: the goals are set for neural voices. */
  standard?: boolean;
}

interface Row {
  engine: string;
  measure: string;
  value: string;
  goal: string;
  met: string;
}
const rows: Row[] = [];
const add = (engine: string, measure: string, value: string, goal = '', met = '') =>
  rows.push({ engine, measure, value, goal, met });
const verdict = (ok: boolean, test: boolean) => (test ? 'test model' : ok ? 'yes' : 'NO');
const now = () => performance.now();
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function synth(engines: Engines, s: Speaker, text: string, speed = 1) {
  return engines.tts.synthesize({ segments: [{ text }], voice: s.voice, language: s.language, speed });
}

async function benchTts(engines: Engines, s: Speaker): Promise<void> {
  const sentences = SENTENCES[langOf(s.language)];
  // The first call loads the model (sherpa) or starts the helpers (espeak).
  let t = now();
  await synth(engines, s, sentences[0]!);
  const coldMs = now() - t;

  let synthMs = 0;
  let audioMs = 0;
  for (const text of sentences) {
    t = now();
    const out = await synth(engines, s, text);
    synthMs += now() - t;
    audioMs += durationMs(out);
  }
  const rtf = synthMs / audioMs;

  const firsts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const paragraph = sentences.slice(i, i + 3).join('');
    t = now();
    for await (const chunk of engines.tts.stream({
      segments: [{ text: paragraph }],
      voice: s.voice,
      language: s.language,
    })) {
      if (chunk.kind === 'speech') {
        firsts.push(now() - t);
        break;
      }
    }
  }
  add(s.label, 'TTS real-time factor', rtf.toFixed(3), '≤ 0.3', verdict(rtf <= 0.3, s.test));
  add(s.label, 'TTS first audio, warm (p50 ms)', p50(firsts).toFixed(0));
  add(s.label, 'TTS first call incl. model load (ms)', coldMs.toFixed(0));
}

/** A clip of speech for the recognizers: the sentences said one after another with pauses. */
async function speechClip(engines: Engines, s: Speaker): Promise<Pcm> {
  const parts: Pcm[] = [];
  for (const text of SENTENCES[langOf(s.language)]) {
    const out = await resamplePcm(await synth(engines, s, text), 16_000);
    parts.push(out, silence(600, 16_000));
  }
  return concatPcm([silence(500, 16_000), ...parts], 16_000);
}

async function benchAsr(
  engines: Engines,
  speakers: Speaker[],
  dir: string,
  testIds: Set<string>,
): Promise<void> {
  for (const r of engines.asr.list()) {
    const asr = engines.asr.get(r.id);
    const test = testIds.has(r.id);
    const label = test ? `${r.label} (TEST MODEL)` : r.label;
    const wants = r.languages === 'any' ? 'zh' : (r.languages[0] ?? 'zh');
    const speaker =
      speakers.find((s) => !s.test && langOf(s.language) === langOf(wants) && s.voice.engine !== 'espeak') ??
      speakers.find((s) => langOf(s.language) === langOf(wants))!;
    const clip = await speechClip(engines, speaker);
    const file = path.join(dir, `clip-${r.id.replace(/\W+/g, '_')}.wav`);
    await writeFile(file, encodeWav(clip));
    await asr.transcribe(file, { language: langOf(wants) }); // loads the model
    const t = now();
    await asr.transcribe(file, { language: langOf(wants) });
    const rtf = (now() - t) / durationMs(clip);
    add(
      label,
      `recognition RTF, ${(durationMs(clip) / 1000).toFixed(0)} s clip of ${speaker.label}`,
      rtf.toFixed(3),
      '≤ 0.15',
      verdict(rtf <= 0.15, test),
    );
    if (r.diarization) {
      const t1 = now();
      await asr.transcribe(file, { language: langOf(wants), diarize: true });
      add(label, 'recognition + diarization RTF, same clip', ((now() - t1) / durationMs(clip)).toFixed(3));
    }
    if (asr.transcribePcm) {
      let hearMs = 0;
      let audioMs = 0;
      for (const text of SENTENCES[langOf(wants)]) {
        const pcm = await resamplePcm(await synth(engines, speaker, text), 16_000);
        const t0 = now();
        await asr.transcribePcm(pcm, { language: langOf(wants) });
        hearMs += now() - t0;
        audioMs += durationMs(pcm);
      }
      add(
        label,
        'recognition RTF, sentences in memory',
        (hearMs / audioMs).toFixed(3),
        '≤ 0.15',
        verdict(hearMs / audioMs <= 0.15, test),
      );
    }
  }
}

/** The product's self-check around each sentence: what it adds to synthesis time. */
async function benchSelfCheck(engines: Engines, s: Speaker, recognizerTest: boolean): Promise<void> {
  const app = { engines, log: { warn: () => {}, info: () => {} } } as unknown as AppContext;
  const heardBy = selfChecker(app, s.language);
  const test = s.test || recognizerTest;
  const met = (ok: boolean) => (s.standard && !test ? 'n/a: espeak' : verdict(ok, test));
  const who = heardBy
    ? `${s.label}, heard by ${heardBy.label}${recognizerTest ? ' (TEST MODEL)' : ''}`
    : s.label;
  let firstSynthMs = 0;
  let hearOneMs = 0;
  let wallMs = 0;
  let flagged = 0;
  let checked = 0;
  let takes = 0;
  const sentences = SENTENCES[langOf(s.language)];
  for (const text of sentences) {
    let first = true;
    const t = now();
    const result = await speakChecked(app, {
      text,
      language: s.language,
      make: async (speed) => {
        const t0 = now();
        const out = await synth(engines, s, text, speed);
        if (first) firstSynthMs += now() - t0;
        first = false;
        return out;
      },
    });
    wallMs += now() - t;
    if (!result.check) continue;
    checked++;
    takes += result.check.attempts;
    hearOneMs += result.check.ms / result.check.attempts;
    if (result.check.status === 'flagged') flagged++;
  }
  if (!checked) {
    add(s.label, 'self-check', `not run: no recognizer for ${s.language}`);
    return;
  }
  const perTake = hearOneMs / firstSynthMs;
  const asRun = (wallMs - firstSynthMs) / firstSynthMs;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  add(who, 'self-check: hearing one take / making it', pct(perTake), '≤ 30 %', met(perTake <= 0.3));
  add(
    who,
    `self-check as run (${takes} takes for ${checked} sentences, ${flagged} flagged)`,
    `+${pct(asRun)}`,
    '≤ 30 %',
    met(asRun <= 0.3),
  );
}

/** Tiny models written byte by byte (the test fixtures): a VITS voice, a CTC recognizer, the Silero VAD. */
async function tinyModelsDir(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'tiny-vits.onnx'), tinyVitsModel());
  await writeFile(path.join(dir, 'tiny-vits-tokens.txt'), tinyVitsTokens());
  await writeFile(path.join(dir, 'tiny-ctc.onnx'), tinyCtcModel());
  await writeFile(path.join(dir, 'tiny-ctc-tokens.txt'), tinyCtcTokens());
  await writeFile(path.join(dir, 'silero_vad.onnx'), await readFile(SILERO_MODEL));
  const models = [
    {
      id: 'tiny-vits',
      kind: 'vits',
      name: 'tiny VITS',
      languages: ['en-US'],
      files: { model: 'tiny-vits.onnx', tokens: 'tiny-vits-tokens.txt' },
    },
    {
      id: 'tiny-ctc',
      kind: 'asr',
      type: 'zipformer_ctc',
      name: 'tiny CTC',
      // Hears both languages so the self-check path runs on espeak's Chinese and the tiny English voice.
      languages: ['zh', 'en'],
      files: { model: 'tiny-ctc.onnx', tokens: 'tiny-ctc-tokens.txt' },
    },
    { id: 'silero-vad', kind: 'vad', name: 'Silero VAD', files: { model: 'silero_vad.onnx' } },
  ];
  await writeFile(path.join(dir, REGISTRY_FILE), JSON.stringify({ models }, null, 2));
}

const config = loadConfig(process.env);
const modelsDir = config.modelsDir;
let installed: SherpaModel[] = [];
let why = '';
try {
  installed = await loadModelRegistry(modelsDir);
} catch (err) {
  why = (err as { en?: string }).en ?? String(err);
}
const work = await mkdtemp(path.join(tmpdir(), 'vw-bench-engines-'));
const cpu = cpus();
console.log(
  `CPU: ${cpu[0]?.model ?? 'unknown'} × ${cpu.length}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (other work on this machine slows every figure)`,
);
const useTiny = installed.length === 0;
if (useTiny) {
  console.log(
    `No models installed in ${modelsDir}${why ? ` (${why})` : ''}: measuring the standard engine (espeak-ng), ` +
      'and tiny models built at run time to exercise the sherpa-onnx paths — those are TEST MODELS, not neural figures. ' +
      'Install the recommended set with: npm run admin -- engines install --recommended',
  );
  await tinyModelsDir(work);
} else {
  console.log(`Models in ${modelsDir}: ${installed.map((m) => `${m.id} (${m.kind})`).join(', ')}`);
  const helpers = installed.filter((m) => ['vad', 'punctuation', 'diarization'].includes(m.kind));
  if (helpers.length)
    console.log(
      `Measured inside recognition (no figures of their own): ${helpers.map((m) => m.id).join(', ')}`,
    );
}

const engines = await createEngines(
  useTiny ? loadConfig({ ...process.env, SHERPA_ONNX_MODELS_DIR: work }) : config,
  undefined,
  { watchMs: 0 },
);
try {
  const speakers: Speaker[] = [
    {
      label: 'standard engine (espeak-ng) 中文',
      voice: { engine: 'espeak' },
      language: 'zh-CN',
      test: false,
      standard: true,
    },
    {
      label: 'standard engine (espeak-ng) English',
      voice: { engine: 'espeak' },
      language: 'en-US',
      test: false,
      standard: true,
    },
  ];
  for (const m of engines.ttsModels) {
    speakers.push({
      label: useTiny ? `${m.name} (TEST MODEL)` : `${m.name} [${m.id}]`,
      voice: { engine: 'sherpa-onnx', model: m.id, speaker: m.speakers[0]?.id ?? 0 },
      language: m.languages[0] ?? 'zh-CN',
      test: useTiny,
    });
  }
  if (!useTiny && engines.ttsModels.length === 0)
    console.log('No speech model installed: TTS figures are the standard engine’s.');

  for (const s of speakers) await benchTts(engines, s);

  const recognizers = engines.asr.list();
  if (!recognizers.length) {
    add('—', 'recognition', 'no recognizer installed');
  } else {
    await benchAsr(engines, speakers, work, new Set(useTiny ? recognizers.map((r) => r.id) : []));
    for (const s of speakers) await benchSelfCheck(engines, s, useTiny);
  }
  console.table(rows);
  console.log(
    [
      'RTF: processing time ÷ audio duration (0.3 = speech made 3.3× faster than it plays).',
      'First audio: the first sentence of a three-sentence paragraph streamed, model already loaded.',
      'Self-check, one take: recognizer time per take ÷ synthesis time of the sentence; as run: all it added',
      '  (hearing every take, remaking flagged sentences at another speed) ÷ the first synthesis.',
      'n/a: espeak — the goals are for neural voices; espeak makes speech in milliseconds, so any recognizer',
      '  costs many times its synthesis.',
      ...(useTiny
        ? [
            'test model: tiny models written at run time to exercise the paths; their figures say nothing about neural engines.',
          ]
        : []),
    ].join('\n'),
  );
} finally {
  await engines.close();
  await rm(work, { recursive: true, force: true });
}
process.exit(0);
