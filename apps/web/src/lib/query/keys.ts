import type { AnyCall, RequestInput } from '../http/client.ts';

/**
 * The cache key of a call: its path (unique per call, like the contract's operationId) then its
 * input. Every key of one call starts with the same element, so a call's entries are invalidated
 * together by prefix.
 */
export type CallKey = readonly [string, ...unknown[]];

export function callKey<C extends AnyCall>(call: C, input?: RequestInput<C>): CallKey {
  if (!input || (input.query === undefined && input.body === undefined)) return [call.path];
  return [call.path, { query: input.query ?? null, body: input.body ?? null }];
}
