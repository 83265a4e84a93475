import { PLAYBOOK_TEXTS, PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { ArrowLeft, Check, Download, RotateCcw, Square } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { approveRun, cancelRun, rerunRun, useDownloadLogs, useRunCommand } from '../api/run-commands';
import { useRun } from '../api/run-queries';
import { useTickingNow } from '../hooks/use-ticking-now';
import { RUNS_PATH, runPath } from '../lib/playbook-paths';
import { INITIALIZATION_STEP_ID, isRunFinal, runSteps } from '../lib/run-fns';
import { RunHeader } from './run-header';
import { RunSteps } from './run-steps';
import { StepOutputPane } from './step-output';

const texts = PLAYBOOK_UI_TEXTS.runDetail;

export interface PlaybookRunPageProps {
  id: string;
  /** Write on playbook_runs: re-run, approve and cancel (spec 2 section 6). */
  canRun: boolean;
}

/**
 * `/playbooks/runs/{id}` (spec 2 sections 2.5 and 4): the header, the steps and the selected
 * step's output, polled every 2 s (output every 1 s) until the run ends. A run just started
 * may not be visible yet; the page keeps polling until it is.
 */
export function PlaybookRunPage({ id, canRun }: PlaybookRunPageProps) {
  const navigate = useNavigate();
  const { run, actions } = useRun(id);
  const now = useTickingNow(!isRunFinal(run.data?.status));
  const [selected, setSelected] = useState<string>();
  const rerun = useRunCommand(rerunRun);
  const approve = useRunCommand(approveRun);
  const cancel = useRunCommand(cancelRun);
  const download = useDownloadLogs();

  const row = run.data;
  const steps = row ? runSteps(row, actions.data ?? []) : [];
  // Until the user picks one, the output pane shows the run's own error, else follows the
  // latest step that started.
  const selectedStep =
    steps.find((step) => step.id === selected) ??
    steps.find((step) => step.id === INITIALIZATION_STEP_ID) ??
    [...steps].reverse().find((step) => step.start_time) ??
    steps[0];

  const header = (
    <>
      <PageHeader title={PLAYBOOK_UI_TEXTS.runsTitle} onRefresh={() => void run.refetch()} isLoading={run.isFetching} />
      <Link to={RUNS_PATH} className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
        <ArrowLeft aria-hidden className="size-4" />
        {PLAYBOOK_UI_TEXTS.runsTitle}
      </Link>
    </>
  );

  if (run.isError && !row) {
    return (
      <div className="flex flex-col gap-4 p-4">
        {header}
        <ErrorPanel error={run.error} onRetry={() => void run.refetch()} />
      </div>
    );
  }
  if (!row) {
    return (
      <div className="flex flex-col gap-4 p-4">
        {header}
        <p role="status" className="text-sm text-slate-500">
          Loading
        </p>
      </div>
    );
  }

  const final = isRunFinal(row.status);
  const commands = (
    <>
      {canRun && row.status === 'pending_approval' && (
        <Button
          disabled={approve.isPending}
          onClick={() =>
            approve.mutate(row.id, { onSuccess: () => toast.success(texts.approved), onError: toastError })
          }
        >
          <Check aria-hidden className="size-4" />
          {texts.approve}
        </Button>
      )}
      {canRun && !final && (
        <Button
          variant="secondary"
          disabled={cancel.isPending}
          onClick={() =>
            cancel.mutate(row.id, { onSuccess: () => toast.success(texts.cancelled), onError: toastError })
          }
        >
          <Square aria-hidden className="size-4" />
          {texts.cancel}
        </Button>
      )}
      {canRun && (
        <Button
          variant="secondary"
          disabled={rerun.isPending}
          onClick={() =>
            rerun.mutate(row.id, { onSuccess: (response) => void navigate(runPath(response.id)), onError: toastError })
          }
        >
          <RotateCcw aria-hidden className="size-4" />
          {PLAYBOOK_TEXTS.rerun}
        </Button>
      )}
    </>
  );

  return (
    <div className="flex min-h-0 flex-col gap-4 p-4">
      {header}
      <RunHeader run={row} now={now} actions={commands} />
      <div className="grid min-h-0 grid-cols-1 gap-4 md:grid-cols-[18rem_1fr]">
        <section aria-label={texts.steps} className="rounded-lg border border-slate-200 bg-white p-2">
          <h2 className="px-2 py-1 text-sm font-semibold text-slate-800">{texts.steps}</h2>
          <RunSteps steps={steps} selectedId={selectedStep?.id} onSelect={setSelected} now={now} />
        </section>
        <section
          aria-label={texts.output}
          className="flex min-w-0 flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3"
        >
          <div className="flex items-center justify-between gap-2">
            <h2 className="text-sm font-semibold text-slate-800">
              {texts.output}
              {selectedStep ? `: ${selectedStep.name}` : ''}
            </h2>
            <Button variant="ghost" disabled={download.isPending} onClick={() => download.mutate(row.id)}>
              <Download aria-hidden className="size-4" />
              {PLAYBOOK_TEXTS.downloadLogs}
            </Button>
          </div>
          <div className="min-h-40 overflow-auto">
            <StepOutputPane key={selectedStep?.id} step={selectedStep} runStatus={row.status} />
          </div>
        </section>
      </div>
    </div>
  );
}
