import { type CharacterReading, type DictionaryEntry, isPinyin, MAX_DICTIONARY_ENTRIES } from '@vw/contract';
import {
  mandarinReadings,
  normalizeText,
  type PronunciationDictionary,
  preparePolyphones,
} from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';

type Ctx = Pick<AppContext, 'db' | 'clock'>;

export async function findDictionary(ctx: Ctx, userId: string): Promise<DictionaryEntry[]> {
  const rows = await ctx.db
    .selectFrom('pronunciation_entries')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .execute();
  return rows.map((r) => ({ word: r.word, pinyin: r.pinyin, updated_time: Math.floor(r.updated_at / 1000) }));
}

/** The user's dictionary as the engines take it. */
export async function getDictionary(ctx: Ctx, userId: string): Promise<PronunciationDictionary> {
  const rows = await ctx.db
    .selectFrom('pronunciation_entries')
    .select(['word', 'pinyin'])
    .where('user_id', '=', userId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.word, r.pinyin]));
}

/** Only the entries a text uses: they go into the cache key and the stored synthesis plan. */
export function entriesUsedBy(dictionary: PronunciationDictionary, text: string): PronunciationDictionary {
  return Object.fromEntries(Object.entries(dictionary).filter(([word]) => text.includes(word)));
}

/** A Latin word of the dictionary (REDtech, AI): its entry says how any Chinese voice reads it. */
const LATIN_WORD = /^[A-Za-z][A-Za-z'’-]*$/;

/**
 * The entries a synthesis plan carries: all those the text uses for a voice that takes pinyin,
 * the Latin words' readings for every other voice (the normaliser applies them).
 */
export function planDictionary(
  dictionary: PronunciationDictionary,
  text: string,
  inlinePinyin: boolean,
): PronunciationDictionary {
  const used = entriesUsedBy(dictionary, text);
  return inlinePinyin ? used : Object.fromEntries(Object.entries(used).filter(([w]) => LATIN_WORD.test(w)));
}

export async function upsertDictionaryEntry(
  ctx: Ctx,
  userId: string,
  input: { word: string; pinyin: string },
): Promise<DictionaryEntry> {
  const latin = LATIN_WORD.test(input.word);
  // A Latin word's reading is what is said, as typed: letters apart are spelled (A I), words read (red tech).
  const pinyin = latin
    ? input.pinyin.trim().replace(/\s+/g, ' ')
    : input.pinyin.trim().toLowerCase().replace(/\s+/g, ' ');
  const chars = [...input.word];
  if (latin) {
    if (!/^[A-Za-z][A-Za-z' -]*$/.test(pinyin)) {
      throw AppError.named(
        'err_invalid_param',
        '外文词的读法请用字母或英文单词，如 AI → A I（逐个字母读）或 ai（读作一个词）',
      );
    }
  } else if (!isPinyin(pinyin) || !/^\p{Script=Han}+$/u.test(input.word)) {
    throw AppError.named('err_invalid_param', '请输入汉字词语和带声调数字的拼音，如 银行 → yin2 hang2');
  } else if (pinyin.split(' ').length !== chars.length) {
    throw AppError.named('err_invalid_param', '拼音音节数应与字数相同');
  }
  const now = ctx.clock.now();
  const exists = await ctx.db
    .selectFrom('pronunciation_entries')
    .select('word')
    .where('user_id', '=', userId)
    .where('word', '=', input.word)
    .executeTakeFirst();
  if (!exists) {
    const { n } = await ctx.db
      .selectFrom('pronunciation_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_DICTIONARY_ENTRIES) {
      throw AppError.named('err_invalid_param', `词典最多 ${MAX_DICTIONARY_ENTRIES} 条`);
    }
  }
  await ctx.db
    .insertInto('pronunciation_entries')
    .values({ user_id: userId, word: input.word, pinyin, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'word']).doUpdateSet({ pinyin, updated_at: now }))
    .execute();
  return { word: input.word, pinyin, updated_time: Math.floor(now / 1000) };
}

export async function deleteDictionaryEntry(ctx: Ctx, userId: string, word: string): Promise<number> {
  const res = await ctx.db
    .deleteFrom('pronunciation_entries')
    .where('user_id', '=', userId)
    .where('word', '=', word)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Every Chinese character's reading (the user's dictionary applied) and its alternatives. */
export async function findReadings(ctx: Ctx, userId: string, text: string): Promise<CharacterReading[]> {
  const dictionary = entriesUsedBy(await getDictionary(ctx, userId), text);
  await preparePolyphones(text);
  const plain = mandarinReadings(text);
  const base = new Map(plain.map((r) => [r.start, r.pinyin]));
  return mandarinReadings(text, dictionary).map((r) => ({
    text: r.text,
    start: r.start,
    end: r.end,
    pinyin: r.pinyin,
    candidates: r.candidates.includes(r.pinyin) ? r.candidates : [r.pinyin, ...r.candidates],
    from_dictionary: Object.keys(dictionary).length > 0 && base.get(r.start) !== r.pinyin,
  }));
}

/** How the text's numbers, dates, units and Latin words are read, the user's words applied (the view shows them to correct). */
export async function spokenReadings(ctx: Ctx, userId: string, text: string) {
  const words = planDictionary(await getDictionary(ctx, userId), text, false);
  return normalizeText(text, { words }).spans.map((s) => ({ ...s, spoken: s.spoken.trim() }));
}
