import type { Question } from '@vw/contract';
import type { Db } from '../../db/database.ts';
import './onboarding.schema.ts';

export async function findQuestions(db: Db): Promise<Question[]> {
  const rows = await db.selectFrom('questionnaire_questions').selectAll().orderBy('position').execute();
  return rows.map((r) => ({
    id: Number(r.id),
    question_content: r.question_content,
    select_type: Number(r.select_type),
    question_options: JSON.parse(r.options) as Question['question_options'],
  }));
}

/** Replaces the whole questionnaire (caller runs it in a transaction). */
export async function replaceQuestions(db: Db, questions: Question[], now: number): Promise<void> {
  await db.deleteFrom('questionnaire_questions').execute();
  if (questions.length === 0) return;
  await db
    .insertInto('questionnaire_questions')
    .values(
      questions.map((q, position) => ({
        id: q.id,
        position,
        question_content: q.question_content,
        select_type: q.select_type,
        options: JSON.stringify(q.question_options),
        updated_at: now,
      })),
    )
    .execute();
}

/** Moves the user's questionnaire status from `from` to `to`; false when it was not `from` (compare-and-set). */
export async function switchQuestionnaireStatus(
  db: Db,
  userId: string,
  from: number,
  to: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ questionnaire_status: to, updated_at: now })
    .where('id', '=', userId)
    .where('questionnaire_status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertResponse(
  db: Db,
  row: { user_id: string; answers: string; trial_granted: number; created_at: number },
): Promise<void> {
  await db.insertInto('questionnaire_responses').values(row).execute();
}

/** How often each option was chosen (operator summary). */
export async function findResponses(db: Db) {
  return db.selectFrom('questionnaire_responses').select(['answers', 'trial_granted']).execute();
}
