import { EMAIL_RE, PHONE_RE } from './api.ts';

export const isPhone = (v: string) => PHONE_RE.test(v.trim());
export const isEmail = (v: string) => EMAIL_RE.test(v.trim());
export const isAccount = (v: string) => isPhone(v) || isEmail(v);
export const isCode = (v: string) => /^\d{6}$/.test(v.trim());
/** Server rule (err_password_too_weak): 8-64 characters with both letters and digits. */
export const isStrongPassword = (v: string) =>
  v.length >= 8 && v.length <= 64 && /[A-Za-z]/.test(v) && /\d/.test(v);

/** Which form field a named account error belongs to, for inline display. */
export function fieldOfError(type: string | undefined): 'account' | 'code' | 'password' | null {
  if (!type) return null;
  if (type.startsWith('err_verification_code')) return 'code';
  if (type.startsWith('err_password')) return 'password';
  if (
    type === 'err_account_invalid' ||
    type === 'err_account_refused' ||
    type === 'err_user_not_fount' ||
    type === 'err_account_already_bound'
  )
    return 'account';
  return null;
}
