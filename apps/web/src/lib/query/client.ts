import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../http/errors.ts';

/** At most this many retries of a transient failure (network down, server 5xx). */
const MAX_RETRIES = 2;

/**
 * Whether a failed load is worth trying again: only transient failures (no network, a 5xx). A
 * business error (nonzero envelope code: credits, permissions, validation), a 4xx and an expired
 * session answer the same the next time, so they are never retried. The client shows the error
 * once per text (FeedbackBridge dedupes by text), so retries do not stack toasts.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (!(error instanceof ApiError)) return false;
  return error.kind === 'network' || (error.kind === 'http' && error.httpStatus >= 500);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Lists here are heavy (history, tasks, projects) and live updates come from polling or the
        // task stream; a tab switch must not refetch everything.
        refetchOnWindowFocus: false,
        refetchOnReconnect: true,
        retry: shouldRetry,
        retryDelay: (attempt) => Math.min(500 * 2 ** attempt, 4000),
        // Data is fresh for a moment so components mounting together share one request.
        staleTime: 5_000,
        gcTime: 5 * 60_000,
      },
      // A mutation is a user action: its failure is shown, never repeated behind the user's back.
      mutations: { retry: false },
    },
  });
}

/** The app's one query cache (the root's QueryClientProvider and every hook of `lib/query` use it). */
export const queryClient = createQueryClient();
