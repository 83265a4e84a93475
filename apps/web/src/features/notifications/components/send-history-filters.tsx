import {
  NOTIFICATION_HISTORY_TEXTS,
  NOTIFICATION_RESOURCE_TYPE_LABELS,
  NOTIFICATION_RESOURCE_TYPES,
  NOTIFICATION_SEND_STATUS_LABELS,
  NOTIFICATION_SEND_STATUSES,
} from '@lookout/contracts';
import { TristateFilter } from '@/components/ui/tristate-filter';
import { parseTristate, serializeTristate } from '@/components/ui/tristate-fns';

const STATUS_OPTIONS = NOTIFICATION_SEND_STATUSES.map((value) => ({
  value,
  label: NOTIFICATION_SEND_STATUS_LABELS[value],
}));
// Sorted by label, as the original lists them: Canary, Catalog, Check, Component.
const RESOURCE_TYPE_OPTIONS = NOTIFICATION_RESOURCE_TYPES.map((value) => ({
  value,
  label: NOTIFICATION_RESOURCE_TYPE_LABELS[value],
})).sort((a, b) => a.label.localeCompare(b.label));

export interface SendHistoryFiltersProps {
  status: string;
  resourceType: string;
  onChange: (change: { status?: string; resourceType?: string }) => void;
}

/** The send history's two filters (spec 3 section 2.10), each include/exclude per value. */
export function SendHistoryFilters({ status, resourceType, onChange }: SendHistoryFiltersProps) {
  const { filters } = NOTIFICATION_HISTORY_TEXTS;
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2">
      <TristateFilter
        label={filters.resourceType}
        options={RESOURCE_TYPE_OPTIONS}
        value={parseTristate(resourceType)}
        onChange={(value) => onChange({ resourceType: serializeTristate(value) })}
      />
      <TristateFilter
        label={filters.status}
        options={STATUS_OPTIONS}
        value={parseTristate(status)}
        onChange={(value) => onChange({ status: serializeTristate(value) })}
      />
    </div>
  );
}
