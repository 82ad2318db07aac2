import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { type Bindings, type ChildLoggerOptions, pino } from 'pino';
import { clientIds } from './http/request-context.ts';

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

type LogMethod = (...args: unknown[]) => void;

/**
 * Fastify's childLoggerFactory: every log line of a request carries the client's device and bundle
 * ids beside the request id; the child is made only if the request logs.
 */
export function requestLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
  rawRequest: IncomingMessage,
): FastifyBaseLogger {
  return lazyChildLogger(logger, () => ({ ...bindings, ...clientIds(rawRequest) }), options);
}

/**
 * A request's logger, made when the request first logs. Fastify asks for a child logger on every
 * request and almost none writes a line, so a pino child per request (its bindings serialised,
 * here with the client's ids) is work the hot path need not do. `bindings` is called then.
 */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: () => Record<string, unknown>,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}

class LazyChildLogger {
  #made: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: () => Record<string, unknown>,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.#made ??= this.parent.child(this.bindings(), this.options);
    return this.#made;
  }

  get level(): string {
    return this.#made?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.logger.level = level;
  }
  fatal(...args: unknown[]): void {
    (this.logger.fatal as LogMethod)(...args);
  }
  error(...args: unknown[]): void {
    (this.logger.error as LogMethod)(...args);
  }
  warn(...args: unknown[]): void {
    (this.logger.warn as LogMethod)(...args);
  }
  info(...args: unknown[]): void {
    (this.logger.info as LogMethod)(...args);
  }
  debug(...args: unknown[]): void {
    (this.logger.debug as LogMethod)(...args);
  }
  trace(...args: unknown[]): void {
    (this.logger.trace as LogMethod)(...args);
  }
  silent(...args: unknown[]): void {
    (this.logger.silent as LogMethod)(...args);
  }
  child(bindings: Record<string, unknown>, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}
