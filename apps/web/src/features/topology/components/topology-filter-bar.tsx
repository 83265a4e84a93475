import { TOPOLOGY_CARD_WIDTH, TOPOLOGY_TEXTS } from '@lookout/contracts';
import { ArrowDownWideNarrow, ArrowUpNarrowWide } from 'lucide-react';
import { useId, useMemo } from 'react';
import { useAgentOptions, useComponentLabels } from '../api/get-topology';
import type { TopologyFilters } from '../lib/topology-params';
import type { SortOption } from '../lib/topology-sort';
import type { TopologyResponse } from '../lib/topology-types';
import { FilterSelect } from './filter-select';

const texts = TOPOLOGY_TEXTS.filters;
const ALL = { value: '', label: TOPOLOGY_TEXTS.all };
const toOptions = (values: readonly string[] | undefined) => [
  ALL,
  ...[...new Set(values ?? [])]
    .filter(Boolean)
    .sort()
    .map((value) => ({ value, label: value })),
];

export interface TopologyFilterBarProps {
  data: TopologyResponse | undefined;
  filters: TopologyFilters;
  onChange: (update: Partial<TopologyFilters>) => void;
  sortOptions: readonly SortOption[];
  cardWidth: number;
  onCardWidthChange: (width: number) => void;
}

/**
 * Health, Type, Team, Labels, Agent and the sort (spec 3 section 2.2), all in the address, and
 * the card width slider (250–768 px, kept locally).
 */
export function TopologyFilterBar({
  data,
  filters,
  onChange,
  sortOptions,
  cardWidth,
  onCardWidthChange,
}: TopologyFilterBarProps) {
  const sliderId = useId();
  const labels = useComponentLabels();
  const agents = useAgentOptions();
  const labelOptions = useMemo(
    () => [
      ALL,
      ...(labels.data ?? []).map(({ key, value }) => ({ value: `${key}=${value}`, label: `${key}: ${value}` })),
    ],
    [labels.data],
  );
  const agentOptions = useMemo(
    () => [ALL, ...(agents.data ?? []).map((agent) => ({ value: agent.id, label: agent.name }))],
    [agents.data],
  );
  const ascending = filters.sortOrder === 'asc';
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Filters">
      <FilterSelect
        label={texts.health}
        value={filters.status}
        options={toOptions(data?.healthStatuses)}
        onChange={(status) => onChange({ status })}
      />
      <FilterSelect
        label={texts.type}
        value={filters.type}
        options={toOptions(data?.types)}
        onChange={(type) => onChange({ type })}
      />
      <FilterSelect
        label={texts.team}
        value={filters.team}
        options={toOptions(data?.teams)}
        onChange={(team) => onChange({ team })}
      />
      <FilterSelect
        label={texts.labels}
        value={filters.labels}
        options={labelOptions}
        onChange={(value) => onChange({ labels: value })}
      />
      <FilterSelect
        label={texts.agent}
        value={filters.agentId}
        options={agentOptions}
        onChange={(agentId) => onChange({ agentId })}
      />
      <div className="inline-flex items-center gap-1">
        <FilterSelect
          label={texts.sortBy}
          value={filters.sortBy}
          options={sortOptions}
          onChange={(sortBy) => onChange({ sortBy })}
        />
        <button
          type="button"
          className="inline-flex size-8 items-center justify-center rounded border border-gray-300 bg-white text-gray-700 hover:bg-gray-50"
          aria-label={`${texts.sortOrder}: ${ascending ? texts.ascending : texts.descending}`}
          title={ascending ? texts.ascending : texts.descending}
          onClick={() => onChange({ sortOrder: ascending ? 'desc' : 'asc' })}
        >
          {ascending ? (
            <ArrowUpNarrowWide aria-hidden className="size-4" />
          ) : (
            <ArrowDownWideNarrow aria-hidden className="size-4" />
          )}
        </button>
      </div>
      <div className="ml-auto inline-flex items-center gap-2 text-xs text-gray-600">
        <label htmlFor={sliderId}>{TOPOLOGY_TEXTS.cardWidth}:</label>
        <input
          id={sliderId}
          type="range"
          min={TOPOLOGY_CARD_WIDTH.min}
          max={TOPOLOGY_CARD_WIDTH.max}
          step={TOPOLOGY_CARD_WIDTH.step}
          value={cardWidth}
          onChange={(event) => onCardWidthChange(Number(event.target.value))}
          className="w-40 cursor-pointer"
        />
        <span className="w-12 tabular-nums">{cardWidth}px</span>
      </div>
    </div>
  );
}
