import { ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * Job history through /api/db exactly as the console calls it (spec 2 section 7.6, ui-calls
 * section 3.9; migrations 4 and 14): the Jobs History page's paged, filtered and counted read
 * of `job_histories`, a resource tab's read, and `job_history_names`, as real signed-in users
 * of each role (every role reads `database`; nobody writes job history).
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
let canaryId: string;
let teamId: string;
let componentId: string;
let agentId: string;

const call = (user: TestUser | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(user),
      // What the console sends on every call, and on counted lists (apps/web/src/lib/api-client.ts).
      prefer: 'return=representation,count=exact',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

/**
 * The runs this file writes. The app's own scheduled jobs run meanwhile (as in `lookout serve`)
 * and add rows of their own, so lists are compared on these names.
 */
const MINE = ['SyncTeam', 'ScrapeComponents', 'Reconcile', 'SyncCanary', 'SyncGone'];
const mine = <T extends { name: string }>(rows: T[]): T[] => rows.filter((row) => MINE.includes(row.name));

const query = async <T extends Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<T[]> =>
  (await testApp.database.pool.query<T>(sql, values)).rows;

/** The page's query string for a window that ends now (the UI sends both ends as ISO times). */
function pageQuery(extra: Record<string, string> = {}, window = { hours: 48 }): string {
  const to = new Date(Date.now() + 1000);
  const from = new Date(to.getTime() - window.hours * 3_600_000);
  const params = new URLSearchParams({
    select: '*',
    limit: '150',
    offset: '0',
    ...extra,
    order: extra.order ?? 'created_at.desc',
    and: `(created_at.gt.${from.toISOString()},created_at.lt.${to.toISOString()})`,
  });
  return `/api/db/job_histories?${params.toString()}`;
}

type JobRow = {
  id: string;
  name: string;
  status: string;
  resource_type: string | null;
  resource_id: string | null;
  resource_name: string | null;
  duration_millis: number | null;
  agent: { id: string; name: string };
  details: Record<string, unknown> | null;
};

beforeAll(async () => {
  testApp = await buildTestApp();
  const { app, database } = testApp;
  for (const role of ROLES) {
    users[role] = await createSignedInUser(app, database.pool, { email: `${role}@example.com`, roles: [role] });
  }
  // Only this file's rows: the canary insert below adds its own SyncCanary row (the trigger).
  await query('DELETE FROM job_history');
  canaryId = (
    await query<{ id: string }>(
      `INSERT INTO canaries (name, spec) VALUES ('web-probe', '{"http": [{"name": "home", "url": "http://127.0.0.1:1/"}]}') RETURNING id`,
    )
  )[0]!.id;
  teamId = (
    await query<{ id: string }>(
      "INSERT INTO teams (name, created_by) VALUES ('Platform', '00000000-0000-0000-0000-000000000001') RETURNING id",
    )
  )[0]!.id;
  componentId = (
    await query<{ id: string }>(
      "INSERT INTO components (name, external_id, status) VALUES ('Checkout', 'checkout', 'healthy') RETURNING id",
    )
  )[0]!.id;
  agentId = (await query<{ id: string }>("INSERT INTO agents (name) VALUES ('eu-west') RETURNING id"))[0]!.id;
  await query(
    `INSERT INTO job_history (name, status, resource_type, resource_id, duration_millis, success_count, error_count,
                              details, hostname, agent_id, time_start, time_end, created_at) VALUES
       ('SyncTeam', 'FAILED', 'team', $1, 40, 0, 1, '{"errors": "team sync failed"}', 'replica-1',
        '00000000-0000-0000-0000-000000000000', now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour'),
       ('ScrapeComponents', 'WARNING', 'component', $2, 7200, 3, 2,
        '{"errors": {"pod/a": {"error": "forbidden"}}, "scrape_summary": {"pods": 3}}', 'replica-2',
        $3, now() - interval '2 hours', now() - interval '2 hours', now() - interval '2 hours'),
       ('Reconcile', 'SUCCESS', NULL, NULL, 120, 5, 0, '{"summary": {"pushed": 5}}', 'replica-1',
        '00000000-0000-0000-0000-000000000000', now() - interval '3 hours', now() - interval '3 hours', now() - interval '3 hours'),
       ('Reconcile', 'RUNNING', NULL, NULL, NULL, 0, 0, NULL, 'replica-1',
        '00000000-0000-0000-0000-000000000000', now() - interval '10 minutes', NULL, now() - interval '10 minutes'),
       ('Reconcile', 'FAILED', NULL, NULL, 900, 0, 1, '{"errors": ["timeout", "refused"]}', 'replica-1',
        '00000000-0000-0000-0000-000000000000', now() - interval '5 days', now() - interval '5 days', now() - interval '5 days'),
       ('SyncGone', 'SUCCESS', 'canary', '0192a5d4-0000-7000-8000-00000000dead', 1, 1, 0, NULL, 'replica-1',
        '00000000-0000-0000-0000-000000000000', now() - interval '4 hours', now() - interval '4 hours', now() - interval '4 hours')`,
    [teamId, componentId, agentId],
  );
});
afterAll(() => testApp.close());

describe('GET /api/db/job_histories as the Jobs History page sends it (ui-calls 3.9)', () => {
  it('serves the default view (not SUCCESS in the last 2 days, newest first) with every field the page reads and the exact count', async () => {
    const response = await call(users.admin, 'GET', pageQuery({ 'status.filter': '!SUCCESS' }));
    expect(response.statusCode).toBe(200);
    const rows = response.json<JobRow[]>();
    expect(mine(rows).map((row) => [row.name, row.status])).toEqual([
      ['Reconcile', 'RUNNING'],
      ['SyncTeam', 'FAILED'],
      ['ScrapeComponents', 'WARNING'],
    ]);
    expect(rows.every((row) => row.status !== 'SUCCESS')).toBe(true);
    expect(response.headers['content-range']).toBe(`0-${rows.length - 1}/${rows.length}`);
    expect(Object.keys(rows[0]!).sort()).toEqual(
      [
        'agent',
        'agent_id',
        'created_at',
        'details',
        'duration_millis',
        'error_count',
        'hostname',
        'id',
        'name',
        'resource_id',
        'resource_name',
        'resource_type',
        'status',
        'success_count',
        'time_end',
        'time_start',
      ].sort(),
    );
    const team = rows.find((row) => row.name === 'SyncTeam')!;
    expect(team).toMatchObject({
      resource_type: 'team',
      resource_id: teamId,
      resource_name: 'Platform',
      details: { errors: 'team sync failed' },
      agent: { id: '00000000-0000-0000-0000-000000000000', name: 'local' },
    });
    expect(rows.find((row) => row.name === 'ScrapeComponents')).toMatchObject({
      resource_name: 'Checkout',
      agent: { id: agentId, name: 'eu-west' },
      details: { errors: { 'pod/a': { error: 'forbidden' } }, scrape_summary: { pods: 3 } },
    });
  });

  it('resolves a canary run to its canary, and a run of a resource that is gone to no name', async () => {
    const response = await call(users.admin, 'GET', pageQuery({ 'resource_type.filter': 'canary' }));
    const rows = response.json<JobRow[]>();
    expect(rows.map((row) => [row.name, row.resource_id, row.resource_name])).toEqual([
      ['SyncCanary', canaryId, 'web-probe'],
      ['SyncGone', '0192a5d4-0000-7000-8000-00000000dead', null],
    ]);
  });

  it('filters by job name (included and excluded), minimum duration, and pages with offset', async () => {
    const named = await call(users.admin, 'GET', pageQuery({ 'name.filter': 'Reconcile' }));
    expect(named.json<JobRow[]>().map((row) => row.status)).toEqual(['RUNNING', 'SUCCESS']);
    const excluded = await call(users.admin, 'GET', pageQuery({ 'name.filter': '!Reconcile,!SyncCanary' }));
    expect(
      mine(excluded.json<JobRow[]>())
        .map((row) => row.name)
        .sort(),
    ).toEqual(['ScrapeComponents', 'SyncGone', 'SyncTeam']);
    expect(excluded.json<JobRow[]>().map((row) => row.name)).not.toContain('Reconcile');
    const slow = await call(users.admin, 'GET', pageQuery({ duration_millis: 'gte.100' }));
    expect(mine(slow.json<JobRow[]>()).map((row) => row.duration_millis)).toEqual([7200, 120]);
    expect(slow.json<JobRow[]>().every((row) => (row.duration_millis ?? 0) >= 100)).toBe(true);
    const second = await call(
      users.admin,
      'GET',
      pageQuery({ limit: '2', offset: '2', order: 'name.asc', 'name.filter': MINE.join(',') }),
    );
    expect(second.json<JobRow[]>().map((row) => row.name)).toEqual(['ScrapeComponents', 'SyncCanary']);
    expect(second.headers['content-range']).toBe('2-3/6');
  });

  it('sorts by the columns the table offers', async () => {
    const byDuration = await call(
      users.admin,
      'GET',
      pageQuery({ order: 'duration_millis.desc', 'status.filter': 'FAILED,WARNING' }),
    );
    expect(mine(byDuration.json<JobRow[]>()).map((row) => row.name)).toEqual(['ScrapeComponents', 'SyncTeam']);
    const byResource = await call(
      users.admin,
      'GET',
      pageQuery({ order: 'resource_name.asc', 'resource_type.filter': 'team,component' }),
    );
    expect(byResource.json<JobRow[]>().map((row) => row.resource_name)).toEqual(['Checkout', 'Platform']);
  });

  it('reads older runs with a wider window, and one resource for its Job History tab', async () => {
    const week = await call(users.admin, 'GET', pageQuery({ 'name.filter': 'Reconcile' }, { hours: 7 * 24 }));
    expect(week.json<JobRow[]>()).toHaveLength(3);
    const tab = await call(
      users.admin,
      'GET',
      pageQuery({ 'resource_type.filter': 'team', resource_id: `eq.${teamId}` }),
    );
    expect(tab.json<JobRow[]>().map((row) => row.name)).toEqual(['SyncTeam']);
  });

  it('fills the name filter from job_history_names, in name order', async () => {
    const response = await call(users.editor, 'GET', '/api/db/job_history_names?order=name.asc');
    expect(response.statusCode).toBe(200);
    const names = response.json<Array<{ name: string }>>();
    expect(mine(names)).toEqual([
      { name: 'Reconcile' },
      { name: 'ScrapeComponents' },
      { name: 'SyncCanary' },
      { name: 'SyncGone' },
      { name: 'SyncTeam' },
    ]);
    // Each name once, in order (the app's own jobs among them).
    const listed = names.map((row) => row.name);
    expect(listed).toEqual([...new Set(listed)].sort());
  });

  it('answers bad input with a 400 that names the problem', async () => {
    const column = await call(users.admin, 'GET', pageQuery({ order: 'nosuch.desc' }));
    expect(column.statusCode).toBe(400);
    expect(column.json().message).toContain('nosuch');
    const duration = await call(users.admin, 'GET', pageQuery({ duration_millis: 'gte.fast' }));
    expect(duration.statusCode).toBe(400);
    const time = await call(users.admin, 'GET', '/api/db/job_histories?and=(created_at.gt.not-a-time)');
    expect(time.statusCode).toBe(400);
  });
});

describe('who reads and writes job history (spec 1 section 6: the database resource)', () => {
  it.each(ROLES)('%s reads the page and the names', async (role) => {
    const page = await call(users[role], 'GET', pageQuery({ 'status.filter': '!SUCCESS' }));
    expect(page.statusCode).toBe(200);
    expect(mine(page.json<JobRow[]>())).toHaveLength(3);
    expect((await call(users[role], 'GET', '/api/db/job_history_names?order=name.asc')).statusCode).toBe(200);
  });

  it('refuses a caller who is not signed in', async () => {
    expect((await call(undefined, 'GET', pageQuery())).statusCode).toBe(401);
    expect((await call(undefined, 'GET', '/api/db/job_history_names')).statusCode).toBe(401);
  });

  it('keeps job history read-only: 405 for those who write the database, 403 for viewers', async () => {
    for (const role of ['admin', 'editor'] as const) {
      expect(
        (await call(users[role], 'POST', '/api/db/job_histories', { name: 'x', status: 'SUCCESS' })).statusCode,
      ).toBe(405);
      expect(
        (await call(users[role], 'PATCH', '/api/db/job_histories?name=eq.SyncTeam', { status: 'SUCCESS' })).statusCode,
      ).toBe(405);
      expect((await call(users[role], 'DELETE', '/api/db/job_histories?name=eq.SyncTeam')).statusCode).toBe(405);
      expect((await call(users[role], 'POST', '/api/db/job_history_names', { name: 'x' })).statusCode).toBe(405);
    }
    for (const role of ['viewer', 'commander', 'responder'] as const) {
      expect((await call(users[role], 'DELETE', '/api/db/job_histories?name=eq.SyncTeam')).statusCode).toBe(403);
    }
    expect(await query('SELECT 1 FROM job_history WHERE name = $1', ['SyncTeam'])).toHaveLength(1);
    // The raw table is not on the allow-list at all.
    expect((await call(users.admin, 'GET', '/api/db/job_history')).statusCode).toBe(404);
  });
});
