import { setTimeout as sleep } from 'node:timers/promises';
import type { EngineError } from '../errors.ts';

/**
 * The one way the engines call a server over HTTP (speech, cloning, voice-conversion and separation
 * servers): a time limit per attempt, the caller's cancel, the whole answer read, and every failure
 * turned into the caller's own EngineError. A call that is the same however often it is made
 * (`idempotent`: a sentence's synthesis) is asked again when the server could not be reached or
 * answered 502/503/504, as a server restarting or behind a busy proxy does.
 */

/** The errors of one remote engine, in the words of its feature. */
export interface RemoteErrors {
  aborted(): EngineError;
  timedOut(): EngineError;
  /** No answer: refused, reset, unknown host. */
  unreachable(cause: Error): EngineError;
  /** A status other than 2xx; `body` is the answer's text. */
  failed(status: number, body: string): EngineError;
  /** The answer broke off while it was read; default as `unreachable`. */
  broken?(cause: Error): EngineError;
}

export interface EngineFetchOptions extends Omit<RequestInit, 'signal'> {
  errors: RemoteErrors;
  /** Per attempt, the answer's body included. */
  timeoutMs: number;
  signal?: AbortSignal;
  idempotent?: boolean;
}

export interface EngineAnswer {
  response: Response;
  body: Buffer;
}

/** Waits before the second and third attempt of an idempotent call. */
const RETRY_DELAYS_MS = [250, 1000];
const RETRY_STATUSES = new Set([502, 503, 504]);

/** A failure another attempt may not see. */
class Transient extends Error {
  constructor(readonly error: EngineError) {
    super(error.message);
  }
}

export async function engineFetch(url: string, options: EngineFetchOptions): Promise<EngineAnswer> {
  const { errors, timeoutMs, signal, idempotent, ...init } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      return await attemptOnce(url, init, timeoutMs, errors, signal);
    } catch (e) {
      if (!(e instanceof Transient)) throw e;
      const delay = RETRY_DELAYS_MS[attempt];
      if (!idempotent || delay === undefined) throw e.error;
      await sleep(delay, undefined, { signal }).catch(() => {
        throw errors.aborted();
      });
    }
  }
}

async function attemptOnce(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  errors: RemoteErrors,
  signal?: AbortSignal,
): Promise<EngineAnswer> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const stopped = (err: unknown, otherwise: (cause: Error) => EngineError | Transient) => {
    if (signal?.aborted) return errors.aborted();
    if (timeout.aborted) return errors.timedOut();
    return otherwise(err as Error);
  };
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    throw stopped(err, (cause) => new Transient(errors.unreachable(cause)));
  }
  let body: Buffer;
  try {
    body = Buffer.from(await response.arrayBuffer());
  } catch (err) {
    throw stopped(err, (cause) => (errors.broken ?? errors.unreachable)(cause));
  }
  if (response.ok) return { response, body };
  const failure = errors.failed(response.status, body.toString('utf8'));
  throw RETRY_STATUSES.has(response.status) ? new Transient(failure) : failure;
}

/** The message of a `{"error":{"message":…}}` answer (the vw-vc/1 and vw-sep/1 protocols), else its start. */
export function serverMessage(body: string): string {
  try {
    return (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? body.slice(0, 300);
  } catch {
    return body.slice(0, 300);
  }
}
