import { ESPEAK_PERSONAS } from '@vw/engines';
import type { Kysely } from 'kysely';

/**
 * Honest voice cards (issue 30): the built-in espeak-ng voices were described as 「字正腔圆的播音男声」,
 * 「纪录片男声」 … The seed now says what each is — the standard engine, machine-like, with its pitch and
 * pace — and this brings rows seeded before it up to date. A description an operator has changed since
 * (no longer the old seed text) is left alone.
 */
const OLD_DESCRIPTIONS: Array<[string, string]> = [
  ['espeak-zh-xiaowen', '温柔亲切的年轻女声'],
  ['espeak-zh-xiaoya', '知性沉稳的播报女声'],
  ['espeak-zh-xiaomeng', '活泼可爱的少女音'],
  ['espeak-zh-duoduo', '天真的童声'],
  ['espeak-zh-yunfei', '阳光清爽的青年男声'],
  ['espeak-zh-yunze', '浑厚沉稳的纪录片男声'],
  ['espeak-zh-boyin', '字正腔圆的播音男声'],
  ['espeak-zh-laochen', '慢条斯理的长者男声'],
  ['espeak-zh-nainai', '温暖慈祥的奶奶音'],
  ['espeak-zh-xiaotie', '复古机器人音色'],
  ['espeak-yue-axin', '亲切自然的粤语女声'],
  ['espeak-yue-aming', '沉稳的粤语男声'],
  ['espeak-yue-popo', '慈祥的粤语长者女声'],
  ['espeak-en-emma', '明快友好的美式女声'],
  ['espeak-en-james', '专业沉稳的美式男声'],
  ['espeak-en-lily', '优雅的英式女声'],
  ['espeak-en-oliver', '绅士风度的英式长者男声'],
  ['espeak-en-robot', '复古合成器机器人'],
  ['espeak-ko-jiyeon', '温柔的韩语女声'],
  ['espeak-ko-minho', '清爽的韩语男声'],
  ['espeak-fr-emilie', '优雅的法语女声'],
  ['espeak-fr-louis', '沉稳的法语男声'],
  ['espeak-de-hannah', '清晰的德语女声'],
  ['espeak-de-lukas', '严谨的德语男声'],
  ['espeak-es-sofia', '热情的西班牙语女声'],
  ['espeak-es-mateo', '沉稳的西班牙语男声'],
  ['espeak-it-marco', '热情的意大利语男声'],
  ['espeak-pt-ana', '明快的巴西葡萄牙语女声'],
  ['espeak-ru-anna', '清晰的俄语女声'],
  ['espeak-vi-lan', '温柔的越南语女声'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const k = db as Kysely<{
    voices: { voice_id: string; owner_id: string | null; description: string; style: string };
  }>;
  for (const [voiceId, old] of OLD_DESCRIPTIONS) {
    const persona = ESPEAK_PERSONAS.find((p) => p.id === voiceId);
    if (!persona) continue;
    await k
      .updateTable('voices')
      .set({ description: persona.description, style: persona.styles.join(',') })
      .where('voice_id', '=', voiceId)
      .where('owner_id', 'is', null)
      .where('description', '=', old)
      .execute();
  }
}

export async function down(): Promise<void> {
  // The old descriptions were not true; nothing to restore.
}
