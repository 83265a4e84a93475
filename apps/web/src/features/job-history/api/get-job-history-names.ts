import { jobHistoryNamesSchema } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { jobHistoryKeys } from './job-history-keys';

/** `GET /api/db/job_history_names?order=name.asc` (spec 2 section 7.6): the job name filter's options. */
export const getJobHistoryNames = async (signal?: AbortSignal): Promise<string[]> => {
  const { data } = await dbApi.get<unknown>('/job_history_names', { params: { order: 'name.asc' }, signal });
  return jobHistoryNamesSchema.parse(data).map((row) => row.name);
};

export const jobHistoryNamesQueryOptions = () =>
  queryOptions({ queryKey: jobHistoryKeys.names(), queryFn: ({ signal }) => getJobHistoryNames(signal) });

export const useJobHistoryNames = () => useQuery(jobHistoryNamesQueryOptions());
