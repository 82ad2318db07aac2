import type { Db } from '../../db/database.ts';
import type { ChapterRow, CharacterRow, ParagraphRow, WorkRow } from './audiobook.schema.ts';

export async function insertWork(
  db: Db,
  work: WorkRow,
  chapters: ChapterRow[],
  paragraphs: ParagraphRow[],
  characters: CharacterRow[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('audiobook_works').values(work).execute();
    for (let i = 0; i < chapters.length; i += 200)
      await trx
        .insertInto('audiobook_chapters')
        .values(chapters.slice(i, i + 200))
        .execute();
    // Postgres allows 65535 parameters a statement: 16 columns × 500 rows stays far below.
    for (let i = 0; i < paragraphs.length; i += 500)
      await trx
        .insertInto('audiobook_paragraphs')
        .values(paragraphs.slice(i, i + 500))
        .execute();
    for (let i = 0; i < characters.length; i += 500)
      await trx
        .insertInto('audiobook_characters')
        .values(characters.slice(i, i + 500))
        .execute();
  });
}

export function findWorkOfOwner(db: Db, ownerId: string, workId: string): Promise<WorkRow | undefined> {
  return db
    .selectFrom('audiobook_works')
    .selectAll()
    .where('id', '=', workId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

export async function findWorksOfOwner(
  db: Db,
  ownerId: string,
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: WorkRow[] }> {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('audiobook_works')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('audiobook_works')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
  ]);
  return { total: Number(count.n), rows };
}

export async function updateWork(db: Db, workId: string, patch: Partial<WorkRow>): Promise<void> {
  await db.updateTable('audiobook_works').set(patch).where('id', '=', workId).execute();
}

export function findChapters(db: Db, workId: string): Promise<ChapterRow[]> {
  return db
    .selectFrom('audiobook_chapters')
    .selectAll()
    .where('work_id', '=', workId)
    .orderBy('seq')
    .execute();
}

export function findCharacters(db: Db, workId: string): Promise<CharacterRow[]> {
  return db
    .selectFrom('audiobook_characters')
    .selectAll()
    .where('work_id', '=', workId)
    .orderBy('lines', 'desc')
    .orderBy('name')
    .execute();
}

/** Paragraphs of the work (or of some chapters), in chapter then paragraph order. */
export function findParagraphs(db: Db, workId: string, chapterIds?: string[]): Promise<ParagraphRow[]> {
  let q = db.selectFrom('audiobook_paragraphs').selectAll().where('work_id', '=', workId);
  if (chapterIds) {
    if (chapterIds.length === 0) return Promise.resolve([]);
    q = q.where('chapter_id', 'in', chapterIds);
  }
  return q.orderBy('chapter_id').orderBy('seq').execute();
}

export function findParagraph(
  db: Db,
  workId: string,
  paragraphId: string,
): Promise<ParagraphRow | undefined> {
  return db
    .selectFrom('audiobook_paragraphs')
    .selectAll()
    .where('work_id', '=', workId)
    .where('id', '=', paragraphId)
    .executeTakeFirst();
}

export async function updateParagraph(
  db: Db,
  paragraphId: string,
  patch: Partial<ParagraphRow>,
): Promise<void> {
  await db.updateTable('audiobook_paragraphs').set(patch).where('id', '=', paragraphId).execute();
}

/** Stores new audio only when the text is still the one synthesised (an edit meanwhile keeps it stale). */
export async function setParagraphAudio(
  db: Db,
  paragraphId: string,
  textRev: number,
  patch: Pick<ParagraphRow, 'audio_key' | 'audio_rev' | 'takes' | 'duration_ms' | 'check_status'>,
): Promise<boolean> {
  const r = await db
    .updateTable('audiobook_paragraphs')
    .set({ ...patch, stale: 0 })
    .where('id', '=', paragraphId)
    .where('text_rev', '=', textRev)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function updateChapter(db: Db, chapterId: string, patch: Partial<ChapterRow>): Promise<void> {
  await db.updateTable('audiobook_chapters').set(patch).where('id', '=', chapterId).execute();
}

export async function updateCharacter(db: Db, characterId: string, voiceId: string | null): Promise<void> {
  await db
    .updateTable('audiobook_characters')
    .set({ voice_id: voiceId })
    .where('id', '=', characterId)
    .execute();
}

/** Merges chapter `from` into `into` (paragraphs renumbered after `into`'s last), then removes `from`. */
export async function mergeChapters(
  db: Db,
  into: ChapterRow,
  from: ChapterRow,
  offset: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('audiobook_paragraphs')
      .set((eb) => ({ chapter_id: into.id, seq: eb('seq', '+', offset) }))
      .where('chapter_id', '=', from.id)
      .execute();
    await trx
      .updateTable('audiobook_chapters')
      .set({ duration_ms: into.duration_ms + from.duration_ms })
      .where('id', '=', into.id)
      .execute();
    await trx.deleteFrom('audiobook_chapters').where('id', '=', from.id).execute();
  });
}

/** A new chapter after `chapter` holding its paragraphs from `fromSeq` on. */
export async function splitChapter(
  db: Db,
  chapter: ChapterRow,
  fromSeq: number,
  created: ChapterRow,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('audiobook_chapters')
      .set((eb) => ({ seq: eb('seq', '+', 1) }))
      .where('work_id', '=', chapter.work_id)
      .where('seq', '>', chapter.seq)
      .execute();
    await trx.insertInto('audiobook_chapters').values(created).execute();
    await trx
      .updateTable('audiobook_paragraphs')
      .set({ chapter_id: created.id })
      .where('chapter_id', '=', chapter.id)
      .where('seq', '>=', fromSeq)
      .execute();
  });
}

export async function deleteWorkRows(db: Db, ownerId: string, workId: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .deleteFrom('audiobook_works')
      .where('id', '=', workId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) return 0;
    for (const t of ['audiobook_paragraphs', 'audiobook_chapters', 'audiobook_characters'] as const)
      await trx.deleteFrom(t).where('work_id', '=', workId).execute();
    return 1;
  });
}
