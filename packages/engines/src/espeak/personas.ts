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

type Language = EspeakPersona['language'];

const SAMPLES: Record<Language, string> = {
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

type Tone = Pick<EspeakVoice, 'variant' | 'rate' | 'pitch' | 'range'>;

const AGE_NAMES: Record<PersonaAge, string> = { child: '儿童', young: '青年', middle: '中年', old: '老年' };

/**
 * What a persona sounds like, said plainly: every one is espeak-ng formant synthesis (machine-like, not
 * a recorded or neural voice), and its tags name only what its settings do — pitch, pace, intonation.
 */
export function describeTone(
  language: Language,
  gender: PersonaGender,
  age: PersonaAge,
  tone: Tone,
): { description: string; styles: string[] } {
  const pitch = tone.pitch ?? 50;
  const rate = tone.rate ?? 175;
  const range = tone.range ?? 50;
  const styles = [
    pitch <= 40 ? '音调低' : pitch <= 54 ? '音调中等' : pitch <= 75 ? '音调偏高' : '音调很高',
    rate < 160 ? '语速慢' : rate <= 180 ? '语速中等' : '语速偏快',
  ];
  if (range <= 15) styles.push('几乎没有抑扬');
  else if (range <= 45) styles.push('抑扬较少');
  const who = age === 'child' ? '童声' : `${AGE_NAMES[age]}${gender === 'female' ? '女声' : '男声'}`;
  const lang = language === 'zh-CN' ? '' : ESPEAK_LANGUAGES.find((l) => l.code === language)!.name;
  return {
    description: `标准引擎合成的${lang}${who}，机器感明显：${styles.join('、')}。`,
    styles,
  };
}

/**
 * One persona in three lines: who it is (id `espeak-<language prefix>-<key>`), what it may be used for,
 * how it is set; the description, the tags, the espeak voice and the preview line follow from those.
 */
function persona(language: Language, key: string, name: string, gender: PersonaGender, age: PersonaAge) {
  return {
    suits: (useCases: string[]) => ({
      sounds: (tone: Tone): EspeakPersona => ({
        id: `espeak-${language.split('-')[0].toLowerCase()}-${key}`,
        name,
        gender,
        language,
        age,
        ...describeTone(language, gender, age, tone),
        useCases,
        voice: {
          engine: 'espeak',
          voice: ESPEAK_LANGUAGES.find((l) => l.code === language)!.voice,
          ...tone,
        },
        engineLabel: STANDARD_ENGINE_LABEL,
        sample: SAMPLES[language],
      }),
    }),
  };
}

// Variants shape the formants (f* female, m* male, klatt* the Klatt synthesiser); rate/pitch/range presets
// give each persona its own pitch and pace. All of them remain espeak-ng, described and labelled as such.
// The order is the catalogue's display order.
export const ESPEAK_PERSONAS: readonly EspeakPersona[] = [
  persona('zh-CN', 'xiaowen', '晓雯', 'female', 'young')
    .suits(['旁白', '有声书'])
    .sounds({ variant: 'f2', pitch: 58, range: 60 }),
  persona('zh-CN', 'xiaoya', '晓雅', 'female', 'middle')
    .suits(['新闻', '讲解'])
    .sounds({ variant: 'f4', rate: 180, pitch: 50, range: 45 }),
  persona('zh-CN', 'xiaomeng', '晓萌', 'female', 'young')
    .suits(['短视频', '广告'])
    .sounds({ variant: 'f3', rate: 190, pitch: 72, range: 75 }),
  persona('zh-CN', 'duoduo', '朵朵', 'female', 'child')
    .suits(['儿童故事', '教育'])
    .sounds({ variant: 'f5', rate: 170, pitch: 88, range: 70 }),
  persona('zh-CN', 'yunfei', '云飞', 'male', 'young')
    .suits(['短视频', '解说'])
    .sounds({ variant: 'm3', rate: 185, pitch: 50, range: 55 }),
  persona('zh-CN', 'yunze', '云泽', 'male', 'middle')
    .suits(['旁白', '讲解'])
    .sounds({ variant: 'm1', rate: 160, pitch: 35, range: 40 }),
  persona('zh-CN', 'boyin', '博音', 'male', 'middle')
    .suits(['新闻', '公告'])
    .sounds({ variant: 'm7', rate: 175, pitch: 45, range: 50 }),
  persona('zh-CN', 'laochen', '老陈', 'male', 'old')
    .suits(['讲故事', '有声书'])
    .sounds({ variant: 'grandpa', rate: 150, pitch: 40, range: 45 }),
  persona('zh-CN', 'nainai', '王奶奶', 'female', 'old')
    .suits(['讲故事', '儿童故事'])
    .sounds({ variant: 'grandma', rate: 150, pitch: 55, range: 50 }),
  persona('zh-CN', 'xiaotie', '小铁', 'male', 'young')
    .suits(['游戏', '趣味配音'])
    .sounds({ variant: 'klatt3', rate: 170, pitch: 50, range: 10 }),
  persona('yue', 'axin', '阿欣', 'female', 'young')
    .suits(['旁白', '短视频'])
    .sounds({ variant: 'f2', pitch: 58, range: 60 }),
  persona('yue', 'aming', '阿明', 'male', 'middle')
    .suits(['解说', '新闻'])
    .sounds({ variant: 'm3', pitch: 42, range: 50 }),
  persona('yue', 'popo', '婆婆', 'female', 'old')
    .suits(['讲故事'])
    .sounds({ variant: 'grandma', rate: 150, pitch: 55, range: 50 }),
  persona('en-US', 'emma', '艾玛 Emma', 'female', 'young')
    .suits(['教育', '广告'])
    .sounds({ variant: 'f2', pitch: 58, range: 60 }),
  persona('en-US', 'james', '詹姆斯 James', 'male', 'middle')
    .suits(['讲解', '播客'])
    .sounds({ variant: 'm3', rate: 170, pitch: 42, range: 50 }),
  persona('en-GB', 'lily', '莉莉 Lily', 'female', 'young')
    .suits(['有声书', '旁白'])
    .sounds({ variant: 'f4', pitch: 55, range: 55 }),
  persona('en-GB', 'oliver', '奥利弗 Oliver', 'male', 'old')
    .suits(['讲故事'])
    .sounds({ variant: 'm1', rate: 155, pitch: 38, range: 45 }),
  persona('en-US', 'robot', '机器人 Robo', 'male', 'young')
    .suits(['游戏', '趣味配音'])
    .sounds({ variant: 'klatt', rate: 165, pitch: 50, range: 5 }),
  persona('ko', 'jiyeon', '智妍', 'female', 'young')
    .suits(['旁白', '教育'])
    .sounds({ variant: 'f2', pitch: 60, range: 60 }),
  persona('ko', 'minho', '敏浩', 'male', 'young')
    .suits(['解说'])
    .sounds({ variant: 'm3', pitch: 45, range: 50 }),
  persona('fr', 'emilie', '艾米丽 Émilie', 'female', 'young')
    .suits(['旁白', '教育'])
    .sounds({ variant: 'f3', pitch: 58, range: 60 }),
  persona('fr', 'louis', '路易 Louis', 'male', 'middle')
    .suits(['讲解'])
    .sounds({ variant: 'm2', pitch: 42, range: 50 }),
  persona('de', 'hannah', '汉娜 Hannah', 'female', 'young')
    .suits(['教育'])
    .sounds({ variant: 'f2', pitch: 56, range: 55 }),
  persona('de', 'lukas', '卢卡斯 Lukas', 'male', 'middle')
    .suits(['讲解', '新闻'])
    .sounds({ variant: 'm2', pitch: 40, range: 45 }),
  persona('es', 'sofia', '索菲亚 Sofía', 'female', 'young')
    .suits(['广告', '短视频'])
    .sounds({ variant: 'f4', rate: 185, pitch: 60, range: 65 }),
  persona('es', 'mateo', '马特奥 Mateo', 'male', 'middle')
    .suits(['解说'])
    .sounds({ variant: 'm3', pitch: 42, range: 50 }),
  persona('it', 'marco', '马可 Marco', 'male', 'middle')
    .suits(['旁白'])
    .sounds({ variant: 'm1', pitch: 45, range: 60 }),
  persona('pt-BR', 'ana', '安娜 Ana', 'female', 'young')
    .suits(['广告'])
    .sounds({ variant: 'f2', pitch: 58, range: 60 }),
  persona('ru', 'anna', '安娜 Анна', 'female', 'young')
    .suits(['教育'])
    .sounds({ variant: 'f3', pitch: 56, range: 55 }),
  persona('vi', 'lan', '阿兰 Lan', 'female', 'young')
    .suits(['旁白'])
    .sounds({ variant: 'f2', pitch: 58, range: 55 }),
];
