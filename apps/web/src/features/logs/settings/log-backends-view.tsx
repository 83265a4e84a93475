import { LOG_BACKENDS_SETTINGS_PATH, LOGS_TEXTS, TOPOLOGY_SETTINGS_TEXTS } from '@lookout/contracts';
import { Plus } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { buttonClasses } from '@/components/ui/button';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import { useLogBackends, type LogBackendRow } from './log-backends-api';
import { labelsText } from './log-backend-fields';

export const NEW_LOG_BACKEND_ID = 'new';
const col = createDataTableColumnHelper<LogBackendRow>();
// The generic settings columns (spec 3 section 2.6); Schedule and Namespace are hidden for log
// backends, and they have no runs, so the job columns are left out too.
const texts = TOPOLOGY_SETTINGS_TEXTS.columns;
const NONE: readonly LogBackendRow[] = [];

/** `/settings/logging_backends`: the list; Add needs write on logging_backends. */
export function LogBackendsView({ canWrite }: { canWrite: boolean }) {
  const list = useLogBackends();
  const navigate = useNavigate();
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: texts.name, size: 240, meta: { cellClassName: 'font-medium text-slate-900' } }),
        col.accessor('source', { header: texts.source, size: 120 }),
        col.accessor((row) => labelsText(row.labels), { id: 'tags', header: texts.tags, size: 220 }),
        col.accessor('created_at', { header: texts.created, cell: (info) => formatDateTime(info.getValue()) }),
        col.accessor('updated_at', { header: texts.updated, cell: (info) => formatDateTime(info.getValue()) }),
        col.accessor((row) => row.created_by?.name ?? MISSING_VALUE, { id: 'created_by', header: texts.createdBy }),
      ]),
    [],
  );
  return (
    <div className="flex flex-col gap-3 p-4">
      <PageHeader
        title={LOGS_TEXTS.backendsTitle}
        actions={
          canWrite ? (
            <Link to={`${LOG_BACKENDS_SETTINGS_PATH}/${NEW_LOG_BACKEND_ID}`} className={buttonClasses('primary')}>
              <Plus aria-hidden className="size-4" />
              {LOGS_TEXTS.addBackend}
            </Link>
          ) : undefined
        }
        onRefresh={() => void list.refetch()}
        isLoading={list.isFetching}
      />
      <DataTable
        columns={columns}
        data={list.data ?? NONE}
        getRowId={(row) => row.id}
        isLoading={list.isPending}
        onRowClick={(row) => void navigate(`${LOG_BACKENDS_SETTINGS_PATH}/${encodeURIComponent(row.id)}`)}
        aria-label={LOGS_TEXTS.backendsTitle}
        className="rounded-lg border border-slate-200 bg-white"
      />
      {list.isError && (
        <p role="alert" className="text-sm text-red-700">
          {TOPOLOGY_SETTINGS_TEXTS.listError}
        </p>
      )}
    </div>
  );
}
