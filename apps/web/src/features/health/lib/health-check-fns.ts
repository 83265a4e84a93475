import { HEALTH_PAGE_TEXTS, NIL_AGENT_ID, TRISTATE, type CheckSummary } from '@lookout/contracts';
import { ALL_TAB, TAB_BY_AGENT, labelId, type LabelFilterState } from './health-params';

/**
 * Pure rules of the dashboard's filters and tabs (spec 2 section 2.2; spec 1 sections 2.7
 * and 4), tested on their own and used by the components.
 */

/** A label found on the checks, as the label filters list it. */
export interface CheckLabel {
  id: string;
  key: string;
  value: string;
}

/** Label keys that sort before the others (spec 2 section 2.2), in this order. */
const LEADING_LABEL_KEYS = ['account', 'namespace', 'name'];

/** Orders label keys: account, namespace and name first, then the rest alphabetically. */
export function compareLabelKeys(a: string, b: string): number {
  const rankA = LEADING_LABEL_KEYS.indexOf(a);
  const rankB = LEADING_LABEL_KEYS.indexOf(b);
  if (rankA !== rankB) {
    if (rankA === -1) return 1;
    if (rankB === -1) return -1;
    return rankA - rankB;
  }
  return a.localeCompare(b);
}

/** A boolean label gets a toggle; any other a multi-select (spec 2 section 2.2). */
export function isBooleanLabelValue(value: string): boolean {
  return value === 'true' || value === 'false';
}

/** Every distinct label of the checks. */
export function collectLabels(checks: readonly CheckSummary[]): CheckLabel[] {
  const labels = new Map<string, CheckLabel>();
  for (const check of checks) {
    for (const [key, value] of Object.entries(check.labels)) {
      const id = labelId(key, value);
      if (!labels.has(id)) labels.set(id, { id, key, value });
    }
  }
  return [...labels.values()].sort(
    (a, b) => compareLabelKeys(a.key, b.key) || a.value.localeCompare(b.value, undefined, { numeric: true }),
  );
}

/** The label filters of the left panel: a toggle per boolean key, a multi-select per other key. */
export type LabelFilterGroup =
  { kind: 'toggle'; key: string; id: string } | { kind: 'multi'; key: string; labels: CheckLabel[] };

/**
 * Groups the labels by key. A key whose values are all `true`/`false` is a boolean label and
 * filters on `{key}=true` with include/exclude; any other key lists its values.
 */
export function labelFilterGroups(labels: readonly CheckLabel[]): LabelFilterGroup[] {
  const byKey = new Map<string, CheckLabel[]>();
  for (const label of labels) byKey.set(label.key, [...(byKey.get(label.key) ?? []), label]);
  return [...byKey.entries()]
    .sort(([a], [b]) => compareLabelKeys(a, b))
    .map(([key, values]) =>
      values.every((label) => isBooleanLabelValue(label.value))
        ? { kind: 'toggle', key, id: labelId(key, 'true') }
        : { kind: 'multi', key, labels: values },
    );
}

/** Every label key of the checks in display order (Group By and Tab By options). */
export function labelKeys(checks: readonly CheckSummary[]): string[] {
  const keys = new Set<string>();
  for (const check of checks) for (const key of Object.keys(check.labels)) keys.add(key);
  return [...keys].sort(compareLabelKeys);
}

/** Search 'by name, description, or endpoint' (and group name, as the original), ignoring case. */
export function matchesSearch(check: CheckSummary, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return [check.name, check.description, check.endpoint, check.canary_name].some(
    (field) => field?.toLowerCase().includes(needle) ?? false,
  );
}

/**
 * The label filter: a check with any excluded label is hidden; when labels are included, a
 * check must carry an included value of every key that has one (values of one key are
 * alternatives, different keys narrow down).
 */
export function matchesLabels(check: CheckSummary, filter: LabelFilterState): boolean {
  const includedByKey = new Map<string, Set<string>>();
  for (const [id, state] of Object.entries(filter)) {
    if (state === TRISTATE.exclude) {
      const [, key, value] = splitLabelId(id);
      if (key !== undefined && check.labels[key] === value) return false;
    } else {
      const [, key] = splitLabelId(id);
      if (key === undefined) continue;
      includedByKey.set(key, (includedByKey.get(key) ?? new Set()).add(id));
    }
  }
  for (const [key, ids] of includedByKey) {
    const value = check.labels[key];
    if (value === undefined || !ids.has(labelId(key, value))) return false;
  }
  return true;
}

/** `canary:{key}:{value}` → ['canary', key, value]; a value may itself contain ':'. */
function splitLabelId(id: string): [string, string | undefined, string | undefined] {
  const match = /^([^:]*):([^:]*):(.*)$/.exec(id);
  return match ? [match[1] ?? '', match[2], match[3]] : [id, undefined, undefined];
}

export interface CheckFilters {
  query: string;
  labels: LabelFilterState;
  hidePassing: boolean;
}

/** The checks left after the search, the label filters and Hide Passing. */
export function filterChecks(checks: readonly CheckSummary[], filters: CheckFilters): CheckSummary[] {
  return checks.filter(
    (check) =>
      !(filters.hidePassing && check.status === 'healthy') &&
      matchesSearch(check, filters.query) &&
      matchesLabels(check, filters.labels),
  );
}

/** Passing and failing counts of the header; a check that never ran counts as neither. */
export function healthCounts(checks: readonly CheckSummary[]): { passing: number; failing: number } {
  let passing = 0;
  let failing = 0;
  for (const check of checks) {
    if (check.status === 'healthy') passing += 1;
    else if (check.status === 'unhealthy') failing += 1;
  }
  return { passing, failing };
}

/** One tab of the dashboard. `value` goes into the address; '' is All. */
export interface HealthTab {
  value: string;
  label: string;
}

/** Agent names by id; the nil agent is this instance. */
export type AgentNames = ReadonlyMap<string, string>;

/** The name a tab shows for an agent id: its name, 'local' for this instance. */
export function agentName(agentId: string, agents: AgentNames): string {
  return agents.get(agentId) ?? (agentId === NIL_AGENT_ID ? 'local' : agentId);
}

/** The value of a check under a Tab By choice, or undefined when it has none (a label it lacks). */
export function tabValueOf(check: CheckSummary, tabBy: string, agents: AgentNames): string | undefined {
  if (tabBy === 'namespace') return check.namespace || HEALTH_PAGE_TEXTS.noNamespaceTab;
  if (tabBy === TAB_BY_AGENT) return agentName(check.agent_id, agents);
  return check.labels[tabBy];
}

/**
 * Tabs (spec 2 section 2.2): 'All' first, then the sorted values: namespaces ('none' for an
 * empty one), agent names, or the values of a label key.
 */
export function healthTabs(checks: readonly CheckSummary[], tabBy: string, agents: AgentNames): HealthTab[] {
  const values = new Set<string>();
  for (const check of checks) {
    const value = tabValueOf(check, tabBy, agents);
    if (value !== undefined) values.add(value);
  }
  const sorted = [...values].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  return [{ value: ALL_TAB, label: HEALTH_PAGE_TEXTS.allTab }, ...sorted.map((value) => ({ value, label: value }))];
}

/** The checks of one tab; All holds every check. */
export function checksInTab(
  checks: readonly CheckSummary[],
  tabBy: string,
  tab: string,
  agents: AgentNames,
): CheckSummary[] {
  if (tab === ALL_TAB) return [...checks];
  return checks.filter((check) => tabValueOf(check, tabBy, agents) === tab);
}
