import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Opaque, unguessable ids; the prefix tells what a row is when it appears in a log. */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}

/**
 * Like newId, but ids made later sort later (48-bit millisecond time, then 80 random bits): rows
 * written in bulk (the credit ledger, holds) then append to their primary-key index instead of
 * touching a random page of it on every insert, which keeps each commit's page writes small.
 */
export function newOrderedId(prefix: string): string {
  // randomUUID draws from a pooled buffer (randomBytes would make a system call per id); its first
  // 8 and last 12 hex digits are random.
  const uuid = randomUUID();
  return `${prefix}_${Date.now().toString(16).padStart(12, '0')}${uuid.slice(0, 8)}${uuid.slice(24)}`;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}
