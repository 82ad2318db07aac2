/**
 * Models the fetch script (scripts/fetch-models.ts) knows: sherpa-onnx release assets and the
 * models.json entry each becomes. Kept beside the registry code so tests check every entry against
 * the same validation the server runs.
 */
import type { SherpaModel } from './models.ts';

export interface CatalogueEntry {
  /** The models.json entry, as written (speakers as a count). */
  model: Omit<SherpaModel, 'speakers' | 'ruleFsts' | 'ruleFars' | 'languages'> & {
    languages?: string[];
    speakers?: number;
    ruleFsts?: string[];
    ruleFars?: string[];
  };
  /** Archives (release path) unpacked into the models folder, and single files downloaded next to them. */
  archives: string[];
  files?: string[];
}

/** Whisper's multilingual models know ~100 languages; these are the ones worth offering first. */
const WHISPER_LANGUAGES = [
  'zh',
  'en',
  'yue',
  'ja',
  'ko',
  'fr',
  'de',
  'es',
  'ru',
  'pt',
  'it',
  'ar',
  'hi',
  'th',
  'vi',
  'id',
  'ms',
  'tr',
  'nl',
];

const whisper = (size: 'tiny' | 'base'): CatalogueEntry => ({
  model: {
    id: `whisper-${size}`,
    kind: 'asr',
    type: 'whisper',
    name: `Whisper ${size}（多语种，无词级时间）`,
    languages: WHISPER_LANGUAGES,
    files: {
      encoder: `sherpa-onnx-whisper-${size}/${size}-encoder.int8.onnx`,
      decoder: `sherpa-onnx-whisper-${size}/${size}-decoder.int8.onnx`,
      tokens: `sherpa-onnx-whisper-${size}/${size}-tokens.txt`,
    },
  },
  archives: [`asr-models/sherpa-onnx-whisper-${size}.tar.bz2`],
});

