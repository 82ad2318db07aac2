import { PHONE_RE } from '@vw/contract';
import type { AccountKey } from './accounts.repo.ts';

/** Normalises a phone (drops +86) or an e-mail (lower case) into the column that stores it. */
export function toAccountKey(account: string): AccountKey {
  const trimmed = account.trim();
  if (PHONE_RE.test(trimmed)) return { column: 'phone', value: trimmed.replace(/^\+?86/, '') };
  return { column: 'email', value: trimmed.toLowerCase() };
}
