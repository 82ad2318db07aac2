/**
 * Models the installer knows: sherpa-onnx release assets, the models.json entry each becomes, and
 * what an operator needs to decide on them (size, checksum, licence of code, weights and training
 * data, what installing it turns on). Kept beside the registry code so tests check every entry
 * against the same validation the server runs. Where each fact was read: licence.sources, and the
 * operator doc docs/models.md (which also lists what could not be verified).
 */
import type { ModelSpeaker, SherpaModel } from './models.ts';

export interface ModelDownload {
  /**
   * Path under the base URL: release tag + asset name, e.g. 'tts-models/kokoro-multi-lang-v1_1.tar.bz2';
   * or the whole URL of a file published elsewhere, pinned to a revision (LaMa on Hugging Face), or
   * a release that has no revisions (PaddleSpeech's g2pW archive).
   */
  path: string;
  /** true: a .tar.bz2 (or .zip) unpacked into the models folder; false: saved under its own name at the top. */
  unpack: boolean;
  /**
   * Size of the download in bytes. Exact when `bytesExact`; otherwise an upper bound (the unpacked
   * sizes upstream lists, which a compressed archive never exceeds) or an estimate, for the disk
   * check and progress only: the installer must not reject a download whose length differs.
   */
  bytes: number;
  /** true when `bytes` is the exact length of the asset as read from a published source. */
  bytesExact: boolean;
  /**
   * sha256 of the download, or null when no digest could be read here (the installer then records
   * the digest of the first download and says it was not verified). Upstream's docs publish none;
   * the ones given were pinned by public projects that downloaded the same asset (docs/models.md
   * says which), and upstream re-uploads assets under the same name now and then (the tts-models
   * tag is rolling), so a mismatch means "changed upstream or corrupted": never installed.
   */
  sha256: string | null;
}

export interface ModelLicence {
  /** SPDX id or name, e.g. 'Apache-2.0'. */
  code: string;
  /** Licence of the weights. */
  weights: string;
  /** Training data and its licence, in short. */
  data: string;
  /** Code, weights and data allow commercial self-hosting. */
  permissive: boolean;
  /** URLs the facts were read from. */
  sources: string[];
}

/** The models.json entry, as written (speakers as a count or a list). */
export type CatalogueModel = Omit<SherpaModel, 'speakers' | 'ruleFsts' | 'ruleFars' | 'languages'> & {
  languages?: string[];
  speakers?: number | ModelSpeaker[];
  ruleFsts?: string[];
  ruleFars?: string[];
};

export interface CatalogueEntry {
  model: CatalogueModel;
  downloads: ModelDownload[];
  /** Disk space the unpacked model takes, bytes (for the disk check). */
  installedBytes: number;
  licence: ModelLicence;
  /** What installing it turns on, operator-facing Chinese, e.g. '语音合成：103 个中英文音色'. */
  enables: string;
  /** In the recommended set installed by default (only when licence.permissive). */
  recommended: boolean;
  homepage: string;
}

const MB = 1_000_000;
const SHERPA_LICENCE = 'https://github.com/k2-fsa/sherpa-onnx/blob/master/LICENSE';

