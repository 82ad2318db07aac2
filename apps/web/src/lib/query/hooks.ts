import {
  type QueryKey,
  type UseMutationOptions,
  type UseQueryOptions,
  type UseQueryResult,
  useMutation,
  useQuery,
} from '@tanstack/react-query';
import type { AnyCall, DataOf, RequestInput, RequestOptions } from '../http/client.ts';
import { request } from '../http/client.ts';
import type { ApiError } from '../http/errors.ts';
import { queryClient } from './client.ts';
import { type CallKey, callKey } from './keys.ts';

export interface CallOptions<C extends AnyCall, T = DataOf<C>>
  extends Omit<UseQueryOptions<DataOf<C>, ApiError, T, QueryKey>, 'queryKey' | 'queryFn'> {
  /** Do not show the general error message for this load (spec §8 per-request suppression). */
  suppressError?: boolean;
}

/**
 * Loads a call through the shared cache: `useCall(api.listProjects, { query: { tool: 'stt' } })`.
 * The key is the call and its input, so every component asking for the same thing shares one
 * request and one cached answer; polling is `refetchInterval`. The hooks use the app's client
 * directly (not the provider's) so a component renders the same in a test without a provider.
 */
export function useCall<C extends AnyCall, T = DataOf<C>>(
  call: C,
  input?: RequestInput<C>,
  options: CallOptions<C, T> = {},
): UseQueryResult<T, ApiError> {
  const { suppressError, ...rest } = options;
  const requestOptions: RequestOptions = suppressError ? { suppressError } : {};
  return useQuery<DataOf<C>, ApiError, T, QueryKey>(
    {
      queryKey: callKey(call, input) as unknown as QueryKey,
      queryFn: ({ signal }) => request(call, input, { ...requestOptions, signal }),
      ...rest,
    },
    queryClient,
  );
}

export interface CallMutationOptions<C extends AnyCall, Ctx = unknown>
  extends Omit<UseMutationOptions<DataOf<C>, ApiError, RequestInput<C>, Ctx>, 'mutationFn'> {
  suppressError?: boolean;
  /** Calls whose cached answers are stale after this one succeeds (refetched if shown). */
  invalidates?: AnyCall[];
}

/** Runs a call as a mutation: `const del = useCallMutation(api.deleteProject, { invalidates: [api.listProjects] })`. */
export function useCallMutation<C extends AnyCall, Ctx = unknown>(
  call: C,
  options: CallMutationOptions<C, Ctx> = {},
) {
  const { suppressError, invalidates, onSuccess, ...rest } = options;
  return useMutation<DataOf<C>, ApiError, RequestInput<C>, Ctx>(
    {
      mutationFn: (input) => request(call, input, suppressError ? { suppressError } : {}),
      onSuccess: async (...args) => {
        if (invalidates) await Promise.all(invalidates.map((c) => invalidateCall(c)));
        return onSuccess?.(...args);
      },
      ...rest,
    },
    queryClient,
  );
}

/** Marks a call's cached answers stale (all inputs, or only `input`'s); shown ones refetch. */
export function invalidateCall<C extends AnyCall>(call: C, input?: RequestInput<C>): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: callKey(call, input) as unknown as QueryKey });
}

/** Reads a cached answer without loading. */
export function getCallData<C extends AnyCall>(call: C, input?: RequestInput<C>): DataOf<C> | undefined {
  return queryClient.getQueryData<DataOf<C>>(callKey(call, input) as unknown as QueryKey);
}

/** Writes an answer into the cache (e.g. a task state that arrived on the event stream). */
export function setCallData<C extends AnyCall>(
  call: C,
  input: RequestInput<C> | undefined,
  updater: DataOf<C> | ((old: DataOf<C> | undefined) => DataOf<C> | undefined),
): void {
  queryClient.setQueryData<DataOf<C>>(callKey(call, input) as unknown as QueryKey, updater as never);
}

/** Loads through the cache outside React (fresh answers are reused). */
export function fetchCall<C extends AnyCall>(
  call: C,
  input?: RequestInput<C>,
  options: { suppressError?: boolean; staleTime?: number } = {},
): Promise<DataOf<C>> {
  return queryClient.fetchQuery({
    queryKey: callKey(call, input) as unknown as QueryKey,
    queryFn: ({ signal }) =>
      request(call, input, { ...(options.suppressError ? { suppressError: true } : {}), signal }),
    staleTime: options.staleTime,
  });
}

export type { CallKey };
