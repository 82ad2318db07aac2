import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';

/** Keys whose values never reach the log, wherever they appear in a logged object. */
const SECRET_KEYS = new Set([
  'authorization',
  'password',
  'new_password',
  'old_password',
  'refresh_token',
  'access_token',
  'code_hash',
  'password_hash',
  'token_hash',
  // Verification codes: message params (SMS templates) and a code field anywhere.
  'params',
  'verification_code',
]);

/**
 * Scrubs at log time (rare) rather than with pino's `redact`, which would be rebuilt for the child
 * logger Fastify makes on every request (the hot path).
 */
export function scrubSecrets(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object' || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((v) => scrubSecrets(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SECRET_KEYS.has(k.toLowerCase()) ? '[redacted]' : scrubSecrets(v, depth + 1),
    ]),
  );
}

export function createLogger(level: string): FastifyBaseLogger {
  return pino({
    level,
    formatters: { log: (object) => scrubSecrets(object) as Record<string, unknown> },
  }) as FastifyBaseLogger;
}
