import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  API_KEY_CHECKSUM_LENGTH,
  API_KEY_LENGTH,
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
} from '@vw/contract/constants/apikeys.ts';
import { sha256Hex } from '../../ids.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE62 = /^[0-9A-Za-z]+$/;

/** Uniform base62 characters (rejection sampling: bytes ≥ 248 would bias the first 8 letters). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

function base62(n: number, width: number): string {
  let s = '';
  let v = n;
  do {
    s = ALPHABET[v % 62] + s;
    v = Math.floor(v / 62);
  } while (v > 0);
  return s.padStart(width, '0');
}

function checksum(random: string): string {
  return base62(crc32(`${API_KEY_PREFIX}${random}`), API_KEY_CHECKSUM_LENGTH);
}

/**
 * `vwk_` + 32 random base62 characters (190 bits) + a 6-character CRC32 checksum: the prefix makes a
 * leaked key recognisable to secret scanners, the checksum lets us refuse a mistyped or made-up key
 * without a database look-up.
 */
export function generateApiKey(): string {
  const random = randomBase62(API_KEY_RANDOM_LENGTH);
  return `${API_KEY_PREFIX}${random}${checksum(random)}`;
}

export function isWellFormedApiKey(key: string): boolean {
  if (key.length !== API_KEY_LENGTH || !key.startsWith(API_KEY_PREFIX)) return false;
  const body = key.slice(API_KEY_PREFIX.length);
  if (!BASE62.test(body)) return false;
  const random = body.slice(0, API_KEY_RANDOM_LENGTH);
  return body.slice(API_KEY_RANDOM_LENGTH) === checksum(random);
}

/** Keys carry 190 random bits, so a plain SHA-256 is enough (no salt or slow hash needed). */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** The stored, displayable parts: `vwk_` plus 4 characters, and the last 4. */
export function keyParts(key: string): { prefix: string; last4: string } {
  return { prefix: key.slice(0, API_KEY_PREFIX.length + 4), last4: key.slice(-4) };
}

export function maskKey(prefix: string, last4: string): string {
  return `${prefix}…${last4}`;
}
