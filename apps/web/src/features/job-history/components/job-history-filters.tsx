import {
  JOB_HISTORY_DURATIONS,
  JOB_HISTORY_TEXTS,
  JOB_RESOURCE_TYPES,
  JOB_STATUS_FILTER_OPTIONS,
} from '@lookout/contracts';
import { useId, useMemo } from 'react';
import { DurationFilterSelect } from '@/components/ui/duration-filter';
import type { FacetOption } from '@/components/ui/facet-dropdown';
import { TimeRangePicker, type TimeRange } from '@/components/ui/time-range-picker';
import { TristateFilter } from '@/components/ui/tristate-filter';
import { useJobHistoryNames } from '../api/get-job-history-names';
import type { JobHistoryParams, JobHistoryParamsUpdate } from '../lib/job-history-params';

export interface JobHistoryFiltersProps {
  params: JobHistoryParams;
  onChange: (update: JobHistoryParamsUpdate) => void;
  range: TimeRange;
  onRangeChange: (range: TimeRange) => void;
  /** False on a resource's tab, where the resource is fixed. */
  showResourceType: boolean;
}

const { filters: texts } = JOB_HISTORY_TEXTS;

const STATUS_OPTIONS: readonly FacetOption[] = JOB_STATUS_FILTER_OPTIONS.map((status) => ({
  value: status,
  label: JOB_HISTORY_TEXTS.statuses[status],
}));

const selectClass =
  'h-8 rounded border border-gray-300 bg-white px-2 text-sm text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-500';

/**
 * The job history's filters (spec 2 section 2.7): job name (from job_history_names), resource
 * type, status (include or exclude), run duration and time range.
 */
export function JobHistoryFilters({
  params,
  onChange,
  range,
  onRangeChange,
  showResourceType,
}: JobHistoryFiltersProps) {
  const names = useJobHistoryNames();
  const nameOptions = useMemo<FacetOption[]>(() => (names.data ?? []).map((name) => ({ value: name })), [names.data]);
  const resourceTypeId = useId();

  return (
    <div className="flex flex-wrap items-start gap-3">
      <TristateFilter
        label={texts.name}
        options={nameOptions}
        value={params.name}
        onChange={(name) => onChange({ name })}
      />
      {showResourceType && (
        <div className="flex items-center gap-2">
          <label htmlFor={resourceTypeId} className="text-sm text-slate-600">
            {texts.resourceType}
          </label>
          <select
            id={resourceTypeId}
            value={params.resourceType ?? ''}
            onChange={(event) => onChange({ resourceType: event.target.value || undefined })}
            className={selectClass}
          >
            <option value="">{texts.allResourceTypes}</option>
            {JOB_RESOURCE_TYPES.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </select>
        </div>
      )}
      <TristateFilter
        label={texts.status}
        options={STATUS_OPTIONS}
        value={params.status}
        onChange={(status) => onChange({ status })}
      />
      <DurationFilterSelect
        value={params.duration}
        onChange={(duration) => onChange({ duration })}
        presets={JOB_HISTORY_DURATIONS}
        texts={{
          label: texts.duration,
          all: texts.durationAll,
          custom: texts.durationCustom,
          customInput: texts.customDuration,
          error: texts.durationError,
        }}
      />
      <TimeRangePicker value={range} onChange={onRangeChange} className="ml-auto" />
    </div>
  );
}
