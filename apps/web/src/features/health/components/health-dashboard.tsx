import { HEALTH_PAGE_TEXTS, type CheckSummary } from '@lookout/contracts';
import { Plus } from 'lucide-react';
import { useCallback, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { buttonClasses } from '@/components/ui/button';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { refreshRateToMs } from '@/components/ui/refresh-rate-fns';
import {
  relativeTimeRange,
  timeRangeToBounds,
  useTimeRangeParams,
  type TimeRange,
} from '@/components/ui/time-range-picker';
import { useAgentNames } from '../api/get-agent-names';
import { useCheckSummary } from '../api/get-check-summary';
import { useHealthParams } from '../hooks/use-health-params';
import { useHealthRefreshRate } from '../hooks/use-health-refresh-rate';
import { useNow } from '../hooks/use-now';
import {
  checksInTab,
  collectLabels,
  filterChecks,
  healthCounts,
  healthTabs,
  labelFilterGroups,
  labelKeys,
} from '../lib/health-check-fns';
import { groupChecks } from '../lib/health-group-fns';
import { NEW_CANARY_PATH } from '../lib/health-paths';
import { ALL_TAB, TAB_BY_AGENT } from '../lib/health-params';
import type { PivotCellType } from '../lib/health-pivot-fns';
import { disabledRefreshRates, effectiveRefreshRate } from '../lib/health-refresh-fns';
import { CheckCards } from './check-cards';
import { CheckDrawer, type CheckLinkBuilder } from './check-drawer/check-drawer';
import { ChecksTable } from './checks-table';
import { HealthCounts } from './health-counts';
import { HealthFilterBar } from './health-filter-bar';
import { HealthFilterPanel } from './health-filter-panel';
import { HealthRefreshSelect } from './health-refresh-select';
import { HealthTabs } from './health-tabs';
import { PivotTable } from './pivot-table';

/** The dashboard's range when the address has none: the picker's second option, 1 hour (spec 2 section 9). */
const DEFAULT_TIME_RANGE = relativeTimeRange('1h') as TimeRange;
const NO_CHECKS: readonly CheckSummary[] = [];

export interface HealthDashboardProps {
  /** Write on canaries: the add-check button (spec 2 section 6). */
  canAddCheck: boolean;
  /** One of RUN_CHECK_ROLES: the drawer's Run Now (spec 2 section 6). */
  canRunCheck: boolean;
  /** The drawer's 'Silence' link for a check, when notifications are on and the user may add one. */
  silenceHref?: CheckLinkBuilder | undefined;
  /** The drawer's link to why a check's events did or didn't notify, when notifications are on. */
  whyHref?: CheckLinkBuilder | undefined;
  /** The drawer's Playbooks menu, when the playbooks feature is on and the user may run them. */
  playbooksMenu?: ((checkId: string) => ReactNode) | undefined;
}

/**
 * The health dashboard (`/health`, spec 2 section 2.2): header counts, auto-refresh and the
 * add-check button; the label and health filters; the search, Group By, Tab By and time range;
 * tabs over the checks table (or cards); the check drawer when `checkId` is set.
 */
export function HealthDashboard({
  canAddCheck,
  canRunCheck,
  silenceHref,
  whyHref,
  playbooksMenu,
}: HealthDashboardProps) {
  const [params, updateParams] = useHealthParams();
  const { timeRange: urlRange, setTimeRange } = useTimeRangeParams();
  const timeRange = urlRange ?? DEFAULT_TIME_RANGE;
  const now = useNow();

  const bounds = timeRangeToBounds(timeRange, now);
  const rangeMs = bounds ? bounds.to.getTime() - bounds.from.getTime() : undefined;
  const [chosenRate, setRate] = useHealthRefreshRate();
  const rate = effectiveRefreshRate(chosenRate, rangeMs);
  const refetchInterval = refreshRateToMs(rate) ?? false;
  const summary = useCheckSummary({ range: timeRange }, refetchInterval);
  const checks = summary.data?.checks_summary ?? NO_CHECKS;

  const counts = useMemo(() => healthCounts(checks), [checks]);
  const labelGroups = useMemo(() => labelFilterGroups(collectLabels(checks)), [checks]);
  const keys = useMemo(() => labelKeys(checks), [checks]);
  const filtered = useMemo(
    () => filterChecks(checks, { query: params.query, labels: params.labels, hidePassing: params.hidePassing }),
    [checks, params.query, params.labels, params.hidePassing],
  );

  const byAgent = params.tabBy === TAB_BY_AGENT;
  const agentIds = useMemo(() => [...new Set(checks.map((check) => check.agent_id))].sort(), [checks]);
  const agentRows = useAgentNames(agentIds, byAgent).data;
  const agents = useMemo(() => new Map((agentRows ?? []).map((agent) => [agent.id, agent.name])), [agentRows]);

  const tabs = useMemo(() => healthTabs(filtered, params.tabBy, agents), [filtered, params.tabBy, agents]);
  // A tab from a link that these checks do not have shows All rather than an empty page.
  const tab = tabs.some((candidate) => candidate.value === params.tab) ? params.tab : ALL_TAB;
  const inTab = useMemo(() => checksInTab(filtered, params.tabBy, tab, agents), [filtered, params.tabBy, tab, agents]);
  const rows = useMemo(() => groupChecks(inTab, params.groupBy), [inTab, params.groupBy]);

  const openCheck = useCallback((checkId: string) => updateParams({ checkId }), [updateParams]);
  const pivotBy = params.pivotBy ?? 'none';
  const pivotLabel = params.pivotLabel ?? keys[0];
  const pivotCellType: PivotCellType =
    params.pivotCellType === 'checkStatuses' || params.pivotCellType === 'latency' ? params.pivotCellType : 'uptime';
  const pivoted = params.layout === 'table' && (pivotBy === 'namespace' || (pivotBy === 'labels' && !!pivotLabel));
  const openedSummary = params.checkId ? checks.find((check) => check.id === params.checkId) : undefined;

  return (
    <>
      <PageHeader
        title={HEALTH_PAGE_TEXTS.title}
        actions={
          <>
            <HealthCounts
              passing={summary.data ? counts.passing : undefined}
              failing={summary.data ? counts.failing : undefined}
            />
            <HealthRefreshSelect value={rate} disabled={disabledRefreshRates(rangeMs)} onChange={setRate} />
            {canAddCheck && (
              <Link to={NEW_CANARY_PATH} className={buttonClasses('primary')}>
                <Plus aria-hidden className="size-4" />
                {HEALTH_PAGE_TEXTS.addCheck}
              </Link>
            )}
          </>
        }
        onRefresh={() => void summary.refetch()}
        isLoading={summary.isFetching}
      />
      <div className="flex flex-col gap-6 lg:flex-row">
        <HealthFilterPanel
          hidePassing={params.hidePassing}
          onHidePassingChange={(hidePassing) => updateParams({ hidePassing })}
          labelGroups={labelGroups}
          labels={params.labels}
          onLabelsChange={(labels) => updateParams({ labels })}
        />
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <HealthFilterBar
            query={params.query}
            onQueryChange={(query) => updateParams({ query })}
            groupBy={params.groupBy}
            onGroupByChange={(groupBy) => updateParams({ groupBy })}
            tabBy={params.tabBy}
            onTabByChange={(tabBy) => updateParams({ tabBy, tab: ALL_TAB })}
            labelKeys={keys}
            timeRange={timeRange}
            onTimeRangeChange={setTimeRange}
            layout={params.layout}
            onLayoutChange={(layout) => updateParams({ layout })}
            pivotBy={pivotBy}
            onPivotByChange={(value) =>
              updateParams({ pivotBy: value === 'none' ? undefined : value, pivotLabel: undefined })
            }
            pivotLabel={pivotLabel}
            onPivotLabelChange={(value) => updateParams({ pivotLabel: value })}
            pivotCellType={pivotCellType}
            onPivotCellTypeChange={(value) => updateParams({ pivotCellType: value === 'uptime' ? undefined : value })}
          />
          {summary.isError && !summary.data ? (
            <ErrorPanel error={summary.error} onRetry={() => void summary.refetch()} />
          ) : (
            <HealthTabs tabs={tabs} value={tab} onChange={(value) => updateParams({ tab: value })}>
              {params.layout === 'card' ? (
                <CheckCards checks={inTab} onOpenCheck={openCheck} />
              ) : pivoted ? (
                <PivotTable
                  checks={inTab}
                  pivotBy={pivotBy}
                  pivotLabel={pivotLabel}
                  cellType={pivotCellType}
                  isLoading={summary.isPending}
                  onOpenCheck={openCheck}
                />
              ) : (
                <ChecksTable
                  rows={rows}
                  isLoading={summary.isPending}
                  now={now}
                  sortBy={params.sortBy}
                  sortDesc={params.sortDesc}
                  onSortChange={(sortBy, sortDesc) => updateParams({ sortBy, sortDesc }, { replace: true })}
                  pagination={{ pageIndex: params.pageIndex, pageSize: params.pageSize }}
                  onPaginationChange={({ pageIndex, pageSize }) =>
                    updateParams({ pageIndex, pageSize }, { replace: true })
                  }
                  onOpenCheck={openCheck}
                />
              )}
            </HealthTabs>
          )}
        </div>
      </div>
      {params.checkId && (
        <CheckDrawer
          key={params.checkId}
          checkId={params.checkId}
          summary={openedSummary}
          timeRange={urlRange}
          onTimeRangeChange={setTimeRange}
          canRunCheck={canRunCheck}
          canEditCheck={canAddCheck}
          silenceHref={silenceHref}
          whyHref={whyHref}
          playbooksMenu={playbooksMenu}
          refetchInterval={refetchInterval}
          onClose={() => updateParams({ checkId: undefined })}
        />
      )}
    </>
  );
}
