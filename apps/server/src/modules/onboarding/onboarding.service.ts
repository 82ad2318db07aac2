import {
  ErrorCode,
  type Question,
  QuestionnaireStatus,
  SELECT_TYPE_MULTIPLE,
  TRIAL_DAYS,
} from '@vw/contract';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { withCreditAccount } from '../credits/ledger.service.ts';
import { isPaid } from '../credits/membership.rules.ts';
import { applyMembership } from '../credits/membership.service.ts';
import { getSetting } from '../settings/settings.service.ts';
import {
  findQuestions,
  findResponses,
  insertResponse,
  replaceQuestions,
  switchQuestionnaireStatus,
} from './onboarding.repo.ts';

export interface Answer {
  id: number;
  answer: { id: number }[];
}

export const getQuestionnaire = (ctx: AppContext) => findQuestions(ctx.db);

/**
 * Checks the answers against the questionnaire in force. Answers to questions or options that are
 * not (or no longer) in it → 4001 (the client closes the survey without reward and shows the current
 * one next time); malformed answers → err_invalid_param.
 */
export function checkAnswers(questions: Question[], answers: Answer[]): Answer[] {
  if (questions.length === 0) throw AppError.code(ErrorCode.SurveyNotAvailable);
  const byId = new Map(questions.map((q) => [q.id, q]));
  const seen = new Set<number>();
  for (const a of answers) {
    const q = byId.get(a.id);
    if (!q) throw AppError.code(ErrorCode.SurveyNotAvailable);
    if (seen.has(a.id)) throw AppError.named('err_invalid_param', `问题 ${a.id} 重复作答`);
    seen.add(a.id);
    const optionIds = new Set(q.question_options.map((o) => o.id));
    const picked = new Set(a.answer.map((o) => o.id));
    if (picked.size !== a.answer.length) throw AppError.named('err_invalid_param', `问题 ${a.id} 选项重复`);
    for (const id of picked) if (!optionIds.has(id)) throw AppError.code(ErrorCode.SurveyNotAvailable);
    if (q.select_type !== SELECT_TYPE_MULTIPLE && picked.size > 1)
      throw AppError.named('err_invalid_param', `问题 ${a.id} 为单选题`);
  }
  const answered = answers.filter((a) => a.answer.length > 0);
  if (answered.length === 0) throw AppError.named('err_invalid_param', '请至少回答一个问题');
  return answered;
}

/**
 * Records the user's answers and grants the 3-day membership trial (spec §4 onboarding). The status
 * switch (pending → done) is a compare-and-set inside the credit account's transaction, so two
 * submissions at once grant the trial exactly once; the second answers 1002. A user who already has
 * a paid plan keeps it: the answers are recorded, no trial.
 */
export async function submitQuestionnaire(
  ctx: AppContext,
  userId: string,
  answers: Answer[],
): Promise<{ trial_granted: boolean; trial_expire_time: number }> {
  const answered = checkAnswers(await findQuestions(ctx.db), answers);
  const trialLevel = await getSetting(ctx, 'questionnaire_trial_level');
  return withCreditAccount(ctx, userId, async (account) => {
    const { tx, now } = account;
    const switched = await switchQuestionnaireStatus(
      tx,
      userId,
      QuestionnaireStatus.Pending,
      QuestionnaireStatus.Done,
      now,
    );
    if (!switched) throw AppError.code(ErrorCode.SurveyAlreadySubmitted);
    const grant = !isPaid(account.account, now);
    const plan = grant
      ? await applyMembership(account, { userId, level: trialLevel, isAnnual: false, days: TRIAL_DAYS })
      : null;
    await insertResponse(tx, {
      user_id: userId,
      answers: JSON.stringify(answered),
      trial_granted: grant ? 1 : 0,
      created_at: now,
    });
    return {
      trial_granted: grant,
      trial_expire_time: plan?.expires_at ? Math.floor(plan.expires_at / 1000) : 0,
    };
  });
}

// ——— Operator ———

const questionnaireFile = z
  .array(
    z.object({
      id: z.number().int().positive(),
      question_content: z.string().trim().min(1).max(200),
      select_type: z.union([z.literal(1), z.literal(2)]),
      question_options: z
        .array(
          z.object({
            id: z.number().int().positive(),
            content: z.string().trim().min(1).max(100),
            icon: z.string().max(500).optional(),
          }),
        )
        .min(2)
        .max(20),
    }),
  )
  .max(20);

/** Replaces the questionnaire from operator JSON (same shape as the get call's data.questionnaire). */
export async function setQuestionnaire(ctx: AppContext, input: unknown): Promise<Question[]> {
  const parsed = questionnaireFile.safeParse(input);
  if (!parsed.success) throw new Error(`invalid questionnaire: ${z.prettifyError(parsed.error)}`);
  const questions = parsed.data;
  const qIds = new Set(questions.map((q) => q.id));
  if (qIds.size !== questions.length) throw new Error('question ids must be unique');
  const optionIds = questions.flatMap((q) => q.question_options.map((o) => o.id));
  if (new Set(optionIds).size !== optionIds.length)
    throw new Error('option ids must be unique across questions');
  await inTransaction(ctx.db, ctx.dbKind, (tx) => replaceQuestions(tx, questions, ctx.clock.now()));
  return questions;
}

/** Answers per option, for the operator. */
export async function summarizeResponses(ctx: AppContext) {
  const rows = await findResponses(ctx.db);
  const counts = new Map<number, number>();
  for (const row of rows) {
    for (const a of JSON.parse(row.answers) as Answer[]) {
      for (const o of a.answer) counts.set(o.id, (counts.get(o.id) ?? 0) + 1);
    }
  }
  return { responses: rows.length, trials: rows.filter((r) => r.trial_granted === 1).length, counts };
}
