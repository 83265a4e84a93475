import { SCRAPERS_PATH, SETTINGS_RESOURCES } from '@lookout/contracts';
import { SettingsResourceList } from '@/components/settings-resource';
import { Can } from '@/features/access/components/can';
import { usePermissions } from '@/features/access/hooks/use-permissions';
import { CatalogPageTabs } from '@/features/catalog/components/catalog-page-tabs';

const scrapers = SETTINGS_RESOURCES.config_scrapers;

/**
 * `/catalog/scrapers` (spec 3 sections 2.1 and 2.6): the settings list of the scrapers under the
 * catalog's tabs, its rows opening `/catalog/scrapers/{id}`; adding needs write on the scrapers
 * resource (spec 3 section 6).
 */
export function Component() {
  const permissions = usePermissions();
  return (
    <Can resource={scrapers.resource} action="read" showUnauthorized>
      <SettingsResourceList
        resource={scrapers}
        basePath={SCRAPERS_PATH}
        canWrite={permissions.can(scrapers.resource, 'write')}
      >
        <CatalogPageTabs />
      </SettingsResourceList>
    </Can>
  );
}
