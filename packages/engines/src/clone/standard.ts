import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readMonoFloat } from '../audio/levels.ts';
import { measurePitch } from '../audio/pitch.ts';
import { encodeWav } from '../audio/wav.ts';
import { espeakVoiceForLanguage } from '../espeak/personas.ts';
import type { EspeakVoice, TtsEngine } from '../tts/types.ts';
import { syllableRate } from './profile.ts';
import type { CloneEngine, VoiceProfile } from './types.ts';

/** The label of every fitted voice, everywhere it is shown: it is not a neural clone. */
export const STANDARD_CLONE_LABEL = '标准引擎近似';

const CALIBRATION: Record<string, string> = {
  zh: '今天天气很好，我们一起去公园散步，顺便买一些新鲜的水果回家。',
  yue: '今日天氣好好，我哋一齊去公園散步，順便買啲新鮮生果返屋企。',
  en: 'The weather is lovely today, so we will take a walk in the park and buy some fresh fruit.',
};

function calibrationText(language: string): string {
  const l = language.toLowerCase();
  if (l.startsWith('yue')) return CALIBRATION.yue!;
  if (l.startsWith('zh') || l.startsWith('cmn')) return CALIBRATION.zh!;
  return CALIBRATION.en!;
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
const semitones = (hi: number, lo: number) => (hi > 0 && lo > 0 ? 12 * Math.log2(hi / lo) : 0);

export interface FittedVoice {
  voice: EspeakVoice;
  /** What the fitted voice measures at, to show next to the sample's profile. */
  measured: { median_hz: number; p10_hz: number; p90_hz: number; rate: number };
}

/**
 * An espeak-ng voice fitted to a profile: variant by gender, base pitch found by secant steps on the
 * measured median F0 of a calibration sentence, pitch range scaled to the sample's p10–p90 spread, and
 * words per minute scaled to the sample's syllable rate.
 */
export async function fitEspeakVoice(
  espeak: TtsEngine,
  profile: VoiceProfile,
  language: string,
  opts: { signal?: AbortSignal } = {},
): Promise<FittedVoice> {
  const dir = await mkdtemp(path.join(tmpdir(), 'vw-fit-'));
  const text = calibrationText(language);
  const base: EspeakVoice = {
    engine: 'espeak',
    voice: espeakVoiceForLanguage(language) ?? 'en-us',
    variant: profile.gender === 'male' ? 'm3' : 'f2',
    rate: 175,
    pitch: 50,
    range: 50,
  };
  let n = 0;
  const measure = async (voice: EspeakVoice) => {
    const result = await espeak.synthesize(
      { segments: [{ text }], voice, language },
      { signal: opts.signal },
    );
    const file = path.join(dir, `fit-${n++}.wav`);
    await writeFile(file, encodeWav(result));
    const pitch = await measurePitch(file, opts);
    return { pitch, file };
  };
  try {
    const target = profile.median_hz;
    // Two probes, then secant steps on pitch → median F0 (espeak's base pitch is close to linear in Hz).
    let a = { p: 30, m: (await measure({ ...base, pitch: 30 })).pitch.median_hz };
    let b = { p: 70, m: (await measure({ ...base, pitch: 70 })).pitch.median_hz };
    let best = Math.abs(a.m - target) < Math.abs(b.m - target) ? a : b;
    for (let i = 0; i < 3 && target > 0; i++) {
      if (Math.abs(best.m - target) / target < 0.03 || b.m === a.m) break;
      const p = Math.round(clamp(a.p + ((target - a.m) * (b.p - a.p)) / (b.m - a.m), 0, 100));
      if (p === a.p || p === b.p) break;
      const m = (await measure({ ...base, pitch: p })).pitch.median_hz;
      a = b;
      b = { p, m };
      if (Math.abs(m - target) < Math.abs(best.m - target)) best = b;
    }
    const pitched: EspeakVoice = { ...base, pitch: best.p };
    // Range and rate from one calibration run at the fitted pitch.
    const probe = await measure(pitched);
    const synthSpread = semitones(probe.pitch.p90_hz, probe.pitch.p10_hz);
    const sampleSpread = semitones(profile.p90_hz, profile.p10_hz);
    const range =
      synthSpread > 0 && sampleSpread > 0 ? Math.round(clamp((50 * sampleSpread) / synthSpread, 5, 100)) : 50;
    const synthRate = syllableRate(await readMonoFloat(probe.file, 16_000, opts.signal));
    const wpm =
      synthRate > 0 && profile.rate > 0 ? Math.round(clamp((175 * profile.rate) / synthRate, 90, 320)) : 175;
    const voice: EspeakVoice = { ...pitched, range, rate: wpm };
    const final = await measure(voice);
    return {
      voice,
      measured: {
        median_hz: final.pitch.median_hz,
        p10_hz: final.pitch.p10_hz,
        p90_hz: final.pitch.p90_hz,
        rate: syllableRate(await readMonoFloat(final.file, 16_000, opts.signal)),
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The offline default: a standard-engine voice fitted to the sample, labelled 标准引擎近似. */
export function createStandardCloneEngine(espeak: TtsEngine): CloneEngine {
  return {
    id: 'standard',
    label: STANDARD_CLONE_LABEL,
    kind: 'fitted',
    maxReferences: 1,
    ttsEngineId: 'espeak',
    async clone({ profile, language, signal }) {
      const fitted = await fitEspeakVoice(espeak, profile, language, { signal });
      return {
        voice: fitted.voice,
        note: `${STANDARD_CLONE_LABEL}：标准引擎按样本拟合音高（样本中位 ${profile.median_hz} Hz，拟合 ${fitted.measured.median_hz} Hz）、音域和语速，并非神经网络克隆`,
        files: [],
      };
    },
  };
}
