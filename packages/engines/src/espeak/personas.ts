import type { EspeakVoice } from '../tts/types.ts';

/** The honest label of every espeak persona: formant synthesis, not a neural voice. */
export const STANDARD_ENGINE_LABEL = '标准引擎';

/** Languages the embedded engine speaks well enough to offer, with the espeak-ng voice behind each. */
export const ESPEAK_LANGUAGES = [
  { code: 'zh-CN', name: '普通话', voice: 'cmn-latn-pinyin' },
  { code: 'yue', name: '粤语', voice: 'yue' },
  { code: 'en-US', name: '英语（美式）', voice: 'en-us' },
  { code: 'en-GB', name: '英语（英式）', voice: 'en' },
  { code: 'ko', name: '韩语', voice: 'ko' },
  { code: 'fr', name: '法语', voice: 'fr' },
  { code: 'de', name: '德语', voice: 'de' },
  { code: 'es', name: '西班牙语', voice: 'es' },
  { code: 'it', name: '意大利语', voice: 'it' },
  { code: 'pt-BR', name: '葡萄牙语（巴西）', voice: 'pt-br' },
  { code: 'ru', name: '俄语', voice: 'ru' },
  { code: 'vi', name: '越南语', voice: 'vi' },
] as const;

/** espeak voice for a language code (zh → Mandarin through pinyin), or undefined when not offered. */
export function espeakVoiceForLanguage(language: string): string | undefined {
  const code = language.toLowerCase();
  if (code === 'zh' || code === 'cmn' || code.startsWith('zh-cn') || code === 'zh-hans')
    return 'cmn-latn-pinyin';
  if (code === 'zh-hk' || code === 'zh-yue' || code === 'cantonese') return 'yue';
  if (code === 'en') return 'en-us';
  if (code === 'pt') return 'pt-br';
  return ESPEAK_LANGUAGES.find((l) => l.code.toLowerCase() === code)?.voice;
}

export type PersonaGender = 'female' | 'male';
export type PersonaAge = 'child' | 'young' | 'middle' | 'old';

export interface EspeakPersona {
  /** Stable id the server stores as the engine voice of a built-in voice. */
  id: string;
  name: string;
  gender: PersonaGender;
  language: (typeof ESPEAK_LANGUAGES)[number]['code'];
  age: PersonaAge;
  styles: string[];
  useCases: string[];
  description: string;
  engineLabel: typeof STANDARD_ENGINE_LABEL;
  voice: EspeakVoice;
  /** A short line in the persona's language for preview clips. */
  sample: string;
}

type PersonaSeed = Omit<EspeakPersona, 'engineLabel' | 'voice' | 'sample'> & {
  voice: Omit<EspeakVoice, 'engine'>;
};

const SAMPLES: Record<EspeakPersona['language'], string> = {
  'zh-CN': '你好，欢迎使用声音工作台。今天天气不错，我们一起出发吧。',
  yue: '你好，歡迎使用聲音工作台。今日天氣好好，我哋一齊出發啦。',
  'en-US': 'Hello, and welcome to Voice Workbench. It is a lovely day to get started.',
  'en-GB': 'Hello, and welcome to Voice Workbench. It is a lovely day to get started.',
  ko: '안녕하세요, 보이스 워크벤치에 오신 것을 환영합니다.',
  fr: 'Bonjour et bienvenue sur Voice Workbench. Commençons ensemble.',
  de: 'Hallo und willkommen bei Voice Workbench. Fangen wir gemeinsam an.',
  es: 'Hola y bienvenido a Voice Workbench. Empecemos juntos.',
  it: 'Ciao e benvenuto in Voice Workbench. Cominciamo insieme.',
  'pt-BR': 'Olá e bem-vindo ao Voice Workbench. Vamos começar juntos.',
  ru: 'Здравствуйте и добро пожаловать в Voice Workbench. Давайте начнём.',
  vi: 'Xin chào và chào mừng bạn đến với Voice Workbench.',
};

