import { AGENTS_TEXTS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Avatar } from '@/components/ui/avatar';
import { createDataTableColumnHelper } from '@/components/ui/data-table';
import { formatDateTime } from '@/lib/format';
import type { AgentSummaryRow } from '../api/agent-types';
import { backlogAgeMs, coarseAge } from '../lib/agent-list-params';

const texts = AGENTS_TEXTS.columns;
const col = createDataTableColumnHelper<AgentSummaryRow>();
const numeric = { cellClassName: 'text-right tabular-nums', headerClassName: 'text-right' };
const time = { cellClassName: 'whitespace-nowrap tabular-nums' };

/**
 * Online or Offline by the 60 s rule (spec 2 section 4), nothing before the first sighting;
 * under it, beyond the original, the backlog the agent last reported when rows wait.
 */
function StatusCell({ agent }: { agent: AgentSummaryRow }) {
  const label = AGENTS_TEXTS.status[agent.status];
  const queued = agent.push_queue_length ?? 0;
  const age = backlogAgeMs(agent.push_oldest_unpushed_at, Date.now());
  return (
    <span className="flex flex-col gap-0.5">
      {label && (
        <span
          title={AGENTS_TEXTS.onlineHint}
          className={clsx(
            'inline-flex w-fit items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium',
            agent.status === 'online' ? 'bg-green-50 text-green-800' : 'bg-slate-100 text-slate-700',
          )}
        >
          <span
            aria-hidden
            className={clsx('size-1.5 rounded-full', agent.status === 'online' ? 'bg-green-600' : 'bg-slate-400')}
          />
          {label}
        </span>
      )}
      {queued > 0 && (
        <span className="text-xs whitespace-nowrap text-amber-800" title={AGENTS_TEXTS.backlogTitle}>
          {AGENTS_TEXTS.backlog(queued, age === undefined ? undefined : coarseAge(age))}
        </span>
      )}
    </span>
  );
}

/**
 * The columns of spec 2 section 2.6. Ids are `agents_summary` columns, so the sortable ones
 * (name, status, last received, created, updated) are the server's order keys.
 */
export const agentColumns = () =>
  col.columns([
    col.accessor('name', {
      header: texts.name,
      size: 200,
      cell: (info) => <span className="font-medium whitespace-nowrap text-slate-900">{info.getValue()}</span>,
    }),
    col.accessor('config_count', { header: texts.configs, size: 90, enableSorting: false, meta: numeric }),
    col.accessor('checks_count', { header: texts.checks, size: 90, enableSorting: false, meta: numeric }),
    col.accessor('config_scrapper_count', { header: texts.scrapers, size: 90, enableSorting: false, meta: numeric }),
    col.accessor('playbook_runs_count', { header: texts.playbookRuns, size: 110, enableSorting: false, meta: numeric }),
    col.accessor('status', {
      header: texts.status,
      size: 170,
      cell: (info) => <StatusCell agent={info.row.original} />,
    }),
    col.accessor('last_received', {
      header: texts.lastPushed,
      size: 140,
      cell: (info) => formatDateTime(info.getValue() ?? null),
      meta: time,
    }),
    col.accessor('created_at', {
      header: texts.createdAt,
      size: 140,
      cell: (info) => formatDateTime(info.getValue()),
      meta: time,
    }),
    col.accessor('updated_at', {
      header: texts.updatedAt,
      size: 140,
      cell: (info) => formatDateTime(info.getValue()),
      meta: time,
    }),
    col.display({
      id: 'created_by',
      header: texts.createdBy,
      size: 150,
      cell: (info) => {
        const person = info.row.original.created_by;
        if (!person) return '';
        return (
          <span className="flex items-center gap-2">
            <Avatar name={person.name} src={person.avatar} />
            <span className="truncate">{person.name}</span>
          </span>
        );
      },
    }),
  ]);