// Where facts were read (one page backs several entries). Digests and exact sizes not published
// upstream were read from public projects that pin the same asset; docs/models.md lists them.
const SRC = {
  kokoroV11Card: 'https://huggingface.co/hexgrad/Kokoro-82M-v1.1-zh',
  kokoroV11Docs: 'https://k2-fsa.github.io/sherpa/onnx/tts/all/Chinese-English/kokoro-multi-lang-v1_1.html',
  kokoroDocs: 'https://k2-fsa.github.io/sherpa/onnx/tts/pretrained_models/kokoro.html',
  kokoroExport: 'https://github.com/k2-fsa/sherpa-onnx/blob/master/.github/workflows/export-kokoro.yaml',
  kokoroVoices:
    'https://github.com/k2-fsa/sherpa-onnx/blob/master/scripts/kokoro/v1.1-zh/generate_voices_bin.py',
  kokoroApk: 'https://github.com/k2-fsa/sherpa-onnx/blob/master/scripts/apk/generate-tts-apk-script.py',
  kokoroCard: 'https://huggingface.co/hexgrad/Kokoro-82M',
  vitsDocs: 'https://k2-fsa.github.io/sherpa/onnx/tts/pretrained_models/vits.html',
  aishell3: 'https://huggingface.co/datasets/AISHELL/AISHELL-3',
  matchaDocs: 'https://k2-fsa.github.io/sherpa/onnx/tts/pretrained_models/matcha.html',
  piperAmy: 'https://huggingface.co/rhasspy/piper-voices/tree/main/en/en_US/amy/low',
  piperAmyCard: 'https://huggingface.co/csukuangfj/vits-piper-en_US-amy-medium/blob/main/MODEL_CARD',
  funasrLicence: 'https://github.com/modelscope/FunASR/blob/main/MODEL_LICENSE',
  senseVoice: 'https://github.com/FunAudioLLM/SenseVoice/blob/main/README.md',
  senseVoiceDocs: 'https://k2-fsa.github.io/sherpa/onnx/sense-voice/pretrained.html',
  paraformerDocs:
    'https://k2-fsa.github.io/sherpa/onnx/pretrained_models/offline-paraformer/paraformer-models.html',
  whisperLicence: 'https://github.com/openai/whisper/blob/main/LICENSE',
  whisperCard: 'https://github.com/openai/whisper/blob/main/model-card.md',
  sileroLicence: 'https://github.com/snakers4/silero-vad/blob/master/LICENSE',
  sileroReadme: 'https://github.com/snakers4/silero-vad/blob/master/README.md',
  sileroDocs: 'https://k2-fsa.github.io/sherpa/onnx/vad/silero-vad.html',
  punctDocs: 'https://k2-fsa.github.io/sherpa/onnx/punctuation/pretrained_models.html',
  diarizationDocs: 'https://k2-fsa.github.io/sherpa/onnx/speaker-diarization/models.html',
  pyannoteCard: 'https://huggingface.co/pyannote/segmentation-3.0',
  ldcLicences: 'http://ldc-upenn.blogspot.com/2011/04/',
  speaker3d: 'https://github.com/modelscope/3D-Speaker/blob/main/README.md',
  eres2netCard: 'https://huggingface.co/onemira/eres2net-base-3dspeaker-onnx',
  wespeakerModels: 'https://github.com/wenet-e2e/wespeaker/blob/master/docs/pretrained.md',
  lamaLicence: 'https://github.com/advimman/lama/blob/main/LICENSE',
  lamaReadme: 'https://github.com/advimman/lama/blob/main/README.md',
  lamaOnnxCard: 'https://huggingface.co/Carve/LaMa-ONNX',
  lamaOnnxCommit: 'https://huggingface.co/Carve/LaMa-ONNX/commit/a3ee2fca54baebec351b8fa7786154ffa7555aa6',
  lamaExport: 'https://github.com/Carve-Photos/lama',
  lamaSignature: 'https://huggingface.co/gumka/lama-onnx',
  places365: 'https://github.com/zhoubolei/places_devkit',
  g2pwReadme: 'https://github.com/GitYCC/g2pW/blob/master/README.md',
  g2pwLicence: 'https://github.com/GitYCC/g2pW/blob/master/LICENSE',
  g2pwCheckpoints: 'https://huggingface.co/YC-Chen/g2pW',
  paddleG2pw:
    'https://github.com/PaddlePaddle/PaddleSpeech/blob/develop/paddlespeech/resource/pretrained_models.py',
  paddleLicence: 'https://github.com/PaddlePaddle/PaddleSpeech/blob/develop/LICENSE',
  cppData: 'https://github.com/kakaobrain/g2pM/blob/master/README.md',
  bertChinese: 'https://huggingface.co/google-bert/bert-base-chinese',
  bertLicence: 'https://github.com/google-research/bert/blob/master/LICENSE',
};

const FUNASR_WEIGHTS =
  'FunASR 模型开源协议 1.1：可自由使用、复制、修改、分享（未限制商用），须注明出处与作者并保留模型名称；' +
  '阿里巴巴可修订协议，违约即终止';

