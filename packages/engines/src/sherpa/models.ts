import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { EngineError } from '../errors.ts';

/** The registry file every models folder holds (written by the installer, `npm run admin -- engines install`). */
export const REGISTRY_FILE = 'models.json';

interface FileSpec {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

/**
 * Files each model kind needs (required) or may use (optional), as sherpa-onnx names them. The three
 * TTS kinds name their architecture; the others name a role, and `asr` entries say their architecture
 * in `type` (ASR_TYPES), because one folder serves speech synthesis, recognition and its helpers.
 */
export const MODEL_KINDS = {
  vits: { required: ['model', 'tokens'], optional: ['lexicon', 'dataDir', 'dictDir'] },
  matcha: { required: ['acousticModel', 'vocoder', 'tokens'], optional: ['lexicon', 'dataDir', 'dictDir'] },
  kokoro: { required: ['model', 'voices', 'tokens'], optional: ['lexicon', 'dataDir', 'dictDir'] },
  /** Offline recognizer; its files depend on `type`. */
  asr: { required: [], optional: [] },
  /** Silero VAD: cuts long audio at speech boundaries before recognition. */
  vad: { required: ['model'], optional: [] },
  /** CT-Transformer: adds punctuation to recognizers that give none (paraformer). */
  punctuation: { required: ['model'], optional: [] },
  /** pyannote segmentation + speaker embedding: who spoke when. */
  diarization: { required: ['segmentation', 'embedding'], optional: [] },
  /** LaMa (onnxruntime, not sherpa-onnx): fills what the erase's temporal fill cannot (erase/lama.ts). */
  inpaint: { required: ['model'], optional: [] },
  /**
   * g2pW (onnxruntime): picks the reading of a polyphone from its sentence (text/g2pw.ts); the BERT
   * vocabulary, the polyphone list its labels come from, and the bopomofo → pinyin table.
   */
  g2p: { required: ['model', 'vocab', 'polyphonic'], optional: ['bopomofo'] },
} as const satisfies Record<string, FileSpec>;

export type ModelKind = keyof typeof MODEL_KINDS;

export const TTS_KINDS = ['vits', 'matcha', 'kokoro'] as const;
export type TtsModelKind = (typeof TTS_KINDS)[number];

/** Offline recognizer architectures: their files, and the key of sherpa-onnx's model config they fill. */
export const ASR_TYPES = {
  sense_voice: { config: 'senseVoice', required: ['model', 'tokens'], optional: [] },
  paraformer: { config: 'paraformer', required: ['model', 'tokens'], optional: [] },
  whisper: { config: 'whisper', required: ['encoder', 'decoder', 'tokens'], optional: [] },
  fire_red_asr: { config: 'fireRedAsr', required: ['encoder', 'decoder', 'tokens'], optional: [] },
  moonshine: {
    config: 'moonshine',
    required: ['preprocessor', 'encoder', 'uncachedDecoder', 'cachedDecoder', 'tokens'],
    optional: [],
  },
  transducer: { config: 'transducer', required: ['encoder', 'decoder', 'joiner', 'tokens'], optional: [] },
  nemo_ctc: { config: 'nemoCtc', required: ['model', 'tokens'], optional: [] },
  zipformer_ctc: { config: 'zipformerCtc', required: ['model', 'tokens'], optional: [] },
  dolphin: { config: 'dolphin', required: ['model', 'tokens'], optional: [] },
} as const satisfies Record<string, FileSpec & { config: string }>;

export type AsrModelType = keyof typeof ASR_TYPES;

export const isTtsModel = (m: SherpaModel): m is SherpaModel & { kind: TtsModelKind } =>
  (TTS_KINDS as readonly string[]).includes(m.kind);

export interface ModelSpeaker {
  id: number;
  name: string;
  gender?: 'female' | 'male';
  /** BCP 47 tag of the language the speaker was trained on ('zh-CN', 'en-US', 'en-GB'). */
  language?: string;
  /** A few Chinese words on how the voice sounds (年长、温和), only where upstream describes it. */
  style?: string;
}

const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** One entry of models.json; file paths are relative to the models folder. */
export interface SherpaModel {
  id: string;
  kind: ModelKind;
  /** The recognizer architecture of an `asr` entry. */
  type?: AsrModelType;
  name: string;
  /** Required for TTS and ASR models; empty for the helpers (VAD, punctuation, diarization). */
  languages: string[];
  speakers: ModelSpeaker[];
  /** A list (kokoro's lexicons per language) is handed to sherpa-onnx comma-joined. */
  files: Partial<Record<string, string | string[]>>;
  /** Text-normalisation FSTs and FST archives (numbers, dates, phone numbers) applied before synthesis. */
  ruleFsts: string[];
  ruleFars: string[];
  /** Kokoro's language hint ('zh', 'en-us'), passed through. */
  lang?: string;
}

function invalid(where: string, zh: string, en: string): never {
  throw new EngineError(
    'model_invalid',
    `${REGISTRY_FILE} 有误（${where}）：${zh}`,
    `${REGISTRY_FILE} invalid at ${where}: ${en}`,
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && s);
const isPath = (v: unknown) => (typeof v === 'string' && v !== '') || (isStringList(v) && v.length > 0);

function parseSpeakers(where: string, value: unknown): ModelSpeaker[] {
  if (value === undefined) return [{ id: 0, name: '0' }];
  if (Number.isInteger(value) && (value as number) > 0) {
    return Array.from({ length: value as number }, (_, id) => ({ id, name: String(id) }));
  }
  if (!Array.isArray(value) || value.length === 0)
    invalid(where, 'speakers 应为正整数或说话人列表', 'speakers must be a count or a list');
  const ids = new Set<number>();
  return value.map((s, i) => {
    if (!isObject(s) || !Number.isInteger(s.id) || (s.id as number) < 0 || typeof s.name !== 'string') {
      invalid(
        `${where}.speakers[${i}]`,
        '说话人需要 id（整数）和 name',
        'a speaker needs an integer id and a name',
      );
    }
    // A speaker id becomes a voice id in the library: two speakers cannot share one.
    if (ids.has(s.id as number))
      invalid(`${where}.speakers[${i}]`, `说话人 id ${s.id} 重复`, `duplicate speaker id ${s.id}`);
    ids.add(s.id as number);
    const gender = s.gender === 'female' || s.gender === 'male' ? s.gender : undefined;
    if (s.language !== undefined && (typeof s.language !== 'string' || !LANGUAGE_TAG.test(s.language))) {
      invalid(
        `${where}.speakers[${i}].language`,
        'language 应为语言代码，如 zh-CN',
        'language must be a language tag such as zh-CN',
      );
    }
    if (s.style !== undefined && (typeof s.style !== 'string' || !s.style.trim())) {
      invalid(`${where}.speakers[${i}].style`, 'style 应为非空文字', 'style must be a non-empty string');
    }
    return {
      id: s.id as number,
      name: s.name,
      ...(gender ? { gender } : {}),
      ...(s.language ? { language: s.language as string } : {}),
      ...(s.style ? { style: (s.style as string).trim() } : {}),
    };
  });
}

/** Checks the shape of models.json (ids, kinds, files per kind) without touching the disk. */
export function parseModelRegistry(json: unknown): SherpaModel[] {
  if (!isObject(json) || !Array.isArray(json.models))
    invalid('models', '缺少 models 列表', 'expected { "models": [...] }');
  const seen = new Set<string>();
  return json.models.map((entry, i): SherpaModel => {
    const where = `models[${i}]`;
    if (!isObject(entry)) invalid(where, '应为对象', 'expected an object');
    const { id, kind, files } = entry;
    if (typeof id !== 'string' || !/^[\w.-]+$/.test(id))
      invalid(where, 'id 应为字母数字', 'id must be a word-like string');
    if (seen.has(id)) invalid(where, `id ${id} 重复`, `duplicate id ${id}`);
    seen.add(id);
    if (typeof kind !== 'string' || !(kind in MODEL_KINDS)) {
      invalid(
        `${where}.kind`,
        `不支持的模型类型 ${String(kind)}，可用：${Object.keys(MODEL_KINDS).join('、')}`,
        `unsupported kind ${String(kind)}; expected one of ${Object.keys(MODEL_KINDS).join(', ')}`,
      );
    }
    let spec: FileSpec = MODEL_KINDS[kind as ModelKind];
    if (kind === 'asr') {
      const type = entry.type;
      if (typeof type !== 'string' || !(type in ASR_TYPES)) {
        invalid(
          `${where}.type`,
          `不支持的识别模型类型 ${String(type)}，可用：${Object.keys(ASR_TYPES).join('、')}`,
          `unsupported asr type ${String(type)}; expected one of ${Object.keys(ASR_TYPES).join(', ')}`,
        );
      }
      spec = ASR_TYPES[type as AsrModelType];
    }
    const label = kind === 'asr' ? `${kind} ${String(entry.type)}` : kind;
    if (!isObject(files)) invalid(`${where}.files`, '缺少 files', 'files is missing');
    for (const key of spec.required) {
      if (!isPath(files[key])) {
        invalid(`${where}.files.${key}`, `${label} 模型必须有 ${key}`, `a ${label} model needs files.${key}`);
      }
    }
    const known = new Set<string>([...spec.required, ...spec.optional]);
    for (const [key, value] of Object.entries(files)) {
      if (!known.has(key))
        invalid(`${where}.files.${key}`, `${label} 模型不用 ${key}`, `a ${label} model has no file ${key}`);
      if (!isPath(value))
        invalid(`${where}.files.${key}`, '应为路径或路径列表', 'expected a path or a list of paths');
    }
    const needsLanguages = kind === 'asr' || (TTS_KINDS as readonly string[]).includes(kind);
    const languages = entry.languages ?? [];
    if (!isStringList(languages) || (needsLanguages && languages.length === 0)) {
      invalid(`${where}.languages`, '需要至少一种语言', 'needs at least one language code');
    }
    for (const key of ['ruleFsts', 'ruleFars']) {
      if (entry[key] !== undefined && !isStringList(entry[key])) {
        invalid(`${where}.${key}`, '应为路径列表', 'expected a list of paths');
      }
    }
    return {
      id,
      kind: kind as ModelKind,
      ...(kind === 'asr' ? { type: entry.type as AsrModelType } : {}),
      name: typeof entry.name === 'string' && entry.name ? entry.name : id,
      languages,
      speakers: parseSpeakers(where, entry.speakers),
      files: files as Record<string, string | string[]>,
      ruleFsts: (entry.ruleFsts as string[] | undefined) ?? [],
      ruleFars: (entry.ruleFars as string[] | undefined) ?? [],
      ...(typeof entry.lang === 'string' ? { lang: entry.lang } : {}),
    };
  });
}

export const modelPath = (modelsDir: string, file: string) =>
  isAbsolute(file) ? file : resolve(modelsDir, file);

/** Every file a model names, resolved. */
export function modelFiles(modelsDir: string, model: SherpaModel): string[] {
  return [...Object.values(model.files).flat(), ...model.ruleFsts, ...model.ruleFars]
    .filter((f): f is string => Boolean(f))
    .map((f) => modelPath(modelsDir, f));
}

/**
 * Fails unless every file of the model is on disk. sherpa-onnx must never see a missing file: for some
 * objects it hands back a silent no-op handle, for others it aborts the whole process.
 */
export async function checkModelFiles(modelsDir: string, model: SherpaModel): Promise<void> {
  for (const file of modelFiles(modelsDir, model)) {
    const found = await stat(file).catch(() => undefined);
    if (!found) {
      throw new EngineError(
        'model_file_missing',
        `模型 ${model.id} 不完整，请联系管理员`,
        `model ${model.id} is missing ${file}: install it again (npm run admin -- engines install ${model.id})`,
      );
    }
  }
}

/**
 * Reads and validates `<modelsDir>/models.json`, then checks every file of the models `select` keeps
 * (all by default) and returns those: a half-downloaded recognizer does not stop speech synthesis.
 */
export async function loadModelRegistry(
  modelsDir: string,
  select: (model: SherpaModel) => boolean = () => true,
): Promise<SherpaModel[]> {
  const dir = await stat(modelsDir).catch(() => undefined);
  if (!dir?.isDirectory()) {
    throw new EngineError(
      'engine_not_configured',
      '本地模型暂不可用，请联系管理员',
      `models folder does not exist: ${modelsDir}`,
    );
  }
  const file = join(modelsDir, REGISTRY_FILE);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) {
    throw new EngineError(
      'engine_not_configured',
      '本地模型暂不可用，请联系管理员',
      `no ${REGISTRY_FILE} in ${modelsDir} (npm run admin -- engines install --recommended installs the recommended set)`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new EngineError(
      'model_invalid',
      `${REGISTRY_FILE} 不是合法的 JSON`,
      `${REGISTRY_FILE} is not valid JSON`,
      {
        cause: err,
      },
    );
  }
  const models = parseModelRegistry(json).filter(select);
  for (const model of models) await checkModelFiles(modelsDir, model);
  return models;
}
