import path from 'node:path';
import { EngineError } from '../errors.ts';
import type { TtsEngine } from '../tts/types.ts';
import { createCosyVoiceEngines, createGptSovitsEngines } from './http.ts';
import { createSherpaZeroShotEngines } from './sherpa-zeroshot.ts';
import { createStandardCloneEngine } from './standard.ts';
import type { CloneEngine, CloneEngineProblem, CloneEngineSet } from './types.ts';

export * from './fixes.ts';
export * from './http.ts';
export * from './profile.ts';
export * from './references.ts';
export * from './sample-check.ts';
export * from './sherpa-zeroshot.ts';
export * from './speakers.ts';
export * from './standard.ts';
export type * from './types.ts';

export interface CloneEnginesConfig {
  /** Where reference clips of HTTP / sherpa voices are kept (read at synthesis time). */
  refDir: string;
  sherpaModelsDir?: string;
  gptSovits?: { url: string; remoteRefDir?: string };
  cosyVoice?: { url: string; sampleRate?: number };
}

/**
 * The cloning engines the configuration allows, neural first; the standard fit is added by
 * `withStandardEngine` once the espeak engine is running. Each configured-but-broken engine and each
 * engine not configured is listed in `problems` with what to set.
 */
export async function createCloneEngines(config: CloneEnginesConfig): Promise<CloneEngineSet> {
  const engines: CloneEngine[] = [];
  const ttsEngines: TtsEngine[] = [];
  const problems: CloneEngineProblem[] = [];
  const attempt = (
    id: CloneEngineProblem['id'],
    label: string,
    start: () => { clone: CloneEngine; tts: TtsEngine },
  ) => {
    try {
      const made = start();
      engines.push(made.clone);
      ttsEngines.push(made.tts);
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      problems.push({ id, label, reason: err.en });
    }
  };
  if (config.gptSovits) {
    attempt('gpt-sovits', 'GPT-SoVITS', () =>
      createGptSovitsEngines({
        url: config.gptSovits!.url,
        refDir: path.join(config.refDir, 'gpt-sovits'),
        remoteRefDir: config.gptSovits!.remoteRefDir,
      }),
    );
  } else {
    problems.push({
      id: 'gpt-sovits',
      label: 'GPT-SoVITS',
      reason: 'not configured: set GPT_SOVITS_URL (an api_v2 server)',
    });
  }
  if (config.cosyVoice) {
    attempt('cosyvoice', 'CosyVoice', () =>
      createCosyVoiceEngines({
        url: config.cosyVoice!.url,
        sampleRate: config.cosyVoice!.sampleRate,
        refDir: path.join(config.refDir, 'cosyvoice'),
      }),
    );
  } else {
    problems.push({
      id: 'cosyvoice',
      label: 'CosyVoice',
      reason: 'not configured: set COSYVOICE_URL (a FastAPI server)',
    });
  }
  if (config.sherpaModelsDir) {
    const z = await createSherpaZeroShotEngines(config.sherpaModelsDir, path.join(config.refDir, 'sherpa'));
    engines.push(...z.clones);
    if (z.tts) ttsEngines.push(z.tts);
    problems.push(...z.problems);
    if (z.clones.length === 0 && z.problems.length === 0) {
      problems.push({
        id: 'sherpa-zipvoice',
        label: 'ZipVoice (sherpa-onnx)',
        reason: `no zipvoice / pocket model in ${config.sherpaModelsDir}`,
      });
    }
  } else {
    problems.push({
      id: 'sherpa-zipvoice',
      label: 'ZipVoice (sherpa-onnx)',
      reason: 'not configured: set SHERPA_ONNX_MODELS_DIR and put a zipvoice or pocket model folder into it',
    });
  }
  return { engines, ttsEngines, problems };
}

/** Adds the standard fit (always last: the neural engines are preferred when configured). */
export function withStandardEngine(set: CloneEngineSet, espeak: TtsEngine | null): CloneEngineSet {
  if (!espeak) {
    return {
      ...set,
      problems: [...set.problems, { id: 'standard', label: '标准引擎近似', reason: 'install espeak-ng' }],
    };
  }
  return { ...set, engines: [...set.engines, createStandardCloneEngine(espeak)] };
}