/** Kokoro v1.1-zh speakers in sherpa-onnx's order (sid): 3 English, then the Chinese voice packs present. */
const KOKORO_V11_FEMALE_ZH = [
  1, 2, 3, 4, 5, 6, 7, 8, 17, 18, 19, 21, 22, 23, 24, 26, 27, 28, 32, 36, 38, 39, 40, 42, 43, 44, 46, 47, 48,
  49, 51, 59, 60, 67, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 83, 84, 85, 86, 87, 88, 90, 92, 93, 94, 99,
];
const KOKORO_V11_MALE_ZH = [
  9, 10, 11, 12, 13, 14, 15, 16, 20, 25, 29, 30, 31, 33, 34, 35, 37, 41, 45, 50, 52, 53, 54, 55, 56, 57, 58,
  61, 62, 63, 64, 65, 66, 68, 69, 80, 81, 82, 89, 91, 95, 96, 97, 98, 100,
];
const pad3 = (n: number) => String(n).padStart(3, '0');
export const KOKORO_V11_SPEAKERS: ModelSpeaker[] = [
  // The model card: "1 hour of Maple, an American female", "Sol, another American female",
  // "Vale, an older British female". Upstream describes none of the Chinese voices.
  { id: 0, name: 'Maple（美式英语）', gender: 'female', language: 'en-US' },
  { id: 1, name: 'Sol（美式英语）', gender: 'female', language: 'en-US' },
  { id: 2, name: 'Vale（英式英语）', gender: 'female', language: 'en-GB', style: '年长' },
  ...KOKORO_V11_FEMALE_ZH.map(
    (n, i): ModelSpeaker => ({ id: 3 + i, name: `中文女声 ${pad3(n)}`, gender: 'female', language: 'zh-CN' }),
  ),
  ...KOKORO_V11_MALE_ZH.map(
    (n, i): ModelSpeaker => ({
      id: 3 + KOKORO_V11_FEMALE_ZH.length + i,
      name: `中文男声 ${pad3(n)}`,
      gender: 'male',
      language: 'zh-CN',
    }),
  ),
];

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

/** `upperMb`: every file of the model's Hugging Face mirror summed (the archive holds at most these). */
const whisper = (size: 'tiny' | 'base', upperMb: number): CatalogueEntry => ({
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
  downloads: [
    {
      path: `asr-models/sherpa-onnx-whisper-${size}.tar.bz2`,
      unpack: true,
      bytes: upperMb * MB,
      bytesExact: false,
      sha256: null,
    },
  ],
  installedBytes: upperMb * MB,
  licence: {
    code: 'MIT（openai/whisper）、Apache-2.0（sherpa-onnx）',
    weights: 'MIT',
    data: '68 万小时网络音频与字幕，OpenAI 未公开来源与许可',
    permissive: true,
    sources: [
      SRC.whisperLicence,
      SRC.whisperCard,
      `https://huggingface.co/csukuangfj/sherpa-onnx-whisper-${size}/tree/main`,
      SHERPA_LICENCE,
    ],
  },
  enables: `语音识别：Whisper ${size}，多语种（词级时间按句估算）`,
  recommended: false,
  homepage: 'https://github.com/openai/whisper',
});

