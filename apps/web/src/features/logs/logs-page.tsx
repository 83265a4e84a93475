import { LOGS_TEXTS, LOGS_UI, type LogLine, type LogsRequest } from '@lookout/contracts';
import { Siren } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { useLinkToIncident } from '@/components/link-to-incident-slot';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/form-field';
import { SearchBox } from '@/components/ui/search-box';
import { TimeRangePicker, toTimeRange, type TimeRange } from '@/components/ui/time-range-picker';
import { getErrorMessage } from '@/lib/api-client';
import { useComponentsWithLogs, useLogLines } from './logs-api';
import { logEvidence } from './log-format';
import { LogsTable } from './logs-table';

/** The range the `start` (and `end`) parameters hold: relative (`now-1h`) or fixed. */
function rangeOfParams(start: string | null, end: string | null): TimeRange | undefined {
  if (!start) return undefined;
  if (end) return toTimeRange({ type: 'absolute', from: start, to: end });
  return toTimeRange({ type: 'relative', range: start });
}

/**
 * `/logs` (spec 3 section 2.5; ui-calls 3.15): component and selector pickers, the query
 * (debounced 500 ms), a time range, and the lines; rows selected with their checkboxes become
 * log evidence through Link to Incident. Everything chosen lives in the URL: topologyId,
 * logsSelector, query, start (and end for a fixed range).
 */
export function LogsPage() {
  const [params, setParams] = useSearchParams();
  const componentId = params.get('topologyId') ?? '';
  const query = params.get('query') ?? '';
  const start = params.get('start');
  const end = params.get('end');
  const components = useComponentsWithLogs();
  const component = components.data?.find((row) => row.id === componentId);
  const selectors = component?.log_selectors ?? [];
  // The first selector is the default, as the original picks it.
  const selectorName = params.get('logsSelector') ?? selectors[0]?.name ?? '';
  const request: LogsRequest | undefined =
    componentId && selectorName
      ? {
          id: componentId,
          name: selectorName,
          ...(query ? { query } : {}),
          ...(start ? { start } : {}),
          ...(end ? { end } : {}),
        }
      : undefined;
  const lines = useLogLines(request);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [linking, setLinking] = useState(false);
  const renderLink = useLinkToIncident();
  const results = useMemo(() => lines.data?.results ?? [], [lines.data]);

  const update = (changes: Record<string, string | undefined>) => {
    setSelected(new Set());
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      return next;
    });
  };
  const setRange = (range: TimeRange) => {
    if (range.type === 'relative') update({ start: range.range, end: undefined });
    else update({ start: range.from, end: range.to });
  };
  const toggle = (index: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  const chosen = [...selected].map((index) => results[index]).filter((line): line is LogLine => line !== undefined);

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageHeader
        title={LOGS_TEXTS.title}
        onRefresh={request ? () => void lines.refetch() : undefined}
        isLoading={lines.isFetching}
      />
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          label={LOGS_TEXTS.componentLabel}
          value={componentId}
          placeholder=""
          options={(components.data ?? []).map((row) => ({ value: row.id, label: row.name }))}
          onChange={(event) => update({ topologyId: event.target.value, logsSelector: undefined })}
          className="min-w-56"
        />
        <SelectField
          label={LOGS_TEXTS.selectorLabel}
          value={selectorName}
          options={selectors.map((selector) => ({ value: selector.name, label: selector.name }))}
          onChange={(event) => update({ logsSelector: event.target.value })}
          disabled={selectors.length === 0}
          className="min-w-40"
        />
        <SearchBox
          value={query}
          onChange={(text) => update({ query: text.trim() || undefined })}
          placeholder={LOGS_TEXTS.queryPlaceholder}
          debounceMs={LOGS_UI.queryDebounceMs}
          className="min-w-64 flex-1"
        />
        <TimeRangePicker value={rangeOfParams(start, end)} onChange={setRange} />
        {renderLink && (
          <Button variant="secondary" disabled={chosen.length === 0} onClick={() => setLinking(true)}>
            <Siren aria-hidden className="size-4" />
            {LOGS_TEXTS.attach}
            {chosen.length > 0 ? ` (${chosen.length})` : ''}
          </Button>
        )}
      </div>
      {lines.isError && (
        <p role="alert" className="text-sm text-red-700">
          {LOGS_TEXTS.loadFailed}: {getErrorMessage(lines.error)}
        </p>
      )}
      {lines.data && (
        <p className="text-xs text-slate-500" aria-live="polite">
          {`${lines.data.results.length} of ${lines.data.total} lines`}
        </p>
      )}
      <LogsTable
        lines={request ? results : []}
        selected={selected}
        onToggle={toggle}
        emptyMessage={request ? LOGS_TEXTS.noMatches : LOGS_TEXTS.selectComponent}
      />
      {renderLink?.({
        evidence: logEvidence(chosen, componentId, selectorName),
        open: linking,
        onOpenChange: (open) => {
          setLinking(open);
          if (!open) setSelected(new Set());
        },
      })}
    </div>
  );
}
