import type { LogsRequest, LogsResponse } from '@lookout/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { dbApi, logsApi } from '@/lib/api-client';

/** A row of `components_with_logs` (ui-calls 3.15) with its selectors, for the pickers. */
export type ComponentWithLogs = {
  id: string;
  name: string;
  icon: string | null;
  log_selectors: { name: string; type?: string; labels?: Record<string, string> }[] | null;
};

export const logsKeys = {
  components: ['logs', 'components'] as const,
  lines: (request: LogsRequest) => ['logs', 'lines', request] as const,
};

/** `GET /api/db/components_with_logs?order=name.asc` (5 minutes stale, spec 1 section 9). */
export function useComponentsWithLogs() {
  return useQuery({
    queryKey: logsKeys.components,
    queryFn: async ({ signal }) =>
      (
        await dbApi.get<ComponentWithLogs[]>('/components_with_logs', {
          params: { select: 'id,name,icon,log_selectors', order: 'name.asc' },
          signal,
        })
      ).data,
    staleTime: 5 * 60_000,
  });
}

/** `POST /api/logs` for a component's selector; off until both are chosen. */
export function useLogLines(request: LogsRequest | undefined) {
  return useQuery({
    queryKey: logsKeys.lines(request ?? { id: '', name: '' }),
    queryFn: async ({ signal }) => (await logsApi.post<LogsResponse>('', request, { signal })).data,
    enabled: request !== undefined,
    placeholderData: keepPreviousData,
  });
}
