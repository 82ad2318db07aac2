import type { UserInfo } from '@vw/contract';
import { maskPhone } from '@vw/contract/helpers/mask.ts';

/** Colours for the initial placeholder; chosen by a stable hash so a user keeps theirs. */
export const AVATAR_COLORS = [
  '#4f46e5',
  '#7c3aed',
  '#db2777',
  '#ea580c',
  '#0891b2',
  '#059669',
  '#2563eb',
  '#c026d3',
];

export function avatarColor(seed: string): string {
  let h = 0;
  for (const ch of seed) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return AVATAR_COLORS[h % AVATAR_COLORS.length];
}

/** The first visible character of a name, upper-cased; '?' for nothing. */
export function avatarInitial(name: string | undefined | null): string {
  const trimmed = (name ?? '').trim();
  if (!trimmed) return '?';
  const first = Array.from(trimmed)[0];
  return first.toUpperCase();
}

/** Sidebar name (spec §2): nickname, else the phone masked to first 3 + last 4, else the e-mail. */
export function displayName(user: Pick<UserInfo, 'nickname' | 'phone' | 'email'> | null | undefined): string {
  if (!user) return '';
  if (user.nickname?.trim()) return user.nickname.trim();
  if (user.phone) return maskPhone(user.phone);
  return user.email || '';
}
