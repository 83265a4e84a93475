import {
  INCIDENT_MESSAGES,
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  INCIDENT_UI_TEXTS,
  INCIDENT_UI_TIMINGS,
} from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { SearchBox } from '@/components/ui/search-box';
import { dbApi } from '@/lib/api-client';
import { getPeople } from '../api/incidents-api';
import { incidentKeys } from '../api/incident-keys';
import { humanize } from '../lib/incident-display';
import { ALL_STATUSES, type IncidentListFilter, type IncidentListFilters } from '../lib/incident-list-params';

const T = INCIDENT_UI_TEXTS.filters;

function FilterSelect({
  label,
  value,
  options,
  onChange,
  anyValue = '',
}: {
  label: string;
  value: string | undefined;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  anyValue?: string;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <span className="font-medium">{label}</span>
      <select
        aria-label={label}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
        value={value ?? anyValue}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value={anyValue}>{T.any}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const asOptions = (values: readonly string[]) => values.map((value) => ({ value, label: humanize(value) }));

/** The list's filters (spec 3 section 2.3); each change is written to the URL by the caller. */
export function IncidentFilterBar({
  filters,
  onChange,
}: {
  filters: IncidentListFilters;
  onChange: (name: IncidentListFilter, value: string) => void;
}) {
  const people = useQuery({ queryKey: incidentKeys.people(), queryFn: getPeople });
  const components = useQuery({
    queryKey: ['incidents', 'component-options'],
    queryFn: async () =>
      (
        await dbApi.get<{ id: string; name: string }[]>('/components', {
          params: { select: 'id,name', deleted_at: 'is.null', order: 'name.asc', limit: '500' },
        })
      ).data,
  });
  return (
    <div className="flex flex-wrap items-center gap-4">
      <FilterSelect
        label={T.type}
        value={filters.type}
        options={asOptions(INCIDENT_TYPES)}
        onChange={(v) => onChange('type', v)}
      />
      <FilterSelect
        label={T.severity}
        value={filters.severity}
        options={asOptions(INCIDENT_SEVERITIES)}
        onChange={(v) => onChange('severity', v)}
      />
      <FilterSelect
        label={T.status}
        value={filters.status}
        anyValue={ALL_STATUSES}
        options={asOptions(INCIDENT_STATUSES)}
        onChange={(v) => onChange('status', v)}
      />
      <FilterSelect
        label={T.owner}
        value={filters.owner}
        options={(people.data ?? []).map((person) => ({ value: person.id, label: person.name }))}
        onChange={(v) => onChange('owner', v)}
      />
      <FilterSelect
        label={T.component}
        value={filters.component}
        options={(components.data ?? []).map((component) => ({ value: component.id, label: component.name }))}
        onChange={(v) => onChange('component', v)}
      />
      <SearchBox
        className="w-64"
        value={filters.search ?? ''}
        placeholder={INCIDENT_MESSAGES.searchPlaceholder}
        debounceMs={INCIDENT_UI_TIMINGS.searchDebounceMs}
        onChange={(v) => onChange('search', v)}
      />
    </div>
  );
}
