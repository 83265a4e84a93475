import {
  CHECK_DRAWER_TEXTS,
  STATUS_HISTORY_DURATIONS,
  STATUS_HISTORY_PAGE_SIZE,
  type CheckStatusRow,
} from '@lookout/contracts';
import type { PaginationState } from '@tanstack/react-table';
import { useEffect, useId, useMemo, useState } from 'react';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { formClasses } from '@/components/ui/form-field';
import type { TimeRange } from '@/components/ui/time-range-picker';
import { toastError } from '@/lib/api-client';
import { MISSING_VALUE, formatDateTime, formatDuration } from '@/lib/format';
import { useCheckStatuses } from '../../api/get-check-statuses';
import { parseDurationFilter } from '@/components/ui/duration-filter-fns';
import { StatusDot } from '../status-dot';

export interface StatusHistoryProps {
  checkId: string;
  range: TimeRange;
  /** The dashboard's refresh rate, so new runs appear while the drawer is open. */
  refetchInterval: number | false;
}

type StatusChoice = 'all' | 'healthy' | 'unhealthy';
const CUSTOM = 'custom';
const { history: texts } = CHECK_DRAWER_TEXTS;
const col = createDataTableColumnHelper<CheckStatusRow>();
const NO_ROWS: readonly CheckStatusRow[] = [];

const selectClass =
  'h-8 rounded border border-gray-300 bg-white px-2 text-sm text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-500';

/**
 * The drawer's History tab (spec 2 sections 2.3, 5 and 9): the check's runs in the time range,
 * newest first, 50 a page, filtered by status (Healthy is 1, Unhealthy 0) and by a minimum
 * duration (All, 100ms … 30s, or a custom value in ms or s).
 */
export function StatusHistory({ checkId, range, refetchInterval }: StatusHistoryProps) {
  const [status, setStatus] = useState<StatusChoice>('all');
  const [durationChoice, setDurationChoice] = useState<string>('all');
  const [customDuration, setCustomDuration] = useState('');
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: STATUS_HISTORY_PAGE_SIZE });
  const statusId = useId();
  const durationId = useId();
  const customId = useId();

  const durationText = durationChoice === CUSTOM ? customDuration : durationChoice;
  const duration = parseDurationFilter(durationText);
  const invalidDuration = duration.kind === 'invalid';

  const statuses = useCheckStatuses(
    {
      checkId,
      range,
      status: status === 'all' ? undefined : status === 'healthy',
      // An invalid custom value leaves the last valid filter in place while it is being typed.
      minDurationMs: duration.kind === 'min' ? duration.ms : undefined,
      pageIndex: pagination.pageIndex,
      pageSize: pagination.pageSize,
    },
    refetchInterval,
  );

  // Spec 2 section 8: a status history error is toasted with its message.
  const { error } = statuses;
  useEffect(() => {
    if (error) toastError(error);
  }, [error]);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('time', {
          header: texts.columns.time,
          cell: (info) => formatDateTime(info.getValue()),
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
          enableSorting: false,
        }),
        col.accessor('duration', {
          header: texts.columns.duration,
          cell: (info) => formatDuration(info.getValue()),
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
          enableSorting: false,
        }),
        col.accessor((row) => row.error || row.message || '', {
          id: 'message',
          header: texts.columns.message,
          cell: (info) => (
            <span className="line-clamp-2 break-all" title={info.getValue()}>
              {info.getValue() || MISSING_VALUE}
            </span>
          ),
          meta: { cellClassName: 'w-full text-slate-700' },
          enableSorting: false,
        }),
        col.accessor('status', {
          header: texts.columns.status,
          cell: (info) => <StatusDot status={info.getValue() ? 'healthy' : 'unhealthy'} />,
          enableSorting: false,
        }),
      ]),
    [],
  );

  const firstPage = (update: () => void) => {
    update();
    setPagination((current) => ({ ...current, pageIndex: 0 }));
  };
  const total = statuses.data?.total ?? 0;

  return (
    <div className="flex min-h-0 flex-col gap-3">
      <div className="flex flex-wrap items-start gap-3">
        <div className="flex items-center gap-2">
          <label htmlFor={statusId} className="text-sm text-slate-600">
            {texts.status}
          </label>
          <select
            id={statusId}
            value={status}
            onChange={(event) => firstPage(() => setStatus(event.target.value as StatusChoice))}
            className={selectClass}
          >
            <option value="all">{texts.statusAll}</option>
            <option value="healthy">{texts.healthy}</option>
            <option value="unhealthy">{texts.unhealthy}</option>
          </select>
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={durationId} className="text-sm text-slate-600">
            {texts.duration}
          </label>
          <select
            id={durationId}
            value={durationChoice}
            onChange={(event) => firstPage(() => setDurationChoice(event.target.value))}
            className={selectClass}
          >
            <option value="all">{texts.durationAll}</option>
            {STATUS_HISTORY_DURATIONS.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
            <option value={CUSTOM}>{texts.durationCustom}</option>
          </select>
        </div>
        {durationChoice === CUSTOM && (
          <div className="flex flex-col">
            <input
              id={customId}
              value={customDuration}
              onChange={(event) => firstPage(() => setCustomDuration(event.target.value))}
              aria-label={texts.customDuration}
              aria-invalid={invalidDuration || undefined}
              aria-describedby={invalidDuration ? `${customId}-error` : undefined}
              placeholder="250ms, 2s"
              className={`${formClasses.control} h-8 w-36 py-1`}
            />
            {invalidDuration && (
              <p id={`${customId}-error`} role="alert" className={formClasses.error}>
                {texts.durationError}
              </p>
            )}
          </div>
        )}
      </div>
      <DataTable
        columns={columns}
        data={statuses.data?.rows ?? NO_ROWS}
        isLoading={statuses.isPending}
        pagination={{
          mode: 'remote',
          state: pagination,
          pageCount: Math.max(1, Math.ceil(total / pagination.pageSize)),
          onChange: setPagination,
        }}
        aria-label={texts.table}
      />
    </div>
  );
}
