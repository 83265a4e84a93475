import { useCallback } from 'react';
import { Can } from '@/features/access/components/can';
import { useFeatureFlags } from '@/features/feature-flags/hooks/use-feature-flags';
import { JobHistoryView } from '@/features/job-history/components/job-history-view';
import { jobResourceHref } from '../job-resource-links';

/**
 * `/settings/jobs` (spec 2 section 2.7): every background job run. Job history is read
 * through the data API under the `database` resource; resources link to their pages where
 * this build has them (`job-resource-links.ts`).
 */
export function Component() {
  const { isFeatureDisabled } = useFeatureFlags();
  const resourceHref = useCallback(
    (type: string, id: string) => jobResourceHref(type, id, isFeatureDisabled),
    [isFeatureDisabled],
  );
  return (
    <Can resource="database" action="read" showUnauthorized>
      <JobHistoryView resourceHref={resourceHref} />
    </Can>
  );
}
