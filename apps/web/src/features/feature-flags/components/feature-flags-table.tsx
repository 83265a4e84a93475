import { FEATURE_FLAGS_PAGE_TEXTS } from '@lookout/contracts';
import type { Property } from '@lookout/contracts';
import { clsx } from 'clsx';
import { useMemo } from 'react';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';

export interface FeatureFlagsTableProps {
  properties: readonly Property[] | undefined;
  isLoading: boolean;
  onOpen: (property: Property) => void;
}

const NO_PROPERTIES: readonly Property[] = [];
const col = createDataTableColumnHelper<Property>();

export function SourceBadge({ source }: { source: Property['source'] }) {
  return (
    <span
      className={clsx(
        'rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        source === 'local' ? 'bg-amber-50 text-amber-800 ring-amber-200' : 'bg-slate-50 text-slate-700 ring-slate-200',
      )}
    >
      {source}
    </span>
  );
}

/**
 * The Feature Flags list (spec 3, sections 2.8 and 3): name, value, description, source,
 * author, created and updated. A row click opens the flag (read-only when it is local).
 */
export function FeatureFlagsTable({ properties, isLoading, onOpen }: FeatureFlagsTableProps) {
  const { columns: texts } = FEATURE_FLAGS_PAGE_TEXTS;
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: texts.name,
          cell: (info) => <span className="font-mono text-xs font-medium text-slate-900">{info.getValue()}</span>,
        }),
        col.accessor('value', {
          header: texts.value,
          cell: (info) => <span className="font-mono text-xs break-all">{info.getValue()}</span>,
        }),
        col.accessor((property) => property.description ?? '', {
          id: 'description',
          header: texts.description,
          // The one column with prose in it; the others are short.
          size: 360,
          cell: (info) => <span className="text-slate-600">{info.getValue() || MISSING_VALUE}</span>,
        }),
        col.accessor('source', { header: texts.source, cell: (info) => <SourceBadge source={info.getValue()} /> }),
        col.accessor((property) => property.created_by?.name ?? '', {
          id: 'created_by',
          header: texts.createdBy,
          cell: (info) => info.getValue() || MISSING_VALUE,
        }),
        col.accessor((property) => property.created_at ?? '', {
          id: 'created_at',
          header: texts.createdAt,
          cell: (info) => formatDateTime(info.getValue()),
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
        }),
        col.accessor((property) => property.updated_at ?? '', {
          id: 'updated_at',
          header: texts.updatedAt,
          cell: (info) => formatDateTime(info.getValue()),
          meta: { cellClassName: 'whitespace-nowrap tabular-nums' },
        }),
      ]),
    [texts],
  );

  return (
    <DataTable
      columns={columns}
      data={properties ?? NO_PROPERTIES}
      getRowId={(property) => `${property.source}:${property.name}`}
      isLoading={isLoading}
      onRowClick={onOpen}
      aria-label={FEATURE_FLAGS_PAGE_TEXTS.title}
      className="rounded-lg border border-slate-200 bg-white"
    />
  );
}
