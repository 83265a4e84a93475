import { QueryClient } from '@tanstack/react-query';
import type { DefaultOptions } from '@tanstack/react-query';
import { isRetryableNetworkError } from '@/lib/api-client';

/** Five minutes, as the original console: most lists change slowly and refetch on focus. */
const DEFAULT_STALE_TIME_MS = 5 * 60 * 1000;

/** A failed request is retried this many times at most. */
const MAX_RETRIES = 3;

/**
 * Only transport failures are retried: a 4xx or 5xx answer will not change on its own,
 * and retrying it would only delay the error the user needs to see.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_RETRIES && isRetryableNetworkError(error);
}

export const queryDefaults = {
  queries: {
    staleTime: DEFAULT_STALE_TIME_MS,
    retry: shouldRetryQuery,
    refetchOnWindowFocus: true,
  },
} satisfies DefaultOptions;

/**
 * One client per app instance (and per test), so tests never share a cache.
 * `overrides` lets a test turn off retries or tune a default without redefining the rest.
 */
export function createQueryClient(overrides: DefaultOptions['queries'] = {}): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { ...queryDefaults.queries, ...overrides } },
  });
}
