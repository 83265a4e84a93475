import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { ScrapersView } from '@/features/catalog/components/scrapers-view';
import { JobStatusBadge } from '@/components/ui/job-status-badge';

/**
 * `/catalog/scrapers` (spec 3 section 2.1): the scraper list; adding needs write on the
 * scrapers resource (spec 3 section 6). Run statuses are drawn with the job history's badge.
 */
export function Component() {
  const permissions = usePermissions();
  return (
    <Can resource="config_scrapers" action="read" showUnauthorized>
      <ScrapersView
        canWrite={permissions.can('config_scrapers', 'write')}
        jobStatus={(status) => <JobStatusBadge status={status} />}
      />
    </Can>
  );
}