export const MODEL_CATALOGUE: CatalogueEntry[] = [
  {
    model: {
      id: 'vits-icefall-zh-aishell3',
      kind: 'vits',
      name: 'AISHELL-3 多说话人中文',
      languages: ['zh-CN'],
      speakers: 174,
      files: {
        model: 'vits-icefall-zh-aishell3/model.onnx',
        tokens: 'vits-icefall-zh-aishell3/tokens.txt',
        lexicon: 'vits-icefall-zh-aishell3/lexicon.txt',
      },
      ruleFsts: ['date', 'phone', 'number', 'new_heteronym'].map((f) => `vits-icefall-zh-aishell3/${f}.fst`),
      ruleFars: ['vits-icefall-zh-aishell3/rule.far'],
    },
    archives: ['tts-models/vits-icefall-zh-aishell3.tar.bz2'],
  },
  {
    model: {
      id: 'sherpa-onnx-vits-zh-ll',
      kind: 'vits',
      name: '中文 5 说话人',
      languages: ['zh-CN'],
      speakers: 5,
      files: {
        model: 'sherpa-onnx-vits-zh-ll/model.onnx',
        tokens: 'sherpa-onnx-vits-zh-ll/tokens.txt',
        lexicon: 'sherpa-onnx-vits-zh-ll/lexicon.txt',
        dictDir: 'sherpa-onnx-vits-zh-ll/dict',
      },
      ruleFsts: ['date', 'phone', 'number'].map((f) => `sherpa-onnx-vits-zh-ll/${f}.fst`),
    },
    archives: ['tts-models/sherpa-onnx-vits-zh-ll.tar.bz2'],
  },
  {
    model: {
      id: 'matcha-icefall-zh-baker',
      kind: 'matcha',
      name: '标贝中文女声（Matcha）',
      languages: ['zh-CN'],
      speakers: 1,
      files: {
        acousticModel: 'matcha-icefall-zh-baker/model-steps-3.onnx',
        vocoder: 'vocos-22khz-univ.onnx',
        tokens: 'matcha-icefall-zh-baker/tokens.txt',
        lexicon: 'matcha-icefall-zh-baker/lexicon.txt',
      },
      ruleFsts: ['phone', 'date', 'number'].map((f) => `matcha-icefall-zh-baker/${f}.fst`),
    },
    archives: ['tts-models/matcha-icefall-zh-baker.tar.bz2'],
    files: ['vocoder-models/vocos-22khz-univ.onnx'],
  },
  {
    model: {
      id: 'kokoro-multi-lang-v1_0',
      kind: 'kokoro',
      name: 'Kokoro 中英双语',
      languages: ['zh-CN', 'en-US'],
      speakers: 53,
      files: {
        model: 'kokoro-multi-lang-v1_0/model.onnx',
        voices: 'kokoro-multi-lang-v1_0/voices.bin',
        tokens: 'kokoro-multi-lang-v1_0/tokens.txt',
        dataDir: 'kokoro-multi-lang-v1_0/espeak-ng-data',
        lexicon: ['kokoro-multi-lang-v1_0/lexicon-us-en.txt', 'kokoro-multi-lang-v1_0/lexicon-zh.txt'],
      },
    },
    archives: ['tts-models/kokoro-multi-lang-v1_0.tar.bz2'],
  },
  {
    model: {
      id: 'vits-piper-en_US-amy-low',
      kind: 'vits',
      name: 'Piper Amy (English)',
      languages: ['en-US'],
      speakers: 1,
      files: {
        model: 'vits-piper-en_US-amy-low/en_US-amy-low.onnx',
        tokens: 'vits-piper-en_US-amy-low/tokens.txt',
        dataDir: 'vits-piper-en_US-amy-low/espeak-ng-data',
      },
    },
    archives: ['tts-models/vits-piper-en_US-amy-low.tar.bz2'],
  },
  {
    // The archive holds the float model too (1 GB in all); the int8 one is what we register.
    model: {
      id: 'sense-voice-zh-en-ja-ko-yue-int8',
      kind: 'asr',
      type: 'sense_voice',
      name: 'SenseVoice 中英日韩粤（int8）',
      languages: ['zh', 'en', 'ja', 'ko', 'yue'],
      files: {
        model: 'sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17/model.int8.onnx',
        tokens: 'sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17/tokens.txt',
      },
    },
    archives: ['asr-models/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17.tar.bz2'],
  },
  {
    model: {
      id: 'paraformer-zh',
      kind: 'asr',
      type: 'paraformer',
      name: 'Paraformer 中文（含英文，int8）',
      languages: ['zh', 'en'],
      files: {
        model: 'sherpa-onnx-paraformer-zh-2024-03-09/model.int8.onnx',
        tokens: 'sherpa-onnx-paraformer-zh-2024-03-09/tokens.txt',
      },
    },
    archives: ['asr-models/sherpa-onnx-paraformer-zh-2024-03-09.tar.bz2'],
  },
  whisper('tiny'),
  whisper('base'),
  {
    model: { id: 'silero-vad', kind: 'vad', name: 'Silero VAD', files: { model: 'silero_vad.onnx' } },
    archives: [],
    files: ['asr-models/silero_vad.onnx'],
  },
  {
    model: {
      id: 'ct-punc-zh-en-int8',
      kind: 'punctuation',
      name: 'CT-Transformer 中英标点（int8）',
      files: { model: 'sherpa-onnx-punct-ct-transformer-zh-en-vocab272727-2024-04-12-int8/model.int8.onnx' },
    },
    archives: [
      'punctuation-models/sherpa-onnx-punct-ct-transformer-zh-en-vocab272727-2024-04-12-int8.tar.bz2',
    ],
  },
  {
    model: {
      id: 'pyannote-3dspeaker-zh',
      kind: 'diarization',
      name: 'pyannote 分段 3.0 + 3D-Speaker 中文声纹',
      files: {
        segmentation: 'sherpa-onnx-pyannote-segmentation-3-0/model.onnx',
        embedding: '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx',
      },
    },
    archives: ['speaker-segmentation-models/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2'],
    // The release tag is spelled so upstream.
    files: ['speaker-recongition-models/3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx'],
  },
  {
    model: {
      id: 'pyannote-wespeaker-en',
      kind: 'diarization',
      name: 'pyannote segmentation 3.0 + WeSpeaker (English)',
      files: {
        segmentation: 'sherpa-onnx-pyannote-segmentation-3-0/model.onnx',
        embedding: 'wespeaker_en_voxceleb_resnet34.onnx',
      },
    },
    archives: ['speaker-segmentation-models/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2'],
    files: ['speaker-recongition-models/wespeaker_en_voxceleb_resnet34.onnx'],
  },
];

/** Headings of `--list`, in order. */
export const CATALOGUE_GROUPS: Array<{ title: string; kinds: string[] }> = [
  { title: '语音合成 TTS', kinds: ['vits', 'matcha', 'kokoro'] },
  { title: '语音识别 ASR', kinds: ['asr'] },
  { title: '语音活动检测 VAD', kinds: ['vad'] },
  { title: '标点 punctuation', kinds: ['punctuation'] },
  { title: '说话人分离 diarization', kinds: ['diarization'] },
];