const zh = 'cmn-latn-pinyin';

// Variants shape the formants (f* female, m* male, klatt* the Klatt synthesiser); rate/pitch/range presets
// give each persona its own pace and liveliness. All of them remain espeak-ng, labelled as such.
const SEEDS: PersonaSeed[] = [
  {
    id: 'espeak-zh-xiaowen',
    name: '晓雯',
    gender: 'female',
    language: 'zh-CN',
    age: 'young',
    styles: ['温柔', '亲切'],
    useCases: ['旁白', '有声书'],
    description: '温柔亲切的年轻女声',
    voice: { voice: zh, variant: 'f2', pitch: 58, range: 60 },
  },
  {
    id: 'espeak-zh-xiaoya',
    name: '晓雅',
    gender: 'female',
    language: 'zh-CN',
    age: 'middle',
    styles: ['知性', '沉稳'],
    useCases: ['新闻', '讲解'],
    description: '知性沉稳的播报女声',
    voice: { voice: zh, variant: 'f4', rate: 180, pitch: 50, range: 45 },
  },
  {
    id: 'espeak-zh-xiaomeng',
    name: '晓萌',
    gender: 'female',
    language: 'zh-CN',
    age: 'young',
    styles: ['活泼', '可爱'],
    useCases: ['短视频', '广告'],
    description: '活泼可爱的少女音',
    voice: { voice: zh, variant: 'f3', rate: 190, pitch: 72, range: 75 },
  },
  {
    id: 'espeak-zh-duoduo',
    name: '朵朵',
    gender: 'female',
    language: 'zh-CN',
    age: 'child',
    styles: ['童声', '天真'],
    useCases: ['儿童故事', '教育'],
    description: '天真的童声',
    voice: { voice: zh, variant: 'f5', rate: 170, pitch: 88, range: 70 },
  },
  {
    id: 'espeak-zh-yunfei',
    name: '云飞',
    gender: 'male',
    language: 'zh-CN',
    age: 'young',
    styles: ['阳光', '清爽'],
    useCases: ['短视频', '解说'],
    description: '阳光清爽的青年男声',
    voice: { voice: zh, variant: 'm3', rate: 185, pitch: 50, range: 55 },
  },
  {
    id: 'espeak-zh-yunze',
    name: '云泽',
    gender: 'male',
    language: 'zh-CN',
    age: 'middle',
    styles: ['浑厚', '沉稳'],
    useCases: ['纪录片', '旁白'],
    description: '浑厚沉稳的纪录片男声',
    voice: { voice: zh, variant: 'm1', rate: 160, pitch: 35, range: 40 },
  },
  {
    id: 'espeak-zh-boyin',
    name: '博音',
    gender: 'male',
    language: 'zh-CN',
    age: 'middle',
    styles: ['正式', '播音'],
    useCases: ['新闻', '公告'],
    description: '字正腔圆的播音男声',
    voice: { voice: zh, variant: 'm7', rate: 175, pitch: 45, range: 50 },
  },
  {
    id: 'espeak-zh-laochen',
    name: '老陈',
    gender: 'male',
    language: 'zh-CN',
    age: 'old',
    styles: ['慈祥', '缓慢'],
    useCases: ['讲故事', '有声书'],
    description: '慢条斯理的长者男声',
    voice: { voice: zh, variant: 'grandpa', rate: 150, pitch: 40, range: 45 },
  },
  {
    id: 'espeak-zh-nainai',
    name: '王奶奶',
    gender: 'female',
    language: 'zh-CN',
    age: 'old',
    styles: ['慈祥', '温暖'],
    useCases: ['讲故事', '儿童故事'],
    description: '温暖慈祥的奶奶音',
    voice: { voice: zh, variant: 'grandma', rate: 150, pitch: 55, range: 50 },
  },
  {
    id: 'espeak-zh-xiaotie',
    name: '小铁',
    gender: 'male',
    language: 'zh-CN',
    age: 'young',
    styles: ['机械', '科幻'],
    useCases: ['游戏', '趣味配音'],
    description: '复古机器人音色',
    voice: { voice: zh, variant: 'klatt3', rate: 170, pitch: 50, range: 10 },
  },
  {
    id: 'espeak-yue-axin',
    name: '阿欣',
    gender: 'female',
    language: 'yue',
    age: 'young',
    styles: ['亲切', '自然'],
    useCases: ['旁白', '短视频'],
    description: '亲切自然的粤语女声',
    voice: { voice: 'yue', variant: 'f2', pitch: 58, range: 60 },
  },
  {
    id: 'espeak-yue-aming',
    name: '阿明',
    gender: 'male',
    language: 'yue',
    age: 'middle',
    styles: ['沉稳'],
    useCases: ['解说', '新闻'],
    description: '沉稳的粤语男声',
    voice: { voice: 'yue', variant: 'm3', pitch: 42, range: 50 },
  },
  {
    id: 'espeak-yue-popo',
    name: '婆婆',
    gender: 'female',
    language: 'yue',
    age: 'old',
    styles: ['慈祥'],
    useCases: ['讲故事'],
    description: '慈祥的粤语长者女声',
    voice: { voice: 'yue', variant: 'grandma', rate: 150, pitch: 55, range: 50 },
  },
  {
    id: 'espeak-en-emma',
    name: '艾玛 Emma',
    gender: 'female',
    language: 'en-US',
    age: 'young',
    styles: ['明快', '友好'],
    useCases: ['教育', '广告'],
    description: '明快友好的美式女声',
    voice: { voice: 'en-us', variant: 'f2', pitch: 58, range: 60 },
  },
  {
    id: 'espeak-en-james',
    name: '詹姆斯 James',
    gender: 'male',
    language: 'en-US',
    age: 'middle',
    styles: ['沉稳', '专业'],
    useCases: ['讲解', '播客'],
    description: '专业沉稳的美式男声',
    voice: { voice: 'en-us', variant: 'm3', rate: 170, pitch: 42, range: 50 },
  },
  {
    id: 'espeak-en-lily',
    name: '莉莉 Lily',
    gender: 'female',
    language: 'en-GB',
    age: 'young',
    styles: ['优雅'],
    useCases: ['有声书', '旁白'],
    description: '优雅的英式女声',
    voice: { voice: 'en', variant: 'f4', pitch: 55, range: 55 },
  },
  {
    id: 'espeak-en-oliver',
    name: '奥利弗 Oliver',
    gender: 'male',
    language: 'en-GB',
    age: 'old',
    styles: ['绅士', '缓慢'],
    useCases: ['讲故事', '纪录片'],
    description: '绅士风度的英式长者男声',
    voice: { voice: 'en', variant: 'm1', rate: 155, pitch: 38, range: 45 },
  },
  {
    id: 'espeak-en-robot',
    name: '机器人 Robo',
    gender: 'male',
    language: 'en-US',
    age: 'young',
    styles: ['机械', '科幻'],
    useCases: ['游戏', '趣味配音'],
    description: '复古合成器机器人',
    voice: { voice: 'en-us', variant: 'klatt', rate: 165, pitch: 50, range: 5 },
  },
  {
    id: 'espeak-ko-jiyeon',
    name: '智妍',
    gender: 'female',
    language: 'ko',
    age: 'young',
    styles: ['温柔'],
    useCases: ['旁白', '教育'],
    description: '温柔的韩语女声',
    voice: { voice: 'ko', variant: 'f2', pitch: 60, range: 60 },
  },
  {
    id: 'espeak-ko-minho',
    name: '敏浩',
    gender: 'male',
    language: 'ko',
    age: 'young',
    styles: ['清爽'],
    useCases: ['解说'],
    description: '清爽的韩语男声',
    voice: { voice: 'ko', variant: 'm3', pitch: 45, range: 50 },
  },
  {
    id: 'espeak-fr-emilie',
    name: '艾米丽 Émilie',
    gender: 'female',
    language: 'fr',
    age: 'young',
    styles: ['优雅'],
    useCases: ['旁白', '教育'],
    description: '优雅的法语女声',
    voice: { voice: 'fr', variant: 'f3', pitch: 58, range: 60 },
  },
  {
    id: 'espeak-fr-louis',
    name: '路易 Louis',
    gender: 'male',
    language: 'fr',
    age: 'middle',
    styles: ['沉稳'],
    useCases: ['讲解'],
    description: '沉稳的法语男声',
    voice: { voice: 'fr', variant: 'm2', pitch: 42, range: 50 },
  },
  {
    id: 'espeak-de-hannah',
    name: '汉娜 Hannah',
    gender: 'female',
    language: 'de',
    age: 'young',
    styles: ['清晰'],
    useCases: ['教育'],
    description: '清晰的德语女声',
    voice: { voice: 'de', variant: 'f2', pitch: 56, range: 55 },
  },
  {
    id: 'espeak-de-lukas',
    name: '卢卡斯 Lukas',
    gender: 'male',
    language: 'de',
    age: 'middle',
    styles: ['严谨'],
    useCases: ['讲解', '新闻'],
    description: '严谨的德语男声',
    voice: { voice: 'de', variant: 'm2', pitch: 40, range: 45 },
  },
  {
    id: 'espeak-es-sofia',
    name: '索菲亚 Sofía',
    gender: 'female',
    language: 'es',
    age: 'young',
    styles: ['热情'],
    useCases: ['广告', '短视频'],
    description: '热情的西班牙语女声',
    voice: { voice: 'es', variant: 'f4', rate: 185, pitch: 60, range: 65 },
  },
  {
    id: 'espeak-es-mateo',
    name: '马特奥 Mateo',
    gender: 'male',
    language: 'es',
    age: 'middle',
    styles: ['沉稳'],
    useCases: ['解说'],
    description: '沉稳的西班牙语男声',
    voice: { voice: 'es', variant: 'm3', pitch: 42, range: 50 },
  },
  {
    id: 'espeak-it-marco',
    name: '马可 Marco',
    gender: 'male',
    language: 'it',
    age: 'middle',
    styles: ['热情'],
    useCases: ['旁白'],
    description: '热情的意大利语男声',
    voice: { voice: 'it', variant: 'm1', pitch: 45, range: 60 },
  },
  {
    id: 'espeak-pt-ana',
    name: '安娜 Ana',
    gender: 'female',
    language: 'pt-BR',
    age: 'young',
    styles: ['明快'],
    useCases: ['广告'],
    description: '明快的巴西葡萄牙语女声',
    voice: { voice: 'pt-br', variant: 'f2', pitch: 58, range: 60 },
  },
  {
    id: 'espeak-ru-anna',
    name: '安娜 Анна',
    gender: 'female',
    language: 'ru',
    age: 'young',
    styles: ['清晰'],
    useCases: ['教育'],
    description: '清晰的俄语女声',
    voice: { voice: 'ru', variant: 'f3', pitch: 56, range: 55 },
  },
  {
    id: 'espeak-vi-lan',
    name: '阿兰 Lan',
    gender: 'female',
    language: 'vi',
    age: 'young',
    styles: ['温柔'],
    useCases: ['旁白'],
    description: '温柔的越南语女声',
    voice: { voice: 'vi', variant: 'f2', pitch: 58, range: 55 },
  },
];

export const ESPEAK_PERSONAS: readonly EspeakPersona[] = SEEDS.map((s) => ({
  ...s,
  engineLabel: STANDARD_ENGINE_LABEL,
  voice: { engine: 'espeak', ...s.voice },
  sample: SAMPLES[s.language],
}));

export function findEspeakPersona(id: string): EspeakPersona | undefined {
  return ESPEAK_PERSONAS.find((p) => p.id === id);
}
