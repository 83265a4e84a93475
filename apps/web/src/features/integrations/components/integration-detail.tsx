import { INTEGRATIONS_PATH, INTEGRATIONS_TEXTS } from '@lookout/contracts';
import { ArrowLeft } from 'lucide-react';
import { Tabs } from 'radix-ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';

/** The integrations list as the list a detail page belongs to (its back link, where saving returns). */
export const INTEGRATIONS_LIST = { path: INTEGRATIONS_PATH, label: INTEGRATIONS_TEXTS.title } as const;

const tabClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

/** `/settings/integrations/{type}/{id}` with a type other than scrapers, topologies or logging_backends. */
export function UnknownIntegrationType() {
  return (
    <div className="flex flex-col gap-3 p-4">
      <PageHeader title={INTEGRATIONS_TEXTS.title} />
      <Link
        to={INTEGRATIONS_LIST.path}
        className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900"
      >
        <ArrowLeft aria-hidden className="size-4" />
        {INTEGRATIONS_LIST.label}
      </Link>
      <p role="alert" className="text-sm text-slate-700">
        {INTEGRATIONS_TEXTS.unknownType}
      </p>
    </div>
  );
}

/**
 * The detail's tabs Spec and Job History (spec 2 section 2.7) around an editor that has none of
 * its own (log backends); scrapers and topologies bring theirs. The Spec tab stays mounted
 * while hidden so unsaved edits survive a look at the runs.
 */
export function IntegrationTabs({ spec, jobHistory }: { spec: ReactNode; jobHistory: ReactNode }) {
  return (
    <Tabs.Root defaultValue="spec">
      <Tabs.List aria-label={INTEGRATIONS_TEXTS.title} className="mx-4 mt-2 flex border-b border-slate-200">
        <Tabs.Trigger value="spec" className={tabClass}>
          {INTEGRATIONS_TEXTS.spec}
        </Tabs.Trigger>
        <Tabs.Trigger value="job-history" className={tabClass}>
          {INTEGRATIONS_TEXTS.jobHistory}
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="spec" forceMount className="data-[state=inactive]:hidden">
        {spec}
      </Tabs.Content>
      <Tabs.Content value="job-history" className="p-4">
        {jobHistory}
      </Tabs.Content>
    </Tabs.Root>
  );
}
