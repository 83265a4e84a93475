import { CATALOG_CHANGES_TEXTS, type CatalogChangeRow } from '@lookout/contracts';
import { Link } from 'react-router';
import { createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';

const texts = CATALOG_CHANGES_TEXTS.columns;
const col = createDataTableColumnHelper<CatalogChangeRow>();

const SEVERITY_CLASS: Record<string, string> = {
  critical: 'text-red-700 font-medium',
  blocker: 'text-red-700 font-medium',
  high: 'text-red-600',
  medium: 'text-orange-600',
  warning: 'text-orange-600',
};

/** Columns of the changes list; `withCatalog` adds the item (all changes, or related items). */
export function changesColumns(withCatalog: boolean) {
  return col.columns([
    col.accessor('created_at', {
      header: texts.createdAt,
      size: 150,
      cell: (info) => <span title={info.getValue()}>{formatDateTime(info.getValue())}</span>,
      meta: { cellClassName: 'whitespace-nowrap tabular-nums text-slate-600' },
    }),
    ...(withCatalog
      ? [
          col.accessor('name', {
            header: texts.catalog,
            size: 220,
            cell: (info) => {
              const row = info.row.original;
              return (
                <span className="flex min-w-0 flex-col">
                  <Link
                    to={`/catalog/${row.config_id}`}
                    // The row opens the change; the link opens the item.
                    onClick={(event) => event.stopPropagation()}
                    className="truncate text-sky-700 hover:underline"
                    title={row.name ?? row.config_id}
                  >
                    {row.name ?? row.config_id}
                  </Link>
                  <span className="truncate text-xs text-slate-500">{row.type}</span>
                </span>
              );
            },
          }),
        ]
      : []),
    col.accessor('change_type', {
      header: texts.changeType,
      size: 150,
      cell: (info) => (
        <span className="font-medium text-slate-900">
          {info.getValue()}
          {info.row.original.count > 1 && (
            <span className="ml-1 text-xs font-normal text-slate-500">×{info.row.original.count}</span>
          )}
        </span>
      ),
    }),
    col.accessor('summary', {
      header: texts.summary,
      size: 360,
      cell: (info) => (
        <span className="line-clamp-2 text-slate-700" title={info.getValue() ?? undefined}>
          {info.getValue() ?? MISSING_VALUE}
        </span>
      ),
    }),
    col.accessor('severity', {
      header: texts.severity,
      size: 90,
      cell: (info) => (
        <span className={SEVERITY_CLASS[info.getValue() ?? ''] ?? ''}>{info.getValue() ?? MISSING_VALUE}</span>
      ),
    }),
    col.accessor('source', { header: texts.source, size: 120, cell: (info) => info.getValue() ?? MISSING_VALUE }),
    col.accessor('created_by', {
      header: texts.createdBy,
      size: 140,
      cell: (info) => info.row.original.external_created_by ?? info.getValue() ?? MISSING_VALUE,
    }),
  ]);
}
