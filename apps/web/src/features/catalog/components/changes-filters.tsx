import { ANALYSIS_SEVERITIES, CATALOG_CHANGES_TEXTS } from '@lookout/contracts';
import { useMemo } from 'react';
import { Switch } from '@/components/ui/switch';
import { TimeRangePicker, type TimeRange } from '@/components/ui/time-range-picker';
import { TristateFilter } from '@/components/ui/tristate-filter';
import { useChangeLookups } from '../api/changes-api';
import type { ChangesUpdate } from '../hooks/use-changes-params';
import type { ChangesParams } from '../lib/changes-params';

export type ChangesFiltersProps = {
  params: ChangesParams;
  range: TimeRange;
  onChange: (update: ChangesUpdate) => void;
  hideDeleted: boolean;
  onHideDeletedChange: (hide: boolean) => void;
  /** An item's tab: the downstream and upstream toggles instead of the config type. */
  forItem: boolean;
};

const texts = CATALOG_CHANGES_TEXTS;
const SEVERITY_OPTIONS = ANALYSIS_SEVERITIES.map((value) => ({ value }));

/**
 * Config type, change type, severity, tags, the time range and 'Hide Deleted Config Changes';
 * on an item's tab also Downstream (default on) and Upstream (default off).
 */
export function ChangesFilters({
  params,
  range,
  onChange,
  hideDeleted,
  onHideDeletedChange,
  forItem,
}: ChangesFiltersProps) {
  const lookups = useChangeLookups();
  const configTypes = useMemo(
    () => (lookups.configTypes.data ?? []).map(({ type }) => ({ value: type })),
    [lookups.configTypes.data],
  );
  const changeTypes = useMemo(
    () => (lookups.changeTypes.data ?? []).map(({ change_type }) => ({ value: change_type })),
    [lookups.changeTypes.data],
  );
  const tags = useMemo(
    () => (lookups.tags.data ?? []).map(({ key, value }) => ({ value: `${key}=${value}`, label: `${key}: ${value}` })),
    [lookups.tags.data],
  );
  return (
    <div className="flex flex-wrap items-center gap-2">
      <TristateFilter
        label={texts.filters.configType}
        options={configTypes}
        value={params.configTypes}
        onChange={(configTypes) => onChange({ configTypes })}
      />
      <TristateFilter
        label={texts.filters.changeType}
        options={changeTypes}
        value={params.changeType}
        onChange={(changeType) => onChange({ changeType })}
      />
      <TristateFilter
        label={texts.filters.severity}
        options={SEVERITY_OPTIONS}
        value={params.severity}
        onChange={(severity) => onChange({ severity })}
      />
      <TristateFilter
        label={texts.filters.tags}
        options={tags}
        value={params.tags}
        onChange={(next) => onChange({ tags: next })}
      />
      <TimeRangePicker value={range} onChange={(next) => onChange({ range: next })} />
      <Switch label={texts.hideDeleted} checked={hideDeleted} onCheckedChange={onHideDeletedChange} />
      {forItem && (
        <>
          <Switch
            label={texts.downstream}
            checked={params.downstream}
            onCheckedChange={(downstream) => onChange({ downstream })}
          />
          <Switch
            label={texts.upstream}
            checked={params.upstream}
            onCheckedChange={(upstream) => onChange({ upstream })}
          />
        </>
      )}
    </div>
  );
}
