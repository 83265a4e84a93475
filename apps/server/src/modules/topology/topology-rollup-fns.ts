import { worstHealth, type ComponentHealth, type ComponentSummary } from '@lookout/contracts';

/**
 * The health and summary roll-up of one component (issue 14 item 2; backend-model 2.4; ADR
 * 0022): its summary adds its own checks, insights and incidents to its children's summaries and
 * counts each child by health; its health is the worst of its own, its checks' and its
 * children's (unhealthy > warning > unknown > healthy), unless a CEL `health` expression gives
 * one. Pure: the repository reads the inputs and writes the result.
 */

export type RollupInput = {
  ownHealth: string | null;
  /** Linked live checks by status; a check that never ran counts as unknown. */
  checks: Partial<Record<string, number>>;
  /** Open insights of linked config items: {analysis_type: {severity: n}}. */
  insights: Record<string, Record<string, number>>;
  /** Open incidents: {type: {severity: n}}. */
  incidents: Record<string, Record<string, number>>;
  children: { health: string | null; summary: ComponentSummary | null }[];
};

export type Rollup = { health: ComponentHealth; summary: ComponentSummary };

const HEALTH_KEYS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;

function addNested(
  into: Record<string, Record<string, number>>,
  from: Record<string, Record<string, number>> | undefined,
) {
  if (!from) return;
  for (const [outer, inner] of Object.entries(from)) {
    const target = (into[outer] ??= {});
    for (const [key, n] of Object.entries(inner)) target[key] = (target[key] ?? 0) + n;
  }
}

/** The checks' statuses as healths: `healthy`/`unhealthy` as they are, anything else unknown. */
export function checkHealthCounts(statuses: Partial<Record<string, number>>): Partial<Record<ComponentHealth, number>> {
  const counts: Partial<Record<ComponentHealth, number>> = {};
  for (const [status, n] of Object.entries(statuses)) {
    if (!n) continue;
    const health: ComponentHealth =
      status === 'healthy' || status === 'unhealthy' || status === 'warning' ? status : 'unknown';
    counts[health] = (counts[health] ?? 0) + n;
  }
  return counts;
}

/** Summary and health by the default rule (no expression). */
export function rollUp(input: RollupInput): Rollup {
  const ownChecks = checkHealthCounts(input.checks);
  const checks: Partial<Record<ComponentHealth, number>> = { ...ownChecks };
  const insights: Record<string, Record<string, number>> = {};
  const incidents: Record<string, Record<string, number>> = {};
  addNested(insights, input.insights);
  addNested(incidents, input.incidents);
  const summary: ComponentSummary = {};
  for (const child of input.children) {
    const health = (HEALTH_KEYS as readonly string[]).includes(child.health ?? '')
      ? (child.health as ComponentHealth)
      : 'unknown';
    summary[health] = (summary[health] ?? 0) + 1;
    for (const [key, n] of Object.entries(child.summary?.checks ?? {})) {
      checks[key as ComponentHealth] = (checks[key as ComponentHealth] ?? 0) + (n ?? 0);
    }
    addNested(insights, child.summary?.insights);
    addNested(incidents, child.summary?.incidents);
  }
  if (Object.keys(checks).length > 0) summary.checks = checks;
  if (Object.keys(insights).length > 0) summary.insights = insights;
  if (Object.keys(incidents).length > 0) summary.incidents = incidents;
  const health = worstHealth([
    input.ownHealth ?? undefined,
    ...Object.keys(ownChecks),
    ...input.children.map((child) => child.health ?? 'unknown'),
  ]);
  // With nothing to go by (no own health, checks or children) worstHealth gives unknown.
  return { health, summary };
}

/** Stable JSON for comparing stored and computed summaries (key order does not matter). */
export function sameSummary(a: ComponentSummary | null | undefined, b: ComponentSummary): boolean {
  return canonical(a ?? {}) === canonical(b);
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}
