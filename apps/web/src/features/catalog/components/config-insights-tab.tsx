import { CATALOG_TEXTS } from '@lookout/contracts';
import { formatDateTime } from '@/lib/format';
import { useConfigInsights } from '../api/config-detail-api';

/** Insight messages in lists are cut at 500 characters (spec 3 section 2.1). */
const MESSAGE_LIMIT = 500;
const cut = (text: string | null) =>
  text && text.length > MESSAGE_LIMIT ? `${text.slice(0, MESSAGE_LIMIT)}…` : (text ?? '');

/** The item's insights (analysis findings). */
export function ConfigInsightsTab({ configId }: { configId: string }) {
  const insights = useConfigInsights(configId, true);
  const rows = insights.data ?? [];
  if (insights.isSuccess && rows.length === 0)
    return <p className="p-4 text-sm text-slate-500">{CATALOG_TEXTS.noInsights}</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm" aria-label={CATALOG_TEXTS.tabs.insights}>
      {rows.map((row) => (
        <li key={row.id} className="flex flex-col gap-0.5 px-2 py-2">
          <span className="flex gap-2">
            <span className="font-medium">{row.analyzer}</span>
            <span className="text-slate-500">{row.analysis_type}</span>
            <span className="text-slate-500">{row.severity}</span>
            <span className="text-slate-500">{row.status}</span>
            <span className="ml-auto text-xs tabular-nums text-slate-500">{formatDateTime(row.first_observed)}</span>
          </span>
          <span className="text-slate-700">{cut(row.message)}</span>
        </li>
      ))}
    </ul>
  );
}
