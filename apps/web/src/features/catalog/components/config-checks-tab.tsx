import { CONFIG_CHECKS_TAB_TEXTS as TEXTS } from '@lookout/contracts';
import { Link } from 'react-router';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { MISSING_VALUE, formatDateTime } from '@/lib/format';
import { useConfigChecks } from '../api/config-tabs-api';
import { HealthDot } from '@/components/ui/health-dot';

/** The item's Checks tab: the checks linked to it, each opening its drawer on the health page. */
export function ConfigChecksTab({ configId }: { configId: string }) {
  const checks = useConfigChecks(configId, true);
  if (checks.isError) return <ErrorPanel error={checks.error} onRetry={() => void checks.refetch()} />;
  if (!checks.data) return <p className="p-4 text-sm text-slate-500">{TEXTS.loading}</p>;
  if (checks.data.length === 0) return <p className="p-8 text-center text-slate-600">{TEXTS.empty}</p>;
  return (
    <table className="mt-2 w-full text-left text-sm">
      <thead className="border-b border-slate-200 text-xs text-slate-500">
        <tr>
          <th className="px-2 py-1.5 font-medium">{TEXTS.columns.name}</th>
          <th className="px-2 py-1.5 font-medium">{TEXTS.columns.status}</th>
          <th className="px-2 py-1.5 font-medium">{TEXTS.columns.severity}</th>
          <th className="px-2 py-1.5 font-medium">{TEXTS.columns.lastRun}</th>
        </tr>
      </thead>
      <tbody>
        {checks.data.map((check) => (
          <tr key={check.id} className="border-b border-slate-100 hover:bg-slate-50">
            <td className="px-2 py-1.5">
              <Link to={`/health?checkId=${check.id}`} className="text-blue-700 hover:underline">
                {check.name}
              </Link>
              {check.type && <span className="ml-2 text-xs text-slate-500">{check.type}</span>}
            </td>
            <td className="px-2 py-1.5">
              <span className="inline-flex items-center gap-1.5">
                <HealthDot health={check.status} />
                {check.status ?? MISSING_VALUE}
              </span>
            </td>
            <td className="px-2 py-1.5">{check.severity ?? MISSING_VALUE}</td>
            <td className="px-2 py-1.5 tabular-nums">{formatDateTime(check.last_runtime)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
