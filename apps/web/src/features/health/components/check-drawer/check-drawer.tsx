import {
  CHECK_DRAWER_TEXTS,
  INCIDENT_MESSAGES,
  NOTIFICATION_TRACE_TEXTS,
  SILENCE_LINK_TEXT,
  type CheckSummary,
  type RunCheckResponse,
} from '@lookout/contracts';
import { BellOff, Pencil, Siren, X } from 'lucide-react';
import { Dialog, Tabs } from 'radix-ui';
import { Suspense, lazy, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useLinkToIncident } from '@/components/link-to-incident-slot';
import { buttonClasses } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { relativeTimeRange, timeRangeToBounds, type TimeRange } from '@/components/ui/time-range-picker';
import { useCheck } from '../../api/get-check';
import { useCheckGraph } from '../../api/get-check-graph';
import { useCheckSummary } from '../../api/get-check-summary';
import { useNow } from '../../hooks/use-now';
import { useShortScreen } from '../../hooks/use-short-screen';
import { compareLabelKeys } from '../../lib/health-check-fns';
import { canaryEditPath } from '../../lib/health-paths';
import { defaultRangeOption } from '../../lib/health-status-fns';
import { CheckIcon } from '../check-icon';
import { StatusDot } from '../status-dot';
import { CheckRelationships, type CheckRelationship } from './check-relationships';
import { CheckStats } from './check-stats';
import { HealthOverviewChart } from './health-overview-chart';
import { RunCheckButton, RunCheckResult } from './run-check-button';
import { StatusHistory } from './status-history';

/** A link the app builds for a check (the notifications pages), from its id and its canary's. */
export type CheckLinkBuilder = (checkId: string, canaryId: string | undefined) => string;

export interface CheckDrawerProps {
  checkId: string;
  /** The check's row of the dashboard, shown while the drawer's own data loads. */
  summary: CheckSummary | undefined;
  /** The range in the address; without one the drawer picks one from the check's last run. */
  timeRange: TimeRange | undefined;
  onTimeRangeChange: (range: TimeRange) => void;
  /** One of RUN_CHECK_ROLES (spec 2 section 6). */
  canRunCheck: boolean;
  /** Write on canaries: without it the data API masks the spec's credentials, and the Spec tab says so. */
  canEditCheck: boolean;
  /** 'Silence' (spec 3 section 2.10): the add-silence page prefilled with this check. */
  silenceHref?: CheckLinkBuilder | undefined;
  /** 'Why did (or didn't) this notify?' for this check's events. */
  whyHref?: CheckLinkBuilder | undefined;
  /** The Playbooks menu (spec 2 section 2.3), composed by the route from the playbooks feature. */
  playbooksMenu?: ((checkId: string) => ReactNode) | undefined;
  /** The dashboard's refresh rate: the drawer's figures, chart and history follow it. */
  refetchInterval: number | false;
  onClose: () => void;
}

/**
 * Relationships of a check to catalog items and components. The catalog and topology areas,
 * whose tables hold them, are not part of this release yet, so every check has none.
 */
const NO_RELATIONSHIPS: readonly CheckRelationship[] = [];

// The Spec tab turns the spec into YAML; the YAML library loads only when the tab is opened.
const CheckSpecTab = lazy(() => import('./check-spec-tab').then((module) => ({ default: module.CheckSpecTab })));

const tabClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

/**
 * The check detail drawer (spec 2 section 2.3), opened by `checkId`: labels, figures for the
 * chosen time range, the Health Overview chart, and History, Graph (short screens only), Spec
 * and Relationships tabs; Edit and Run Now at the bottom.
 */
