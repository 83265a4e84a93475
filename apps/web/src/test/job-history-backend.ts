import type { JobHistoryRow } from '@lookout/contracts';
import { HttpResponse, http } from 'msw';

const LOCAL_AGENT = { id: '00000000-0000-0000-0000-000000000000', name: 'local' };

/** A `job_histories` row with the defaults of a finished local run. */
export function jobFixture(overrides: Partial<JobHistoryRow> & { id: string; name: string }): JobHistoryRow {
  return {
    status: 'SUCCESS',
    success_count: 1,
    error_count: 0,
    duration_millis: 120,
    hostname: 'replica-1',
    resource_type: null,
    resource_id: null,
    resource_name: null,
    time_start: '2024-10-02T10:00:00Z',
    time_end: '2024-10-02T10:00:00.120Z',
    created_at: '2024-10-02T10:00:00Z',
    agent_id: LOCAL_AGENT.id,
    agent: LOCAL_AGENT,
    details: null,
    ...overrides,
  };
}

/** One `GET /api/db/job_histories` the page made: its parameters and `Prefer` header. */
export interface JobHistoryRequest {
  params: URLSearchParams;
  prefer: string | null;
}

/** Values of a `<col>.filter` list: included ones, and excluded ones (without their '!'). */
function filterValues(param: string | null): { include: string[]; exclude: string[] } {
  const values = param ? param.split(',') : [];
  return {
    include: values.filter((value) => !value.startsWith('!')),
    exclude: values.filter((value) => value.startsWith('!')).map((value) => value.slice(1)),
  };
}

function matches(row: JobHistoryRow, params: URLSearchParams): boolean {
  for (const [column, value] of [
    ['status', row.status],
    ['name', row.name],
    ['resource_type', row.resource_type ?? ''],
  ] as const) {
    const { include, exclude } = filterValues(params.get(`${column}.filter`));
    if (include.length > 0 && !include.includes(value)) return false;
    if (exclude.includes(value)) return false;
  }
  const minimum = /^gte\.(\d+)$/.exec(params.get('duration_millis') ?? '')?.[1];
  if (minimum !== undefined && (row.duration_millis ?? 0) < Number(minimum)) return false;
  const resourceId = /^eq\.(.+)$/.exec(params.get('resource_id') ?? '')?.[1];
  return resourceId === undefined || row.resource_id === resourceId;
}

/**
 * The job history relations as the data API answers them: `job_histories` filtered by the
 * `.filter` lists, resource id and minimum duration, paged by limit and offset, with
 * Content-Range for `count=exact`; `job_history_names` from the same rows. `total` pretends
 * there are more rows than the fixtures (for paging).
 */
export function jobHistoryHandlers(rows: readonly JobHistoryRow[], options: { total?: number } = {}) {
  const requests: JobHistoryRequest[] = [];
  const handlers = [
    http.get('*/api/db/job_histories', ({ request }) => {
      const params = new URL(request.url).searchParams;
      requests.push({ params, prefer: request.headers.get('prefer') });
      const matching = rows.filter((row) => matches(row, params));
      const offset = Number(params.get('offset') ?? 0);
      const limit = Number(params.get('limit') ?? matching.length);
      const page = matching.slice(offset, offset + limit);
      const total = options.total ?? matching.length;
      return HttpResponse.json(page, {
        headers: { 'content-range': page.length ? `${offset}-${offset + page.length - 1}/${total}` : `*/${total}` },
      });
    }),
    http.get('*/api/db/job_history_names', () =>
      HttpResponse.json([...new Set(rows.map((row) => row.name))].sort().map((name) => ({ name }))),
    ),
  ];
  return { handlers, requests };
}
