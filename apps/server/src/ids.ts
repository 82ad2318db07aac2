import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Opaque, unguessable ids; the prefix tells what a row is when it appears in a log. */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}
