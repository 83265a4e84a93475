import { NEW_SETTINGS_RESOURCE_ID, SETTINGS_RESOURCE_TEXTS, type SettingsResourceDefinition } from '@lookout/contracts';
import { Plus } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { buttonClasses } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { settingsListColumnDefs } from './settings-list-columns';
import { settingsResourceHooks, type SettingsListRow } from './settings-resource-hooks';

export interface SettingsResourceListProps {
  /** Which resource (`SETTINGS_RESOURCES[table]` from the contracts). */
  resource: SettingsResourceDefinition;
  /** Write on the resource's permission: the add button (spec 3 section 2.6). */
  canWrite: boolean;
  /** Where rows and the add button lead (`{basePath}/{id}`); the resource's path by default. */
  basePath?: string;
  /** Shown above the table, e.g. an area's tabs. */
  children?: ReactNode;
}

const NO_ROWS: readonly SettingsListRow[] = [];

/**
 * `/settings/{table}` (spec 3 section 2.6, ui-calls 3.10): the live rows of a settings table,
 * newest first, at most 100, with the generic columns less those its table hides; a row opens
 * `/settings/{table}/{id}`, and the add button (write only) `/settings/{table}/new`.
 */
export function SettingsResourceList({
  resource,
  canWrite,
  basePath = resource.path,
  children,
}: SettingsResourceListProps) {
  const list = settingsResourceHooks(resource).useList();
  const navigate = useNavigate();
  const columns = useMemo(() => settingsListColumnDefs(resource.columns), [resource.columns]);
  return (
    <div className="flex flex-col gap-3">
      <PageHeader
        title={resource.title}
        actions={
          canWrite ? (
            <Link to={`${basePath}/${NEW_SETTINGS_RESOURCE_ID}`} className={buttonClasses('primary')}>
              <Plus aria-hidden className="size-4" />
              {resource.add}
            </Link>
          ) : undefined
        }
        onRefresh={() => void list.refetch()}
        isLoading={list.isFetching}
      />
      {children}
      {list.isError && !list.data ? (
        <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable
          columns={columns}
          data={list.data ?? NO_ROWS}
          getRowId={(row) => row.id}
          isLoading={list.isPending}
          onRowClick={(row) => void navigate(`${basePath}/${encodeURIComponent(row.id)}`)}
          aria-label={resource.title}
          className="rounded-lg border border-slate-200 bg-white"
        />
      )}
      {list.isError && list.data && (
        <p role="alert" className="text-sm text-red-700">
          {SETTINGS_RESOURCE_TEXTS.listError}
        </p>
      )}
    </div>
  );
}
