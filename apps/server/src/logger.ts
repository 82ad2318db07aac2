import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';

/** Secrets never reach the log: these paths are redacted wherever they appear. */
const REDACT = [
  'req.headers.authorization',
  '*.password',
  '*.new_password',
  '*.old_password',
  '*.refresh_token',
  '*.access_token',
  '*.code_hash',
  '*.password_hash',
];

export function createLogger(level: string): FastifyBaseLogger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } }) as FastifyBaseLogger;
}
