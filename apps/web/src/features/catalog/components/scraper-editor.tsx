import { EDITABLE_SOURCE, SCRAPER_TABS, SCRAPERS_PAGE_TEXTS, SCRAPERS_PATH, type ScraperTab } from '@lookout/contracts';
import { ArrowLeft, Lock } from 'lucide-react';
import { Tabs } from 'radix-ui';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { useScraper, type ScraperRow } from '../api/scrapers-api';
import { ScraperForm } from './scraper-form';

export interface ScraperEditorProps {
  /** The scraper to show; undefined opens an empty form to create one. */
  scraperId: string | undefined;
  /** Write on the scrapers resource. */
  canWrite: boolean;
  currentUserId: string;
  /** The Job History tab's content (the job history feature, composed by the route page). */
  jobHistory: (scraperId: string) => ReactNode;
  /**
   * The list the page belongs to (the back link, and where saving or deleting returns); the
   * scrapers list when absent. The integrations pages open scrapers under their own list.
   */
  backTo?: { path: string; label: string };
}

const SCRAPERS_LIST = { path: SCRAPERS_PATH, label: SCRAPERS_PAGE_TEXTS.title };

const tabClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

const tabOf = (value: string | null): ScraperTab =>
  (SCRAPER_TABS as readonly string[]).includes(value ?? '') ? (value as ScraperTab) : 'spec';

function BackToScrapers({ backTo }: { backTo: { path: string; label: string } }) {
  return (
    <Link to={backTo.path} className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
      <ArrowLeft aria-hidden className="size-4" />
      {backTo.label}
    </Link>
  );
}

/**
 * `/catalog/scrapers/{id}` and `/catalog/scrapers/new` (spec 3 section 2.1): a scraper's tabs
 * Spec and Job History (its runs, with the Scrape Summary in a run's details); a new scraper
 * has only its form. An id that matches no live scraper shows 'No resources found'.
 */
export function ScraperEditor({
  scraperId,
  canWrite,
  currentUserId,
  jobHistory,
  backTo = SCRAPERS_LIST,
}: ScraperEditorProps) {
  const scraper = useScraper(scraperId);
  if (scraperId === undefined) {
    return (
      <section className="mx-auto flex max-w-5xl flex-col gap-4">
        <PageHeader title={SCRAPERS_PAGE_TEXTS.titleNew} />
        <BackToScrapers backTo={backTo} />
        <ScraperForm editable={canWrite} currentUserId={currentUserId} listPath={backTo.path} />
      </section>
    );
  }
  if (scraper.isError) {
    return (
      <>
        <PageHeader title={SCRAPERS_PAGE_TEXTS.title} />
        <ErrorPanel error={scraper.error} onRetry={() => void scraper.refetch()} />
      </>
    );
  }
  if (scraper.isPending) {
    return (
      <p role="status" className="text-sm text-slate-500">
        Loading
      </p>
    );
  }
  if (!scraper.data) {
    return (
      <section className="mx-auto flex max-w-5xl flex-col gap-4">
        <PageHeader title={SCRAPERS_PAGE_TEXTS.title} />
        <BackToScrapers backTo={backTo} />
        <p role="status" className="text-sm text-slate-600">
          {SCRAPERS_PAGE_TEXTS.notFound}
        </p>
      </section>
    );
  }
  return (
    <ExistingScraper
      key={`${scraper.data.id}:${scraper.data.updated_at}`}
      scraper={scraper.data}
      canWrite={canWrite}
      currentUserId={currentUserId}
      jobHistory={jobHistory}
      backTo={backTo}
    />
  );
}

function ExistingScraper({
  scraper,
  canWrite,
  currentUserId,
  jobHistory,
  backTo = SCRAPERS_LIST,
}: Omit<ScraperEditorProps, 'scraperId'> & { scraper: ScraperRow }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const fromOtherSource = scraper.source !== EDITABLE_SOURCE;
  const tab = tabOf(searchParams.get('tab'));
  // Only the tab is the page's own parameter; the job history keeps its filters beside it.
  // Opening Job History asks for every status: a scraper's Scrape Summary is in its successful
  // runs, which the job history's own default (everything but Success) would hide.
  const selectTab = (value: string) =>
    setSearchParams(value === 'spec' ? {} : { tab: value, status: '' }, { replace: true });

  return (
    <section className="mx-auto flex max-w-6xl flex-col gap-4">
      <PageHeader title={scraper.name} />
      <BackToScrapers backTo={backTo} />
      {fromOtherSource && (
        <p
          role="status"
          className="flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <Lock aria-hidden className="size-4 shrink-0 text-amber-700" />
          {SCRAPERS_PAGE_TEXTS.readOnly(scraper.source)}
        </p>
      )}
      {!canWrite && <p className="text-sm text-slate-600">{SCRAPERS_PAGE_TEXTS.secretsMasked}</p>}
      <Tabs.Root value={tab} onValueChange={selectTab}>
        <Tabs.List aria-label="Scraper" className="flex border-b border-slate-200">
          <Tabs.Trigger value="spec" className={tabClass}>
            {SCRAPERS_PAGE_TEXTS.tabs.spec}
          </Tabs.Trigger>
          <Tabs.Trigger value="job-history" className={tabClass}>
            {SCRAPERS_PAGE_TEXTS.tabs.jobHistory}
          </Tabs.Trigger>
        </Tabs.List>
        {/* Kept mounted (hidden) so unsaved edits survive a look at the runs. */}
        <Tabs.Content value="spec" forceMount className="pt-4 focus-visible:outline-none data-[state=inactive]:hidden">
          <ScraperForm
            scraper={scraper}
            editable={canWrite && !fromOtherSource}
            currentUserId={currentUserId}
            listPath={backTo.path}
          />
        </Tabs.Content>
        <Tabs.Content value="job-history" className="pt-4 focus-visible:outline-none">
          {jobHistory(scraper.id)}
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}
