import { ANALYSIS_SEVERITIES, ANALYSIS_STATUSES, ANALYSIS_TYPES, CATALOG_INSIGHTS_TEXTS } from '@lookout/contracts';
import { useCatalogLookups } from '../api/catalog-api';
import { useAnalyzers, useComponentOptions } from '../api/insights-api';
import type { InsightFilterKey, InsightsParams } from '../lib/insights-params';

const texts = CATALOG_INSIGHTS_TEXTS.filters;
const ALL = 'All';

type Option = { value: string; label?: string };

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: ReadonlyArray<Option>;
  onChange: (value: string) => void;
}) {
  return (
    <label className="flex items-center gap-1.5 text-sm text-slate-700">
      {label}
      <select
        aria-label={label}
        className="h-8 max-w-48 rounded-md border border-slate-300 bg-white px-2 text-sm"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{ALL}</option>
        {/* A value from the address that is not (yet) among the options stays selectable. */}
        {value && !options.some((option) => option.value === value) && <option value={value}>{value}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label ?? option.value}
          </option>
        ))}
      </select>
    </label>
  );
}

const plain = (values: ReadonlyArray<string>) => values.map((value) => ({ value }));

/**
 * Config Type, Type (the insight's analysis type), Severity, Analyzer, Component and Status.
 * `forItem` leaves out Config Type and Component, fixed by the item.
 */
export function InsightsFilters({
  params,
  onChange,
  forItem,
}: {
  params: InsightsParams;
  onChange: (update: Partial<InsightsParams>) => void;
  forItem: boolean;
}) {
  const lookups = useCatalogLookups();
  const analyzers = useAnalyzers();
  const components = useComponentOptions();
  const set = (key: InsightFilterKey) => (value: string) => onChange({ [key]: value });
  return (
    <div className="flex flex-wrap items-center gap-3">
      {!forItem && (
        <Select
          label={texts.configType}
          value={params.configType}
          options={(lookups.types.data ?? []).map(({ type }) => ({ value: type }))}
          onChange={set('configType')}
        />
      )}
      <Select label={texts.type} value={params.type} options={plain(ANALYSIS_TYPES)} onChange={set('type')} />
      <Select
        label={texts.severity}
        value={params.severity}
        options={plain(ANALYSIS_SEVERITIES)}
        onChange={set('severity')}
      />
      <Select
        label={texts.analyzer}
        value={params.analyzer}
        options={plain(analyzers.data ?? [])}
        onChange={set('analyzer')}
      />
      {!forItem && !components.isError && (
        <Select
          label={texts.component}
          value={params.component}
          options={(components.data ?? []).map(({ id, name }) => ({ value: id, label: name }))}
          onChange={set('component')}
        />
      )}
      <Select label={texts.status} value={params.status} options={plain(ANALYSIS_STATUSES)} onChange={set('status')} />
    </div>
  );
}
