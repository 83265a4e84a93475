import { NEW_SCRAPER_ID, SCRAPER_JOB_RESOURCE_TYPE, SETTINGS_RESOURCES } from '@lookout/contracts';
import { useLocation, useParams } from 'react-router';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { ScraperEditor } from '@/features/catalog/components/scraper-editor';
import { JobHistoryTable } from '@/features/job-history/components/job-history-table';

const settingsList = SETTINGS_RESOURCES.config_scrapers;
/** Opened from Settings > Catalog Scrapers, the editor returns there rather than to the catalog. */
const SETTINGS_BACK_TO = { path: settingsList.path, label: settingsList.title };

/** The runs of one scraper (job_history resource_type 'config_scraper'). */
const scraperJobHistory = (scraperId: string) => (
  <JobHistoryTable resourceType={SCRAPER_JOB_RESOURCE_TYPE} resourceId={scraperId} />
);

/**
 * `/catalog/scrapers/{id}` and `/catalog/scrapers/new` (spec 3 section 2.1), and the same under
 * `/settings/config_scrapers` (spec 3 section 2.6): a scraper's Spec and Job History tabs. Creating needs write on the scrapers resource; an existing scraper
 * opens read-only for those who only read it.
 */
export function Component() {
  const { id } = useParams();
  const underSettings = useLocation().pathname.startsWith(`${settingsList.path}/`);
  const permissions = usePermissions();
  const scraperId = id === undefined || id === NEW_SCRAPER_ID ? undefined : id;
  return (
    <Can resource="config_scrapers" action={scraperId === undefined ? 'write' : 'read'} showUnauthorized>
      <ScraperEditor
        key={scraperId ?? NEW_SCRAPER_ID}
        scraperId={scraperId}
        canWrite={permissions.can('config_scrapers', 'write')}
        currentUserId={permissions.userId}
        jobHistory={scraperJobHistory}
        {...(underSettings ? { backTo: SETTINGS_BACK_TO } : {})}
      />
    </Can>
  );
}
