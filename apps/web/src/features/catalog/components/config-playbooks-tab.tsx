import { CONFIG_PLAYBOOKS_TAB_TEXTS as TEXTS } from '@lookout/contracts';
import { Link } from 'react-router';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { MISSING_VALUE, formatDateTime, formatDuration } from '@/lib/format';
import { useConfigPlaybookRuns, type ConfigPlaybookRun } from '../api/config-tabs-api';

/** A run's duration: end minus start, or up to now while it runs; '-' before it starts. */
export function runDurationMs(run: Pick<ConfigPlaybookRun, 'start_time' | 'end_time'>, now: Date): number | null {
  if (!run.start_time) return null;
  const end = run.end_time ? new Date(run.end_time) : now;
  return end.getTime() - new Date(run.start_time).getTime();
}

/** The item's Playbooks tab: its playbook runs, newest first, each opening the run page. */
export function ConfigPlaybooksTab({ configId }: { configId: string }) {
  const runs = useConfigPlaybookRuns(configId, true);
  if (runs.isError) return <ErrorPanel error={runs.error} onRetry={() => void runs.refetch()} />;
  if (!runs.data) return <p className="p-4 text-sm text-slate-500">{TEXTS.loading}</p>;
  if (runs.data.length === 0) return <p className="p-8 text-center text-slate-600">{TEXTS.empty}</p>;
  const now = new Date();
  return (
    <table className="mt-2 w-full text-left text-sm">
      <thead className="border-b border-slate-200 text-xs text-slate-500">
        <tr>
          <th className="px-2 py-1.5 font-medium">{TEXTS.columns.status}</th>
          <th className="px-2 py-1.5 font-medium">{TEXTS.columns.playbook}</th>
          <th className="px-2 py-1.5 font-medium">{TEXTS.columns.started}</th>
          <th className="px-2 py-1.5 font-medium">{TEXTS.columns.duration}</th>
        </tr>
      </thead>
      <tbody>
        {runs.data.map((run) => (
          <tr key={run.id} className="border-b border-slate-100 hover:bg-slate-50">
            <td className="px-2 py-1.5">
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">
                {run.status}
              </span>
            </td>
            <td className="px-2 py-1.5">
              <Link to={`/playbooks/runs/${run.id}`} className="text-blue-700 hover:underline">
                {run.playbooks?.title || run.playbooks?.name || MISSING_VALUE}
              </Link>
            </td>
            <td className="px-2 py-1.5 tabular-nums">{formatDateTime(run.start_time)}</td>
            <td className="px-2 py-1.5 tabular-nums">{formatDuration(runDurationMs(run, now))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
