import { HEALTH_PAGE_TEXTS } from '@lookout/contracts';
import { SearchBox } from '@/components/ui/search-box';
import { TimeRangePicker, type TimeRange } from '@/components/ui/time-range-picker';
import {
  DEFAULT_GROUP_BY,
  GROUP_BY_BUILT_INS,
  NO_GROUPING,
  TAB_BY_AGENT,
  TAB_BY_BUILT_INS,
  type HealthLayout,
} from '../lib/health-params';
import type { PivotCellType } from '../lib/health-pivot-fns';
import { LabelledSelect } from './labelled-select';

export interface HealthFilterBarProps {
  query: string;
  onQueryChange: (query: string) => void;
  groupBy: string;
  onGroupByChange: (groupBy: string) => void;
  tabBy: string;
  onTabByChange: (tabBy: string) => void;
  /** Label keys of the checks, in display order: further Group By and Tab By options. */
  labelKeys: readonly string[];
  timeRange: TimeRange;
  onTimeRangeChange: (range: TimeRange) => void;
  layout: HealthLayout;
  onLayoutChange: (layout: HealthLayout) => void;
  /** The pivot layout: 'none', 'labels' or 'namespace'. */
  pivotBy: string;
  onPivotByChange: (pivotBy: string) => void;
  /** The label key columns come from when pivoting by labels. */
  pivotLabel: string | undefined;
  onPivotLabelChange: (pivotLabel: string) => void;
  pivotCellType: PivotCellType;
  onPivotCellTypeChange: (cellType: PivotCellType) => void;
}

const PIVOT_CELL_OPTIONS: readonly { value: PivotCellType; label: string }[] = [
  { value: 'uptime', label: HEALTH_PAGE_TEXTS.columns.uptime },
  { value: 'checkStatuses', label: HEALTH_PAGE_TEXTS.columns.health },
  { value: 'latency', label: HEALTH_PAGE_TEXTS.columns.latency },
];

const GROUP_BY_LABELS: Record<(typeof GROUP_BY_BUILT_INS)[number], string> = {
  [NO_GROUPING]: HEALTH_PAGE_TEXTS.groupNone,
  [DEFAULT_GROUP_BY]: HEALTH_PAGE_TEXTS.groupCanaryName,
  name: HEALTH_PAGE_TEXTS.groupName,
  description: HEALTH_PAGE_TEXTS.groupDescription,
  type: HEALTH_PAGE_TEXTS.groupType,
};

/** Label keys that do not shadow a built-in choice of the same name. */
const extraKeys = (keys: readonly string[], builtIns: readonly string[]) =>
  keys.filter((key) => !builtIns.includes(key));

/**
 * The dashboard's top filter bar (spec 1 section 2.7, spec 2 section 2.2): the search box,
 * Group By (No Grouping, Group Name, Name, Description, Type and every label key), Tab By
 * (namespace, each label key, Agent), the time range and the layout.
 */
export function HealthFilterBar({
  query,
  onQueryChange,
  groupBy,
  onGroupByChange,
  tabBy,
  onTabByChange,
  labelKeys,
  timeRange,
  onTimeRangeChange,
  layout,
  onLayoutChange,
  pivotBy,
  onPivotByChange,
  pivotLabel,
  onPivotLabelChange,
  pivotCellType,
  onPivotCellTypeChange,
}: HealthFilterBarProps) {
  const groupOptions = [
    ...GROUP_BY_BUILT_INS.map((value) => ({ value, label: GROUP_BY_LABELS[value] })),
    ...extraKeys(labelKeys, GROUP_BY_BUILT_INS).map((key) => ({ value: key, label: key })),
  ];
  const tabOptions = [
    { value: 'namespace', label: HEALTH_PAGE_TEXTS.tabByNamespace },
    ...extraKeys(labelKeys, TAB_BY_BUILT_INS).map((key) => ({ value: key, label: key })),
    { value: TAB_BY_AGENT, label: HEALTH_PAGE_TEXTS.tabByAgent },
  ];
  return (
    <div className="flex flex-col gap-2">
      <SearchBox
        value={query}
        onChange={onQueryChange}
        placeholder={HEALTH_PAGE_TEXTS.searchPlaceholder}
        className="w-full max-w-xl"
      />
      <div className="flex flex-wrap items-center gap-2">
        <LabelledSelect
          label={HEALTH_PAGE_TEXTS.groupBy}
          value={groupBy}
          options={groupOptions}
          onChange={onGroupByChange}
        />
        <LabelledSelect label={HEALTH_PAGE_TEXTS.tabBy} value={tabBy} options={tabOptions} onChange={onTabByChange} />
        <TimeRangePicker value={timeRange} onChange={onTimeRangeChange} />
        <LabelledSelect
          label={HEALTH_PAGE_TEXTS.layout}
          value={layout}
          options={[
            { value: 'table', label: HEALTH_PAGE_TEXTS.layoutTable },
            { value: 'card', label: HEALTH_PAGE_TEXTS.layoutCard },
          ]}
          onChange={(value) => onLayoutChange(value === 'card' ? 'card' : 'table')}
        />
        {layout === 'table' && (
          <LabelledSelect
            label={HEALTH_PAGE_TEXTS.pivotBy}
            value={pivotBy}
            options={[
              { value: 'none', label: HEALTH_PAGE_TEXTS.pivotNone },
              { value: 'labels', label: HEALTH_PAGE_TEXTS.pivotLabels },
              { value: 'namespace', label: HEALTH_PAGE_TEXTS.pivotNamespace },
            ]}
            onChange={onPivotByChange}
          />
        )}
        {layout === 'table' && pivotBy === 'labels' && (
          <LabelledSelect
            label={HEALTH_PAGE_TEXTS.pivotLabel}
            value={pivotLabel ?? ''}
            options={labelKeys.map((key) => ({ value: key, label: key }))}
            onChange={onPivotLabelChange}
          />
        )}
        {layout === 'table' && pivotBy !== 'none' && (
          <LabelledSelect
            label={HEALTH_PAGE_TEXTS.pivotCell}
            value={pivotCellType}
            options={PIVOT_CELL_OPTIONS}
            onChange={(value) =>
              onPivotCellTypeChange(PIVOT_CELL_OPTIONS.find((o) => o.value === value)?.value ?? 'uptime')
            }
          />
        )}
      </div>
    </div>
  );
}
