import { PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { ListChecks } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { formatDateTime, formatDuration } from '@/lib/format';
import type { RunRow } from '../api/run-api';
import { playbookRunsPath } from '../lib/playbook-paths';
import { playbookTitle } from '../lib/playbook-group-fns';
import { elapsedMs, queuedMs } from '../lib/run-fns';
import { RunResource, triggeredBy } from './run-resource';
import { RunStatusBadge } from './run-status-badge';

const texts = PLAYBOOK_UI_TEXTS.runDetail;

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="truncate text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** The parameters a run was started with, in a popup. */
function ParametersButton({ parameters }: { parameters: Record<string, unknown> | null | undefined }) {
  const [open, setOpen] = useState(false);
  const entries = Object.entries(parameters ?? {});
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <ListChecks aria-hidden className="size-4" />
        {texts.parameters}
      </Button>
      <Modal open={open} onOpenChange={setOpen} title={texts.parameters}>
        {entries.length === 0 ? (
          <p className="text-sm text-slate-600">{texts.noParameters}</p>
        ) : (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            {entries.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="font-medium text-slate-700">{name}</dt>
                <dd className="font-mono break-all whitespace-pre-wrap text-slate-900">
                  {typeof value === 'string' ? value : JSON.stringify(value)}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </Modal>
    </>
  );
}

export interface RunHeaderProps {
  run: RunRow;
  now: number;
  /** Re-run, Approve, Cancel and Download logs, by permission and state. */
  actions: ReactNode;
}

/**
 * The run detail header (spec 2 section 2.5): playbook, status, started, scheduled, duration,
 * queued, triggered by, the resource, a parameters popup and the run's commands.
 */
export function RunHeader({ run, now, actions }: RunHeaderProps) {
  return (
    <section aria-label="Run" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-8">
        <Item label={texts.playbook}>
          <Link to={playbookRunsPath(run.playbook_id)} className="text-sky-700 hover:underline">
            {run.playbooks ? playbookTitle(run.playbooks) : run.playbook_id}
          </Link>
        </Item>
        <Item label={texts.status}>
          <RunStatusBadge status={run.status} />
        </Item>
        <Item label={texts.started}>{formatDateTime(run.start_time)}</Item>
        <Item label={texts.scheduled}>{formatDateTime(run.scheduled_time)}</Item>
        <Item label={texts.duration}>{formatDuration(elapsedMs(run.start_time, run.end_time, now))}</Item>
        <Item label={texts.queued}>{formatDuration(queuedMs(run.created_at, run.start_time))}</Item>
        <Item label={texts.triggeredBy}>{triggeredBy(run, texts.system)}</Item>
        <Item label={texts.resource}>
          <RunResource run={run} />
        </Item>
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <ParametersButton parameters={run.parameters} />
        {actions}
      </div>
    </section>
  );
}
