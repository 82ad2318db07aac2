import { clientMessages, codeMessages, ErrorCode } from '@vw/contract/errors.ts';
import { REDEEM_CODE_LENGTH } from '@/lib/credits.ts';
import { isApiError } from '@/lib/http/errors.ts';

/** Spec §5: the code is stripped to letters and digits and cut at 16 characters. */
export function sanitizeRedeemCode(input: string): string {
  return input.replace(/[^A-Za-z0-9]/g, '').slice(0, REDEEM_CODE_LENGTH);
}

/** The button 立即兑换 is enabled only for exactly 16 characters. */
export function isRedeemCodeComplete(code: string): boolean {
  return code.length === REDEEM_CODE_LENGTH;
}

/** How a failed redemption is shown (spec §8, redeem): under the input, or as a toast. */
export type RedeemFailure = { where: 'inline' | 'toast'; text: string };

const INLINE: Record<number, string> = {
  [ErrorCode.RedeemCodeInvalid]: codeMessages[ErrorCode.RedeemCodeInvalid],
  [ErrorCode.RedeemCodeUsed]: codeMessages[ErrorCode.RedeemCodeUsed],
  [ErrorCode.RedeemCodeExpired]: codeMessages[ErrorCode.RedeemCodeExpired],
  [ErrorCode.PlanBelowCurrentLevel]: clientMessages.redeemLowerPlan,
};
const TOAST: Record<number, string> = {
  [ErrorCode.RedeemTooFrequent]: codeMessages[ErrorCode.RedeemTooFrequent],
  [ErrorCode.AnnualMemberCannotBuyMonthly]: codeMessages[ErrorCode.AnnualMemberCannotBuyMonthly],
};

/**
 * 5000/5001/5002/2000 inline; 5003/2004 toast; other codes toast the server message or
 * 兑换失败，请稍后再试; a network failure (or anything unexpected) toasts 兑换失败，请稍后再试.
 */
export function redeemFailure(error: unknown): RedeemFailure {
  if (!isApiError(error) || error.kind === 'network' || error.code < 0)
    return { where: 'toast', text: clientMessages.redeemFailed };
  if (error.code in INLINE) return { where: 'inline', text: INLINE[error.code] };
  if (error.code in TOAST) return { where: 'toast', text: TOAST[error.code] };
  return { where: 'toast', text: error.serverMessage || clientMessages.redeemFailed };
}
