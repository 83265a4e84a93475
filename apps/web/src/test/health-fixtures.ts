import type { CanaryRow, CheckDetailRow, CheckStatusRow, CheckSummary, RunCheckResponse } from '@lookout/contracts';
import { HttpResponse, http } from 'msw';

const NIL_AGENT = '00000000-0000-0000-0000-000000000000';
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

let counter = 0;
/** A UUID that is stable within a test run, for fixtures that need distinct ids. */
export function fixtureId(): string {
  counter += 1;
  return `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
}

/** A `checks_summary` row with sensible defaults: a healthy http check of canary `web`. */
export function checkSummaryFixture(overrides: Partial<CheckSummary> & { name: string }): CheckSummary {
  return {
    id: fixtureId(),
    canary_id: '10000000-0000-4000-8000-000000000001',
    canary_name: 'web',
    canary_namespace: 'default',
    agent_id: NIL_AGENT,
    namespace: 'default',
    type: 'http',
    status: 'healthy',
    icon: null,
    description: null,
    labels: {},
    severity: null,
    owner: null,
    endpoint: `https://example.com/${overrides.name}`,
    uptime: { passed: 59, failed: 1, last_pass: minutesAgo(1), last_fail: minutesAgo(30) },
    latency: { p95: 120, p97: 130, p99: 180 },
    last_runtime: minutesAgo(1),
    next_runtime: new Date(Date.now() + 60_000).toISOString(),
    last_transition_time: minutesAgo(90),
    silenced_at: null,
    created_at: minutesAgo(600),
    updated_at: minutesAgo(600),
    deleted_at: null,
    ...overrides,
  };
}

/** The `/api/db/checks` row of a summary fixture, with its canary and agent. */
export function checkDetailFixture(check: CheckSummary, overrides: Partial<CheckDetailRow> = {}): CheckDetailRow {
  return {
    id: check.id,
    canary_id: check.canary_id,
    agent_id: check.agent_id,
    name: check.name,
    namespace: check.namespace,
    type: check.type,
    icon: check.icon,
    description: check.description,
    labels: check.labels,
    severity: check.severity,
    owner: check.owner,
    endpoint: check.endpoint,
    status: check.status,
    spec: { name: check.name, url: check.endpoint ?? 'https://example.com', responseCodes: [200] },
    schedule: '@every 60s',
    last_runtime: check.last_runtime,
    next_runtime: check.next_runtime,
    last_transition_time: check.last_transition_time,
    created_at: check.created_at,
    deleted_at: null,
    canaries: { id: check.canary_id, name: check.canary_name, namespace: check.canary_namespace, source: 'UI' },
    agents: { id: NIL_AGENT, name: 'local' },
    ...overrides,
  };
}

/** A run of a check, `minutes` ago. */
export function checkStatusFixture(minutes: number, overrides: Partial<CheckStatusRow> = {}): CheckStatusRow {
  return {
    time: minutesAgo(minutes),
    status: true,
    invalid: false,
    duration: 100 + minutes,
    message: 'HTTP 200',
    error: null,
    ...overrides,
  };
}

/** A canary row. */
export function canaryRowFixture(overrides: Partial<CanaryRow> = {}): CanaryRow {
  return {
    id: '10000000-0000-4000-8000-000000000001',
    name: 'web',
    namespace: 'default',
    labels: null,
    spec: { interval: 60, http: [{ name: 'home', url: 'https://example.com', responseCodes: [200] }] },
    source: 'UI',
    created_at: minutesAgo(600),
    updated_at: minutesAgo(600),
    deleted_at: null,
    ...overrides,
  };
}

/** What the health endpoints were asked, for assertions. */
export interface HealthCalls {
  summary: URL[];
  statuses: URL[];
  runs: string[];
  applied: unknown[];
  canaryWrites: { method: string; url: URL; body: unknown }[];
}

export interface HealthBackendOptions {
  checks: CheckSummary[];
  statuses?: CheckStatusRow[];
  /** The total `Content-Range` reports for the history; the length of `statuses` by default. */
  statusTotal?: number;
  runResult?: (checkId: string) => RunCheckResponse;
  canaries?: CanaryRow[];
  details?: CheckDetailRow[];
}

/**
 * MSW handlers of the health backend over fixed data: the summary (filtered by `check_id`),
 * check and canary lookups, the status history with its count, the chart's roll-ups, agents,
 * Run Now and apply. Returns the calls made.
 */
export function healthHandlers({
  checks,
  statuses = [],
  statusTotal,
  runResult,
  canaries = [],
  details,
}: HealthBackendOptions) {
  const calls: HealthCalls = { summary: [], statuses: [], runs: [], applied: [], canaryWrites: [] };
  const detailRows = details ?? checks.map((check) => checkDetailFixture(check));
  const eqParam = (url: URL, name: string) => url.searchParams.get(name)?.replace(/^eq\./, '');
  const handlers = [
    http.get('*/api/canary/api/summary', ({ request }) => {
      const url = new URL(request.url);
      calls.summary.push(url);
      const checkId = url.searchParams.get('check_id');
      return HttpResponse.json({
        from: minutesAgo(60),
        to: minutesAgo(0),
        checks_summary: checkId ? checks.filter((check) => check.id === checkId) : checks,
      });
    }),
    http.get('*/api/db/checks', ({ request }) => {
      const id = eqParam(new URL(request.url), 'id');
      return HttpResponse.json(detailRows.filter((row) => row.id === id));
    }),
    http.get('*/api/db/canaries', ({ request }) => {
      const id = eqParam(new URL(request.url), 'id');
      return HttpResponse.json(canaries.filter((row) => row.id === id));
    }),
    http.get('*/api/db/check_statuses', ({ request }) => {
      const url = new URL(request.url);
      calls.statuses.push(url);
      const limit = Number(url.searchParams.get('limit') ?? statuses.length);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const page = statuses.slice(offset, offset + limit);
      const total = statusTotal ?? statuses.length;
      return HttpResponse.json(page, {
        headers: { 'Content-Range': `${offset}-${offset + Math.max(page.length - 1, 0)}/${total}` },
      });
    }),
    http.get('*/api/db/check_statuses_1h', () => HttpResponse.json([])),
    http.get('*/api/db/check_statuses_1d', () => HttpResponse.json([])),
    http.get('*/api/db/agents', () => HttpResponse.json([{ id: NIL_AGENT, name: 'local' }])),
    http.post('*/api/canary/run/check/:id', ({ params }) => {
      const id = String(params.id);
      calls.runs.push(id);
      const result: RunCheckResponse = runResult?.(id) ?? {
        total: 1,
        success: 1,
        failed: 0,
        errors: [],
        result: {
          check_id: id,
          time: minutesAgo(0),
          status: true,
          invalid: false,
          duration: 42,
          message: 'HTTP 200 OK',
          error: null,
        },
      };
      return HttpResponse.json(result);
    }),
    http.post('*/api/canary/apply', async ({ request }) => {
      const body = (await request.json()) as { metadata: { name: string; namespace?: string } };
      calls.applied.push(body);
      return HttpResponse.json({
        canary: {
          id: '10000000-0000-4000-8000-000000000099',
          name: body.metadata.name,
          namespace: body.metadata.namespace ?? 'default',
          source: 'UI',
        },
        created: true,
        checks: [],
      });
    }),
  ];
  return { handlers, calls };
}
