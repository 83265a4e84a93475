import { SECRETS_PAGE_TEXTS } from '@lookout/contracts';
import type { SecretStoreEntry } from '@lookout/contracts';
import { clsx } from 'clsx';
import { useMemo } from 'react';
import { DataTable, createDataTableColumnHelper } from '@/components/ui/data-table';
import { formatDateTime } from '@/lib/format';

export interface SecretsTableProps {
  entries: readonly SecretStoreEntry[] | undefined;
  isLoading: boolean;
  onOpen: (entry: SecretStoreEntry) => void;
}

const NO_ENTRIES: readonly SecretStoreEntry[] = [];
const col = createDataTableColumnHelper<SecretStoreEntry>();

function KindBadge({ kind }: { kind: SecretStoreEntry['kind'] }) {
  return (
    <span
      className={clsx(
        'rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        kind === 'secret' ? 'bg-violet-50 text-violet-800 ring-violet-200' : 'bg-sky-50 text-sky-800 ring-sky-200',
      )}
    >
      {SECRETS_PAGE_TEXTS.kinds[kind]}
    </span>
  );
}

/**
 * Secrets and config maps: name, namespace, kind, the key names (never a secret's values),
 * source and when it last changed. A row click opens the entry's editor.
 */
export function SecretsTable({ entries, isLoading, onOpen }: SecretsTableProps) {
  const { columns: texts } = SECRETS_PAGE_TEXTS;
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: texts.name,
          cell: (info) => <span className="font-mono text-xs font-medium text-slate-900">{info.getValue()}</span>,
        }),
        col.accessor('namespace', {
          header: texts.namespace,
          cell: (info) => <span className="font-mono text-xs">{info.getValue()}</span>,
        }),
        col.accessor('kind', { header: texts.kind, cell: (info) => <KindBadge kind={info.getValue()} /> }),
        col.accessor((entry) => entry.keys.map((key) => key.key).join(', '), {
          id: 'keys',
          header: texts.keys,
          size: 320,
          cell: (info) => <span className="font-mono text-xs break-all text-slate-600">{info.getValue()}</span>,
        }),
        col.accessor('source', { header: texts.source }),
        col.accessor('updated_at', {
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
      data={entries ?? NO_ENTRIES}
      getRowId={(entry) => entry.id}
      isLoading={isLoading}
      onRowClick={onOpen}
      emptyMessage={SECRETS_PAGE_TEXTS.empty}
      aria-label={SECRETS_PAGE_TEXTS.title}
      className="rounded-lg border border-slate-200 bg-white"
    />
  );
}
