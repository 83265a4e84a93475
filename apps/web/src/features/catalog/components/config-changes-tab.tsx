import { CATALOG_TEXTS } from '@lookout/contracts';
import { useState } from 'react';
import { formatDateTime } from '@/lib/format';
import { useConfigChanges } from '../api/config-detail-api';
import { ChangeDialog } from './change-dialog';

/** The item's changes of the last 30 days; a row opens the change dialog. */
export function ConfigChangesTab({ configId }: { configId: string }) {
  const changes = useConfigChanges(configId, true);
  const [opened, setOpened] = useState<string | null>(null);
  const rows = changes.data?.changes ?? [];
  if (changes.isSuccess && rows.length === 0)
    return <p className="p-4 text-sm text-slate-500">{CATALOG_TEXTS.noChanges}</p>;
  return (
    <>
      <table className="w-full text-sm" aria-label={CATALOG_TEXTS.tabs.changes}>
        <thead className="bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            <th className="px-2 py-1.5">{CATALOG_TEXTS.change.createdAt}</th>
            <th className="px-2 py-1.5">{CATALOG_TEXTS.columns.type}</th>
            <th className="px-2 py-1.5">{CATALOG_TEXTS.change.severity}</th>
            <th className="px-2 py-1.5">{CATALOG_TEXTS.change.source}</th>
            <th className="px-2 py-1.5">{CATALOG_TEXTS.change.details}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.id}
              className="cursor-pointer border-t border-slate-100 hover:bg-blue-50/50"
              onClick={() => setOpened(row.id)}
            >
              <td className="whitespace-nowrap px-2 py-1.5 tabular-nums text-slate-600">
                {formatDateTime(row.created_at)}
              </td>
              <td className="px-2 py-1.5 font-medium">
                {row.change_type}
                {row.count > 1 && <span className="ml-1 text-xs text-slate-500">×{row.count}</span>}
              </td>
              <td className="px-2 py-1.5">{row.severity}</td>
              <td className="px-2 py-1.5">{row.source}</td>
              <td className="px-2 py-1.5 text-slate-700">{row.summary}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ChangeDialog configId={configId} changeId={opened} onClose={() => setOpened(null)} />
    </>
  );
}
