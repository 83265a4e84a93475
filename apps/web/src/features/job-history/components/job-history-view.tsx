import { JOB_HISTORY_TEXTS } from '@lookout/contracts';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '@/components/layout/page-header';
import { jobHistoryKeys } from '../api/job-history-keys';
import { JobHistoryTable, type JobResourceHref } from './job-history-table';

export interface JobHistoryViewProps {
  /** Links a run's resource to its page where this build has one. */
  resourceHref?: JobResourceHref;
}

/** The Jobs History page (spec 2 section 2.7): every run of every job, with a refresh button. */
export function JobHistoryView({ resourceHref }: JobHistoryViewProps) {
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: jobHistoryKeys.all });
  return (
    <>
      <PageHeader
        title={JOB_HISTORY_TEXTS.title}
        onRefresh={() => void queryClient.invalidateQueries({ queryKey: jobHistoryKeys.all })}
        isLoading={fetching > 0}
      />
      <JobHistoryTable {...(resourceHref ? { resourceHref } : {})} />
    </>
  );
}