export const MODEL_CATALOGUE: CatalogueEntry[] = [
  {
    model: {
      id: 'kokoro-multi-lang-v1_1',
      kind: 'kokoro',
      name: 'Kokoro v1.1 中英双语',
      languages: ['zh-CN', 'en-US', 'en-GB'],
      speakers: KOKORO_V11_SPEAKERS,
      files: {
        model: 'kokoro-multi-lang-v1_1/model.onnx',
        voices: 'kokoro-multi-lang-v1_1/voices.bin',
        tokens: 'kokoro-multi-lang-v1_1/tokens.txt',
        dataDir: 'kokoro-multi-lang-v1_1/espeak-ng-data',
        lexicon: ['kokoro-multi-lang-v1_1/lexicon-us-en.txt', 'kokoro-multi-lang-v1_1/lexicon-zh.txt'],
      },
      // As upstream's own apps configure this model (kokoroApk). No dict/: sherpa-onnx ≥ 1.12.15
      // ignores it for Kokoro.
      ruleFsts: ['phone-zh', 'date-zh', 'number-zh'].map((f) => `kokoro-multi-lang-v1_1/${f}.fst`),
    },
    downloads: [
      {
        path: 'tts-models/kokoro-multi-lang-v1_1.tar.bz2',
        unpack: true,
        bytes: 364_816_464,
        bytesExact: true,
        sha256: 'a3f4c73d043860e3fd2e5b06f36795eb81de0fc8e8de6df703245edddd87dbad',
      },
    ],
    // 426,654,376 bytes of files as two projects that install it measured; rounded up for the
    // file system's overhead on espeak-ng-data's many small files.
    installedBytes: 440 * MB,
    licence: {
      code: 'Apache-2.0（Kokoro、sherpa-onnx）；附带的 espeak-ng-data 为 GPL-3.0 数据文件',
      weights: 'Apache-2.0',
      data:
        '100 位中文说话人来自龙猫数据（LongMaoData）免费且宽松授权的专业数据集；另有 3 小时众包的合成英文语音' +
        '（模型卡称合成数据不受版权保护）',
      permissive: true,
      sources: [
        SRC.kokoroV11Card,
        SRC.kokoroV11Docs,
        SRC.kokoroDocs,
        SRC.kokoroExport,
        SRC.kokoroVoices,
        SRC.kokoroApk,
        SHERPA_LICENCE,
      ],
    },
    enables: '语音合成：103 个神经网络音色（100 个中文、3 个英文）',
    recommended: true,
    homepage: SRC.kokoroV11Card,
  },
  {
    model: {
      id: 'kokoro-int8-multi-lang-v1_1',
      kind: 'kokoro',
      name: 'Kokoro v1.1 中英双语（int8，更小）',
      languages: ['zh-CN', 'en-US', 'en-GB'],
      speakers: KOKORO_V11_SPEAKERS,
      files: {
        model: 'kokoro-int8-multi-lang-v1_1/model.int8.onnx',
        voices: 'kokoro-int8-multi-lang-v1_1/voices.bin',
        tokens: 'kokoro-int8-multi-lang-v1_1/tokens.txt',
        dataDir: 'kokoro-int8-multi-lang-v1_1/espeak-ng-data',
        lexicon: [
          'kokoro-int8-multi-lang-v1_1/lexicon-us-en.txt',
          'kokoro-int8-multi-lang-v1_1/lexicon-zh.txt',
        ],
      },
      ruleFsts: ['phone-zh', 'date-zh', 'number-zh'].map((f) => `kokoro-int8-multi-lang-v1_1/${f}.fst`),
    },
    downloads: [
      {
        path: 'tts-models/kokoro-int8-multi-lang-v1_1.tar.bz2',
        unpack: true,
        bytes: 147_031_220,
        bytesExact: true,
        sha256: 'a1e94694776049035c4f2c6529f003aaece993c76aae9a78995831c3c4dcafc6',
      },
    ],
    // ESTIMATE: "221,000,000" as one project that installs it lists; rounded up.
    installedBytes: 235 * MB,
    licence: {
      code: 'Apache-2.0（Kokoro、sherpa-onnx）；附带的 espeak-ng-data 为 GPL-3.0 数据文件',
      weights: 'Apache-2.0（由 sherpa-onnx 动态量化为 int8）',
      data:
        '100 位中文说话人来自龙猫数据（LongMaoData）免费且宽松授权的专业数据集；另有 3 小时众包的合成英文语音' +
        '（模型卡称合成数据不受版权保护）',
      permissive: true,
      sources: [SRC.kokoroV11Card, SRC.kokoroDocs, SRC.kokoroExport, SRC.kokoroApk, SHERPA_LICENCE],
    },
    enables: '语音合成：与 Kokoro v1.1 相同的 103 个音色，下载更小（量化后音质可能略降）',
    recommended: false,
    homepage: SRC.kokoroV11Card,
  },
  {
    model: {
      id: 'kokoro-multi-lang-v1_0',
      kind: 'kokoro',
      name: 'Kokoro v1.0 中英双语',
      languages: ['zh-CN', 'en-US'],
      // The 2026-09-08 upload appended a 54th voice (em_santa); 53 holds for both uploads accepted.
      speakers: 53,
      files: {
        model: 'kokoro-multi-lang-v1_0/model.onnx',
        voices: 'kokoro-multi-lang-v1_0/voices.bin',
        tokens: 'kokoro-multi-lang-v1_0/tokens.txt',
        dataDir: 'kokoro-multi-lang-v1_0/espeak-ng-data',
        lexicon: ['kokoro-multi-lang-v1_0/lexicon-us-en.txt', 'kokoro-multi-lang-v1_0/lexicon-zh.txt'],
      },
    },
    downloads: [
      {
        path: 'tts-models/kokoro-multi-lang-v1_0.tar.bz2',
        unpack: true,
        bytes: 349_906_910,
        bytesExact: true,
        sha256: 'c5f7e2d2caf082bc1d20fb70334a61d99d20b484500aad32e7cf84c128ea3298',
      },
    ],
    // `ls -lh` on the docs page: total 718872 blocks of 512 bytes.
    installedBytes: 369 * MB,
    licence: {
      code: 'Apache-2.0（Kokoro、sherpa-onnx）；附带的 espeak-ng-data 为 GPL-3.0 数据文件',
      weights: 'Apache-2.0',
      data: '模型卡称训练数据均为宽松授权或无版权的音频：公共领域、Apache/MIT、CC BY 与大厂商闭源 TTS 的合成音频',
      permissive: true,
      sources: [SRC.kokoroCard, SRC.kokoroDocs, SHERPA_LICENCE],
    },
    enables: '语音合成：53 个音色（以英文为主，8 个中文）',
    recommended: false,
    homepage: SRC.kokoroCard,
  },
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
    downloads: [
      {
        path: 'tts-models/vits-icefall-zh-aishell3.tar.bz2',
        unpack: true,
        // ESTIMATE: only model.onnx (29M) was read; lexicon, FSTs and rule.far added generously.
        bytes: 45 * MB,
        bytesExact: false,
        sha256: null,
      },
    ],
    installedBytes: 45 * MB,
    licence: {
      code: 'Apache-2.0（icefall、sherpa-onnx）',
      weights: '未读到（icefall 训练，未见权重许可声明）',
      data: 'AISHELL-3（Apache-2.0）',
      permissive: false,
      sources: [SRC.vitsDocs, SRC.aishell3],
    },
    enables: '语音合成：174 个中文说话人（VITS，8 kHz 采样）',
    recommended: false,
    homepage: 'https://www.openslr.org/93/',
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
    downloads: [
      {
        path: 'tts-models/sherpa-onnx-vits-zh-ll.tar.bz2',
        unpack: true,
        // ESTIMATE: model.onnx is 115M on the docs page; the jieba dict/ size was not read.
        bytes: 150 * MB,
        bytesExact: false,
        sha256: null,
      },
    ],
    installedBytes: 150 * MB,
    licence: {
      code: 'Apache-2.0（sherpa-onnx）；用 VITS-fast-fine-tuning 训练',
      weights: '未读到',
      data: '未读到',
      permissive: false,
      sources: [SRC.vitsDocs],
    },
    enables: '语音合成：5 个中文说话人（VITS）',
    recommended: false,
    homepage: SRC.vitsDocs,
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
    downloads: [
      {
        path: 'tts-models/matcha-icefall-zh-baker.tar.bz2',
        unpack: true,
        // Upper bound: the docs page lists model-steps-3.onnx 72M, lexicon 1.3M and small files.
        bytes: 80 * MB,
        bytesExact: false,
        sha256: null,
      },
      {
        path: 'vocoder-models/vocos-22khz-univ.onnx',
        unpack: false,
        // Upper bound: `ls -lh` shows 51M.
        bytes: 54 * MB,
        bytesExact: false,
        sha256: null,
      },
    ],
    installedBytes: 134 * MB,
    licence: {
      code: 'Apache-2.0（icefall、sherpa-onnx）',
      weights: '未读到',
      data: '标贝（DataBaker）中文标准女声音库：上游文档注明仅限非商业用途',
      permissive: false,
      sources: [SRC.matchaDocs],
    },
    enables: '语音合成：1 个中文女声（Matcha）',
    recommended: false,
    homepage: SRC.matchaDocs,
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
    downloads: [
      {
        path: 'tts-models/vits-piper-en_US-amy-low.tar.bz2',
        unpack: true,
        // ESTIMATE: en_US-amy-low.onnx is 63.1 MB; espeak-ng-data was not measured here.
        bytes: 90 * MB,
        bytesExact: false,
        sha256: null,
      },
    ],
    installedBytes: 90 * MB,
    licence: {
      code: 'MIT（piper）、Apache-2.0（sherpa-onnx）；附带的 espeak-ng-data 为 GPL-3.0 数据文件',
      weights: 'MIT（piper-voices 仓库）',
      data: 'mimic3-voices 的 Amy 数据集（许可见其仓库，未读到），由 lessac 音色微调而来',
      permissive: false,
      sources: [SRC.piperAmy, SRC.piperAmyCard],
    },
    enables: '语音合成：1 个英文女声（Piper）',
    recommended: false,
    homepage: 'https://github.com/rhasspy/piper',
  },
  {
    model: {
      id: 'sense-voice-zh-en-ja-ko-yue-int8',
      kind: 'asr',
      type: 'sense_voice',
      name: 'SenseVoice 中英日韩粤（int8）',
      languages: ['zh', 'en', 'ja', 'ko', 'yue'],
      files: {
        model: 'sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17/model.int8.onnx',
        tokens: 'sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17/tokens.txt',
      },
    },
    downloads: [
      {
        path: 'asr-models/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17.tar.bz2',
        unpack: true,
        bytes: 163_002_883,
        bytesExact: true,
        sha256: '7d1efa2138a65b0b488df37f8b89e3d91a60676e416f515b952358d83dfd347e',
      },
    ],
    // `ls -lh` on the docs page: total 494168 blocks of 512 bytes.
    installedBytes: 253 * MB,
    licence: {
      code: 'MIT（SenseVoice、FunASR）、Apache-2.0（sherpa-onnx）',
      weights: FUNASR_WEIGHTS,
      data: '阿里巴巴自有的 40 万小时以上语音数据，未公开；权重由数据所有方自行以上述协议发布',
      permissive: true,
      sources: [SRC.funasrLicence, SRC.senseVoice, SRC.senseVoiceDocs, SHERPA_LICENCE],
    },
    enables: '语音识别：中文（含粤语）、英、日、韩，带时间戳与标点；语音转文字、配音与翻译的语音输入',
    recommended: true,
    homepage: 'https://github.com/FunAudioLLM/SenseVoice',
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
    downloads: [
      {
        path: 'asr-models/sherpa-onnx-paraformer-zh-2024-03-09.tar.bz2',
        unpack: true,
        // ESTIMATE: "~973 MB (tar.bz2, fp32 + int8)" as one public project lists it; rounded up.
        bytes: 1_050 * MB,
        bytesExact: false,
        sha256: null,
      },
    ],
    // ESTIMATE: the archive holds the float model too; not measured here.
    installedBytes: 1_200 * MB,
    licence: {
      code: 'MIT（FunASR）、Apache-2.0（sherpa-onnx）',
      weights: FUNASR_WEIGHTS,
      data: '阿里巴巴自有的中文语音数据，未公开',
      permissive: true,
      sources: [SRC.funasrLicence, SRC.paraformerDocs, SHERPA_LICENCE],
    },
    enables: '语音识别：中文（含英文）',
    recommended: false,
    homepage: 'https://github.com/modelscope/FunASR',
  },
  whisper('tiny', 257),
  whisper('base', 454),
  {
    model: { id: 'silero-vad', kind: 'vad', name: 'Silero VAD', files: { model: 'silero_vad.onnx' } },
    downloads: [
      {
        path: 'asr-models/silero_vad.onnx',
        unpack: false,
        bytes: 643_854,
        bytesExact: true,
        sha256: '9e2449e1087496d8d4caba907f23e0bd3f78d91fa552479bb9c23ac09cbb1fd6',
      },
    ],
    installedBytes: 643_854,
    licence: {
      code: 'MIT（silero-vad）、Apache-2.0（sherpa-onnx）',
      weights: 'MIT',
      data: '覆盖 6000 多种语言的大规模语料，Silero 未公开来源与许可',
      permissive: true,
      sources: [SRC.sileroLicence, SRC.sileroReadme, SRC.sileroDocs, SHERPA_LICENCE],
    },
    enables: '语音活动检测：长音频按说话切段，语音识别必需',
    recommended: true,
    homepage: 'https://github.com/snakers4/silero-vad',
  },
  {
    model: {
      id: 'ct-punc-zh-en-int8',
      kind: 'punctuation',
      name: 'CT-Transformer 中英标点（int8）',
      files: { model: 'sherpa-onnx-punct-ct-transformer-zh-en-vocab272727-2024-04-12-int8/model.int8.onnx' },
    },
    downloads: [
      {
        path: 'punctuation-models/sherpa-onnx-punct-ct-transformer-zh-en-vocab272727-2024-04-12-int8.tar.bz2',
        unpack: true,
        bytes: 64_717_756,
        bytesExact: true,
        sha256: 'c0d5aa5f8eeb686032345e180bedf39319dc2e0556781c6264bcadba8328a6e1',
      },
    ],
    // The docs page lists model.int8.onnx 72M and tokens.json 4.0M; rounded up.
    installedBytes: 82 * MB,
    licence: {
      code: 'MIT（FunASR）、Apache-2.0（sherpa-onnx）',
      weights: FUNASR_WEIGHTS,
      data: '阿里巴巴未公开的中英文文本',
      permissive: true,
      sources: [SRC.funasrLicence, SRC.punctDocs, SHERPA_LICENCE],
    },
    enables: '标点：为识别结果中缺标点的片段补上标点',
    recommended: true,
    homepage: 'https://github.com/modelscope/FunASR',
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
    downloads: [
      {
        path: 'speaker-segmentation-models/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2',
        unpack: true,
        bytes: 6_958_444,
        bytesExact: true,
        sha256: '24615ee884c897d9d2ba09bb4d30da6bb1b15e685065962db5b02e76e4996488',
      },
      {
        // The release tag is spelled so upstream.
        path: 'speaker-recongition-models/3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx',
        unpack: false,
        bytes: 39_593_761,
        bytesExact: true,
        sha256: '1a331345f04805badbb495c775a6ddffcdd1a732567d5ec8b3d5749e3c7a5e4b',
      },
    ],
    // model.onnx 5.7M + model.int8.onnx 1.5M unpacked, plus the embedding file.
    installedBytes: 49 * MB,
    licence: {
      code: 'MIT（pyannote.audio）、Apache-2.0（3D-Speaker、sherpa-onnx）',
      weights: 'MIT（分段模型）；Apache-2.0（3D-Speaker 声纹模型）',
      data:
        '分段模型的训练集含 DIHARD（LDC 发行，非会员许可不得商用），另有 REPERE、Ego4D 等（许可未逐一核实）；' +
        '声纹模型用 3D-Speaker 数据集训练（其许可未读到）',
      permissive: false,
      sources: [SRC.pyannoteCard, SRC.ldcLicences, SRC.speaker3d, SRC.eres2netCard, SRC.diarizationDocs],
    },
    enables: '说话人分离：区分转写中的不同说话人（中文声纹）',
    recommended: false,
    homepage: 'https://github.com/modelscope/3D-Speaker',
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
    downloads: [
      {
        path: 'speaker-segmentation-models/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2',
        unpack: true,
        bytes: 6_958_444,
        bytesExact: true,
        sha256: '24615ee884c897d9d2ba09bb4d30da6bb1b15e685065962db5b02e76e4996488',
      },
      {
        path: 'speaker-recongition-models/wespeaker_en_voxceleb_resnet34.onnx',
        unpack: false,
        // ESTIMATE: WeSpeaker's own export is 26,534,127 bytes; sherpa-onnx adds metadata to it.
        bytes: 27 * MB,
        bytesExact: false,
        sha256: null,
      },
    ],
    installedBytes: 36 * MB,
    licence: {
      code: 'MIT（pyannote.audio）、Apache-2.0（WeSpeaker、sherpa-onnx）',
      weights: 'MIT（分段模型）；CC BY 4.0（WeSpeaker 的 VoxCeleb 模型随数据集许可）',
      data: '分段模型的训练集含 DIHARD（LDC 发行，非会员许可不得商用）等；声纹模型用 VoxCeleb 训练',
      permissive: false,
      sources: [SRC.pyannoteCard, SRC.ldcLicences, SRC.wespeakerModels, SRC.diarizationDocs],
    },
    enables: '说话人分离：区分转写中的不同说话人（英文声纹）',
    recommended: false,
    homepage: 'https://github.com/wenet-e2e/wespeaker',
  },
  {
    // Carve's ONNX export of big-lama (fixed 512 × 512; image and mask in, RGB 0..255 out): the digest
    // and size are the Git LFS pointer of the commit that uploaded this file, which the URL pins.
    model: {
      id: 'lama-big-512',
      kind: 'inpaint',
      name: 'LaMa 画面修补（big-lama）',
      files: { model: 'lama_fp32.onnx' },
    },
    downloads: [
      {
        path: 'https://huggingface.co/Carve/LaMa-ONNX/resolve/a3ee2fca54baebec351b8fa7786154ffa7555aa6/lama_fp32.onnx',
        unpack: false,
        bytes: 208_044_816,
        bytesExact: true,
        sha256: '1faef5301d78db7dda502fe59966957ec4b79dd64e16f03ed96913c7a4eb68d6',
      },
    ],
    installedBytes: 208_044_816,
    licence: {
      code: 'Apache-2.0（advimman/lama；ONNX 导出 Carve-Photos/lama）',
      weights: 'Apache-2.0（Carve/LaMa-ONNX 模型卡；big-lama 权重随 advimman/lama 发布）',
      data: 'Places365-Challenge（MIT CSAIL 收集的网络场景照片），未读到允许商用的数据许可',
      permissive: false,
      sources: [
        SRC.lamaLicence,
        SRC.lamaReadme,
        SRC.lamaOnnxCard,
        SRC.lamaOnnxCommit,
        SRC.lamaExport,
        SRC.lamaSignature,
        SRC.places365,
      ],
    },
    enables: '字幕擦除、去水印：前后画面都看不到的像素由 LaMa 神经修复（未安装时用传统修补 Telea）',
    recommended: false,
    homepage: 'https://github.com/advimman/lama',
  },
  {
    // PaddleSpeech's ONNX export of g2pW (G2PWModel_1.1: g2pW.onnx, POLYPHONIC_CHARS.txt with bopomofo
    // labels, the bopomofo → pinyin table; its folder's `version` says v2.0), and the bert-base-chinese
    // vocabulary its tokenizer loads separately. PaddleSpeech publishes an md5 only
    // (f8b60501770bff92ed6ce90860a610e6), no sha256 and no length: the size is a bound from the
    // 635 MB g2pW.onnx mirrors list, and the installer records the digest of the first download.
    model: {
      id: 'g2pw-1.1',
      kind: 'g2p',
      name: 'g2pW 多音字消歧（BERT）',
      files: {
        model: 'G2PWModel_1.1/g2pW.onnx',
        polyphonic: 'G2PWModel_1.1/POLYPHONIC_CHARS.txt',
        bopomofo: 'G2PWModel_1.1/bopomofo_to_pinyin_wo_tune_dict.json',
        vocab: 'vocab.txt',
      },
    },
    downloads: [
      {
        path: 'https://paddlespeech.bj.bcebos.com/Parakeet/released_models/g2p/G2PWModel_1.1.zip',
        unpack: true,
        bytes: 640 * MB,
        bytesExact: false,
        sha256: null,
      },
      {
        path: 'https://huggingface.co/google-bert/bert-base-chinese/resolve/8585f10750f4d5a9d975775ee81aa7f2e7abe0e5/vocab.txt',
        unpack: false,
        bytes: 110_000,
        bytesExact: false,
        sha256: null,
      },
    ],
    installedBytes: 640 * MB,
    licence: {
      code: 'Apache-2.0（GitYCC/g2pW；ONNX 导出与推理 PaddlePaddle/PaddleSpeech）',
      weights:
        'Apache-2.0（作者随 g2pW 仓库发布的检查点，PaddleSpeech 转为 ONNX；词表 bert-base-chinese，Apache-2.0）',
      data: 'CPP 多音字数据集（kakaobrain/g2pM，Apache-2.0，9.9 万余句，每句标注一个多音字）',
      permissive: true,
      sources: [
        SRC.g2pwReadme,
        SRC.g2pwLicence,
        SRC.g2pwCheckpoints,
        SRC.paddleG2pw,
        SRC.paddleLicence,
        SRC.cppData,
        SRC.bertChinese,
        SRC.bertLicence,
      ],
    },
    enables:
      '多音字按整句上下文判断（g2pW）：短语表和用户词典之外的多音字由模型决定；每句多一次 BERT 计算，约 640 MB，按需安装',
    // Opt-in: 640 MB and a BERT pass per sentence on the CPU; the rules read ~95 % right without it.
    recommended: false,
    homepage: 'https://github.com/GitYCC/g2pW',
  },
];

/** Ids of the models installed by default. */
export const RECOMMENDED_MODELS: string[] = MODEL_CATALOGUE.filter((c) => c.recommended).map(
  (c) => c.model.id,
);

/** Headings of a listing, in order. */
export const CATALOGUE_GROUPS: Array<{ title: string; kinds: string[] }> = [
  { title: '语音合成 TTS', kinds: ['vits', 'matcha', 'kokoro'] },
  { title: '语音识别 ASR', kinds: ['asr'] },
  { title: '语音活动检测 VAD', kinds: ['vad'] },
  { title: '标点 punctuation', kinds: ['punctuation'] },
  { title: '说话人分离 diarization', kinds: ['diarization'] },
  { title: '画面修补 inpainting', kinds: ['inpaint'] },
  { title: '多音字 polyphones', kinds: ['g2p'] },
];
