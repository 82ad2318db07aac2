import { type CharacterReading, type DictionaryEntry, isPinyin, MAX_DICTIONARY_ENTRIES } from '@vw/contract';
import { mandarinReadings, normalizeText, type PronunciationDictionary } from '@vw/engines';
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

export async function upsertDictionaryEntry(
  ctx: Ctx,
  userId: string,
  input: { word: string; pinyin: string },
): Promise<DictionaryEntry> {
  const pinyin = input.pinyin.trim().toLowerCase().replace(/\s+/g, ' ');
  const chars = [...input.word];
  if (!isPinyin(pinyin) || !/^\p{Script=Han}+$/u.test(input.word)) {
    throw AppError.named('err_invalid_param', '请输入汉字词语和带声调数字的拼音，如 银行 → yin2 hang2');
  }
  if (pinyin.split(' ').length !== chars.length) {
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

/** How the text's numbers, dates, units and Latin words are read (the view shows them to correct). */
export function spokenReadings(text: string) {
  return normalizeText(text).spans.map((s) => ({ ...s, spoken: s.spoken.trim() }));
}
