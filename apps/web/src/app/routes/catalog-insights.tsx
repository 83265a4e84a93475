import { CATALOG_INSIGHTS_TEXTS, CATALOG_TEXTS } from '@lookout/contracts';
import { PageHeader } from '@/components/layout/page-header';
import { Can } from '@/features/access/components/can';
import { CatalogPageTabs } from '@/features/catalog/components/catalog-page-tabs';
import { InsightsView } from '@/features/catalog/components/insights-view';

/** `/catalog/insights` (spec 3 section 2.1): every item's insights; read on config_scrapers. */
export function Component() {
  return (
    <Can resource="config_scrapers" action="read" showUnauthorized>
      <div className="flex h-full min-h-0 flex-col gap-3 p-4">
        <PageHeader title={`${CATALOG_TEXTS.title} ${CATALOG_INSIGHTS_TEXTS.title}`} />
        <CatalogPageTabs />
        <InsightsView />
      </div>
    </Can>
  );
}
