import { Can } from '@/features/access/components/can';
import { CatalogList } from '@/features/catalog/components/catalog-list';

/** `/catalog` (spec 3 section 2.1): read on config_scrapers, as the data API maps the catalog. */
export function Component() {
  return (
    <Can resource="config_scrapers" action="read" showUnauthorized>
      <CatalogList />
    </Can>
  );
}