export function CheckDrawer({
  checkId,
  summary: listSummary,
  timeRange,
  onTimeRangeChange,
  canRunCheck,
  canEditCheck,
  silenceHref,
  whyHref,
  playbooksMenu,
  refetchInterval,
  onClose,
}: CheckDrawerProps) {
  // Ticks often: Last Run and Next Run are seconds apart on a check that runs every minute.
  const now = useNow(5_000);
  const isShort = useShortScreen();
  const detail = useCheck(checkId, refetchInterval);
  const check = detail.data;
  const lastRuntime = check?.last_runtime ?? listSummary?.last_runtime ?? null;
  const range = timeRange ?? (relativeTimeRange(defaultRangeOption(lastRuntime, now)) as TimeRange);
  const rangeSummary = useCheckSummary({ range, checkId }, refetchInterval);
  const summary = rangeSummary.data?.checks_summary[0] ?? (rangeSummary.data ? undefined : listSummary);
  const graph = useCheckGraph(checkId, range, refetchInterval);
  const [tab, setTab] = useState('history');
  const [runResult, setRunResult] = useState<RunCheckResponse>();
  // 'Link to Incident' (spec 1 section 2): offered by the console with the incidents feature on
  // and write on incident; the check becomes check evidence.
  const linkDialog = useLinkToIncident();
  const [linking, setLinking] = useState(false);

  const name = check?.name ?? listSummary?.name ?? '';
  const labels = Object.entries(check?.labels ?? listSummary?.labels ?? {}).sort(([a], [b]) => compareLabelKeys(a, b));
  const missing = detail.isSuccess && !check;
  // The Graph tab exists only on short screens; a tall screen shows the chart above the tabs.
  const activeTab = tab === 'graph' && !isShort ? 'history' : tab;

  const bounds = timeRangeToBounds(range, now);
  const chart = (
    <HealthOverviewChart points={graph.data} isLoading={graph.isPending} from={bounds?.from} to={bounds?.to} />
  );

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/30" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-4xl flex-col bg-white shadow-xl focus:outline-none"
        >
          <header className="flex items-start gap-3 border-b border-slate-200 px-5 py-4">
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <Dialog.Title className="flex min-w-0 items-center gap-2 text-lg font-semibold text-slate-900">
                <StatusDot status={check?.status ?? listSummary?.status} />
                <CheckIcon type={check?.type ?? listSummary?.type ?? ''} className="size-5 shrink-0 text-slate-500" />
                <span className="truncate">{name || 'Loading'}</span>
              </Dialog.Title>
              {(check || listSummary) && (
                <p className="truncate text-sm text-slate-500">
                  {check?.canaries?.namespace ?? listSummary?.canary_namespace}/
                  {check?.canaries?.name ?? listSummary?.canary_name} · {check?.type ?? listSummary?.type}
                  {(check?.endpoint ?? listSummary?.endpoint) && ` · ${check?.endpoint ?? listSummary?.endpoint}`}
                </p>
              )}
            </div>
            <Dialog.Close
              aria-label={CHECK_DRAWER_TEXTS.close}
              className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600"
            >
              <X aria-hidden className="size-4" />
            </Dialog.Close>
          </header>

          <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto px-5 py-4">
            {detail.isError && !check ? (
              <ErrorPanel error={detail.error} onRetry={() => void detail.refetch()} />
            ) : missing ? (
              <p role="status" className="text-sm text-slate-600">
                {CHECK_DRAWER_TEXTS.notFound}
              </p>
            ) : (
              <>
                {labels.length > 0 && (
                  <ul aria-label="Labels" className="flex flex-wrap gap-1.5">
                    {labels.map(([key, value]) => (
                      <li
                        key={key}
                        className="rounded bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-700 ring-1 ring-slate-200 ring-inset"
                      >
                        {key}: {value}
                      </li>
                    ))}
                  </ul>
                )}
                <CheckStats
                  summary={summary}
                  severity={check?.severity ?? listSummary?.severity ?? null}
                  lastRuntime={lastRuntime}
                  lastTransitionTime={check?.last_transition_time ?? listSummary?.last_transition_time ?? null}
                  nextRuntime={check?.next_runtime ?? listSummary?.next_runtime ?? null}
                  now={now}
                  range={range}
                  onRangeChange={onTimeRangeChange}
                />
                {!isShort && (
                  <section aria-label={CHECK_DRAWER_TEXTS.healthOverview}>
                    <h3 className="mb-2 text-sm font-medium text-slate-700">{CHECK_DRAWER_TEXTS.healthOverview}</h3>
                    {chart}
                  </section>
                )}
                <Tabs.Root value={activeTab} onValueChange={setTab} className="flex min-h-0 flex-col gap-3">
                  <Tabs.List aria-label="Check details" className="flex border-b border-slate-200">
                    <Tabs.Trigger value="history" className={tabClass}>
                      {CHECK_DRAWER_TEXTS.tabs.history}
                    </Tabs.Trigger>
                    {isShort && (
                      <Tabs.Trigger value="graph" className={tabClass}>
                        {CHECK_DRAWER_TEXTS.tabs.graph}
                      </Tabs.Trigger>
                    )}
                    <Tabs.Trigger value="spec" className={tabClass}>
                      {CHECK_DRAWER_TEXTS.tabs.spec}
                    </Tabs.Trigger>
                    <Tabs.Trigger value="relationships" className={tabClass}>
                      {CHECK_DRAWER_TEXTS.tabs.relationships}{' '}
                      <span className="ml-1 rounded-full bg-slate-200 px-1.5 text-xs text-slate-700">
                        {NO_RELATIONSHIPS.length}
                      </span>
                    </Tabs.Trigger>
                  </Tabs.List>
                  <Tabs.Content value="history" className="focus-visible:outline-none">
                    <StatusHistory checkId={checkId} range={range} refetchInterval={refetchInterval} />
                  </Tabs.Content>
                  {isShort && (
                    <Tabs.Content value="graph" className="focus-visible:outline-none">
                      <h3 className="mb-2 text-sm font-medium text-slate-700">{CHECK_DRAWER_TEXTS.healthOverview}</h3>
                      {chart}
                    </Tabs.Content>
                  )}
                  <Tabs.Content value="spec" className="focus-visible:outline-none">
                    <Suspense fallback={<p className="text-sm text-slate-500">Loading</p>}>
                      {check ? (
                        <CheckSpecTab check={check} secretsMasked={!canEditCheck} />
                      ) : (
                        <p className="text-sm text-slate-500">Loading</p>
                      )}
                    </Suspense>
                  </Tabs.Content>
                  <Tabs.Content value="relationships" className="focus-visible:outline-none">
                    <CheckRelationships relationships={NO_RELATIONSHIPS} />
                  </Tabs.Content>
                </Tabs.Root>
              </>
            )}
          </div>

          {!missing && (
            <footer className="flex flex-col gap-2 border-t border-slate-200 px-5 py-3">
              {runResult && <RunCheckResult response={runResult} />}
              <div className="flex items-center justify-end gap-2">
                {whyHref && (
                  <Link
                    to={whyHref(checkId, check?.canary_id ?? listSummary?.canary_id ?? undefined)}
                    className="mr-auto text-sm text-sky-700 hover:underline"
                  >
                    {NOTIFICATION_TRACE_TEXTS.link}
                  </Link>
                )}
                {silenceHref && (
                  <Link
                    to={silenceHref(checkId, check?.canary_id ?? listSummary?.canary_id ?? undefined)}
                    className={buttonClasses('secondary')}
                  >
                    <BellOff aria-hidden className="size-4" />
                    {SILENCE_LINK_TEXT}
                  </Link>
                )}
                {(check?.canary_id ?? listSummary?.canary_id) && (
                  <Link
                    to={canaryEditPath(check?.canary_id ?? listSummary?.canary_id ?? '')}
                    className={buttonClasses('secondary')}
                  >
                    <Pencil aria-hidden className="size-4" />
                    {CHECK_DRAWER_TEXTS.edit}
                  </Link>
                )}
                {linkDialog && (
                  <button type="button" className={buttonClasses('secondary')} onClick={() => setLinking(true)}>
                    <Siren aria-hidden className="size-4" />
                    {INCIDENT_MESSAGES.linkTitle}
                  </button>
                )}
                {playbooksMenu?.(checkId)}
                {canRunCheck && <RunCheckButton checkId={checkId} onResult={setRunResult} />}
              </div>
            </footer>
          )}
          {linkDialog?.({
            evidence: {
              type: 'check',
              check_id: checkId,
              description: name,
              evidence: { check_id: checkId, includeMessages: true },
            },
            open: linking,
            onOpenChange: setLinking,
          })}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
