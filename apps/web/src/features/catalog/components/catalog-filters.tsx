import { CATALOG_GROUP_BY_OPTIONS, CATALOG_HEALTH_OPTIONS, CATALOG_TEXTS } from '@lookout/contracts';
import { useMemo } from 'react';
import { FacetDropdown } from '@/components/ui/facet-dropdown';
import { SearchBox } from '@/components/ui/search-box';
import { Switch } from '@/components/ui/switch';
import { TristateFilter } from '@/components/ui/tristate-filter';
import { useCatalogLookups } from '../api/catalog-api';
import type { CatalogParams } from '../lib/catalog-params';

export type CatalogFiltersProps = {
  params: CatalogParams;
  onChange: (update: Partial<CatalogParams>) => void;
  hideDeleted: boolean;
  onHideDeletedChange: (hide: boolean) => void;
};

const texts = CATALOG_TEXTS.filters;

/** Type, Group By, Labels, Status, Health, the search and 'Hide Deleted Catalog'. */
export function CatalogFilters({ params, onChange, hideDeleted, onHideDeletedChange }: CatalogFiltersProps) {
  const lookups = useCatalogLookups();
  const groupByOptions = useMemo(() => {
    const tagKeys = [...new Set((lookups.tags.data ?? []).map((tag) => tag.key))].sort();
    return [
      ...CATALOG_GROUP_BY_OPTIONS,
      ...tagKeys.filter((key) => !(CATALOG_GROUP_BY_OPTIONS as readonly string[]).includes(key)),
    ].map((value) => ({ value }));
  }, [lookups.tags.data]);
  const labelOptions = useMemo(
    () =>
      (lookups.labels.data ?? []).map(({ key, value }) => ({ value: `${key}=${value}`, label: `${key}: ${value}` })),
    [lookups.labels.data],
  );
  const statusOptions = useMemo(
    () => (lookups.statuses.data ?? []).map(({ status }) => ({ value: status })),
    [lookups.statuses.data],
  );

  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="flex items-center gap-1.5 text-sm text-slate-700">
        {texts.type}
        <select
          aria-label={texts.type}
          className="h-8 max-w-56 rounded-md border border-slate-300 bg-white px-2 text-sm"
          value={params.configType}
          onChange={(event) => onChange({ configType: event.target.value })}
        >
          <option value="">{CATALOG_TEXTS.allTypes}</option>
          {(lookups.types.data ?? []).map(({ type }) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </label>
      <FacetDropdown
        label={texts.groupBy}
        options={groupByOptions}
        value={params.groupBy}
        onChange={(groupBy) => onChange({ groupBy })}
      />
      <FacetDropdown
        label={texts.labels}
        options={labelOptions}
        value={params.labels}
        onChange={(labels) => onChange({ labels })}
      />
      <TristateFilter
        label={texts.status}
        options={statusOptions}
        value={params.status}
        onChange={(status) => onChange({ status })}
      />
      <TristateFilter
        label={texts.health}
        options={CATALOG_HEALTH_OPTIONS}
        value={params.health}
        onChange={(health) => onChange({ health })}
      />
      <SearchBox
        className="w-64"
        value={params.search}
        placeholder={CATALOG_TEXTS.searchPlaceholder}
        onChange={(search) => onChange({ search })}
      />
      <Switch label={CATALOG_TEXTS.hideDeleted} checked={hideDeleted} onCheckedChange={onHideDeletedChange} />
    </div>
  );
}
