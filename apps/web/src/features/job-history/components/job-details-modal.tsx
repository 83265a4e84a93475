import { JOB_HISTORY_TEXTS, type JobHistoryRow } from '@lookout/contracts';
import { Tabs } from 'radix-ui';
import { Modal } from '@/components/ui/modal';
import { detailsPart, jobDetailsTabs, jobErrors, type JobDetailsTab } from '../lib/job-details-fns';

export interface JobDetailsModalProps {
  /** The run whose details are shown; it must have at least one tab (`jobDetailsTabs`). */
  job: JobHistoryRow;
  onClose: () => void;
}

const { details: texts } = JOB_HISTORY_TEXTS;

const TAB_LABELS: Record<JobDetailsTab, string> = {
  errors: texts.errors,
  scrape_summary: texts.scrapeSummary,
  summary: texts.reconcileSummary,
};

const tabClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

/** A summary as indented JSON: its keys are the job's own, so no shape is assumed. */
function SummaryView({ value }: { value: unknown }) {
  return (
    <pre className="max-h-[60vh] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs break-all whitespace-pre-wrap text-slate-800">
      {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** The errors as a list; errors keyed by item show the item first. */
function ErrorsView({ errors }: { errors: unknown }) {
  return (
    <ul className="max-h-[60vh] space-y-2 overflow-auto">
      {jobErrors(errors).map((error, index) => (
        <li
          key={`${error.item ?? ''}-${index}`}
          className="rounded-md border border-red-100 bg-red-50 px-3 py-2 text-sm"
        >
          {error.item !== undefined && <p className="font-medium break-all text-slate-900">{error.item}</p>}
          <p className="font-mono text-xs break-all whitespace-pre-wrap text-red-800">{error.message}</p>
        </li>
      ))}
    </ul>
  );
}

/**
 * 'Details for job {name}' (spec 2 section 2.7): tabs Errors, Scrape Summary and Reconcile
 * Summary, each only when the run's details have data for it, opening on the first of them.
 */
export function JobDetailsModal({ job, onClose }: JobDetailsModalProps) {
  const tabs = jobDetailsTabs(job.details);
  const first = tabs[0];
  if (!first) return null;
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={texts.title(job.name)}
      className="max-w-3xl"
    >
      <Tabs.Root defaultValue={first} className="flex flex-col gap-3">
        <Tabs.List aria-label={texts.title(job.name)} className="flex border-b border-slate-200">
          {tabs.map((tab) => (
            <Tabs.Trigger key={tab} value={tab} className={tabClass}>
              {TAB_LABELS[tab]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Content key={tab} value={tab} className="focus-visible:outline-none">
            {tab === 'errors' ? (
              <ErrorsView errors={detailsPart(job.details, tab)} />
            ) : (
              <SummaryView value={detailsPart(job.details, tab)} />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </Modal>
  );
}
