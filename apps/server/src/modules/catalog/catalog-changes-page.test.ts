import { ROLES, type CatalogChangesResponse, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * The calls of the changes and insights pages (web features/catalog: changes-params.ts,
 * insights-params.ts) as the browser sends them, against real PostgreSQL: an item's changes
 * following related items downstream and upstream, named ranges, the creator filter, the
 * insights page with its count, order and component lookup, and who may read them.
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const ids = {} as Record<'cluster' | 'deploy' | 'pod' | 'other' | 'component', string>;

const changes = (user: TestUser | undefined, body: Record<string, unknown>) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/catalog/changes',
    headers: { ...bearer(user), 'content-type': 'application/json' },
    payload: JSON.stringify({ from: 'now-7d', to: 'now', page: 1, page_size: 200, sort_by: '-created_at', ...body }),
  });
const summaries = async (body: Record<string, unknown>) =>
  (await changes(users.viewer, body)).json<CatalogChangesResponse>().changes.map((row) => row.summary);
const query = <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) =>
  testApp.database.pool.query<T>(sql, values).then((result) => result.rows);

beforeAll(async () => {
  testApp = await buildTestApp();
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@example.com`,
      roles: [role],
    });
  }
  const item = async (type: string, name: string, parent: string | null) =>
    (
      await query<{ id: string }>(
        `INSERT INTO config_items (config_class, type, name, parent_id, config) VALUES ('Kubernetes', $1, $2, $3, '{}')
         RETURNING id`,
        [type, name, parent],
      )
    )[0]!.id;
  ids.cluster = await item('Kubernetes::Cluster', 'eu', null);
  ids.deploy = await item('Kubernetes::Deployment', 'shop', ids.cluster);
  ids.pod = await item('Kubernetes::Pod', 'shop-1', ids.deploy);
  ids.other = await item('Kubernetes::Pod', 'unrelated', null);
  const change = (config: string, summary: string, hoursAgo: number, by: string | null = null) =>
    query(
      `INSERT INTO config_changes (config_id, change_type, severity, summary, source, external_created_by, created_at)
       VALUES ($1, 'diff', 'info', $2, 'test', $3, now() - $4 * interval '1 hour')`,
      [config, summary, by, hoursAgo],
    );
  await change(ids.cluster, 'cluster upgraded', 1);
  await change(ids.deploy, 'deployment scaled', 2, 'deployer');
  await change(ids.pod, 'pod restarted', 3);
  await change(ids.other, 'unrelated change', 4);
  await change(ids.deploy, 'two days ago', 48);
  await query(
    `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, message, first_observed, last_observed)
     VALUES ($1, 'privileged', 'security', 'high', 'open', 'runs privileged', now() - interval '2 days', now()),
            ($1, 'restarts', 'reliability', 'medium', 'open', 'restarted', now() - interval '1 day', now()),
            ($2, 'limits', 'cost', 'low', 'resolved', 'no limits', now() - interval '3 days', now())`,
    [ids.pod, ids.other],
  );
  ids.component = (
    await query<{ id: string }>(
      `INSERT INTO components (name, external_id, status, config_id) VALUES ('Shop', 'shop', 'healthy', $1) RETURNING id`,
      [ids.pod],
    )
  )[0]!.id;
}, 120_000);

afterAll(async () => {
  await testApp?.close();
});

describe("an item's changes with related items", () => {
  it('follows children downstream, parents upstream, both, or neither', async () => {
    const body = (recursive: string) => ({ id: ids.deploy, recursive, depth: 5 });
    expect(await summaries(body('downstream'))).toEqual(['deployment scaled', 'pod restarted', 'two days ago']);
    expect(await summaries(body('upstream'))).toEqual(['cluster upgraded', 'deployment scaled', 'two days ago']);
    expect(await summaries(body('all'))).toEqual([
      'cluster upgraded',
      'deployment scaled',
      'pod restarted',
      'two days ago',
    ]);
    expect(await summaries(body('none'))).toEqual(['deployment scaled', 'two days ago']);
  });
});

describe('the changes page', () => {
  it('reads named ranges as the picker sends them', async () => {
    // 'Yesterday' is now-1d/d to now-1d/d: the whole of yesterday.
    const yesterday = await summaries({ from: 'now-1d/d', to: 'now-1d/d' });
    // Whether a seeded change falls in yesterday depends on the hour the test runs at (an hour
    // ago is yesterday just after midnight), so the database says which should.
    const [row] = await query<{ two_days_ago: boolean; an_hour_ago: boolean }>(
      `SELECT (now() - interval '48 hours') >= date_trunc('day', now() - interval '1 day') AS two_days_ago,
              (now() - interval '1 hour') < date_trunc('day', now()) AS an_hour_ago`,
    );
    expect(yesterday.includes('two days ago')).toBe(row!.two_days_ago);
    expect(yesterday.includes('cluster upgraded')).toBe(row!.an_hour_ago);
  });

  it('matches the external creator, sorts by item name and answers 400 for an unknown order', async () => {
    expect(await summaries({ created_by: 'deployer' })).toEqual(['deployment scaled']);
    const byName = (await changes(users.viewer, { sort_by: 'name' })).json<CatalogChangesResponse>();
    expect(byName.changes[0]!.name).toBe('eu');
    const bad = await changes(users.viewer, { sort_by: 'secret' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('sort_by');
  });
});

describe('the insights page', () => {
  const get = (user: TestUser, url: string) =>
    testApp.app.inject({ method: 'GET', url, headers: { ...bearer(user), prefer: 'count=exact' } });
  const LIST =
    '/api/db/config_analysis_items?select=id,analysis_type,analyzer,severity,status,message,first_observed,last_observed,config:configs(id,name,config_class,type)';

  it('answers a page with its total in the order asked, ties broken by id', async () => {
    const response = await get(users.viewer, `${LIST}&limit=1&offset=1&order=first_observed.desc,id.asc`);
    // A part of the rows with their count: 206 Partial Content, as PostgREST answers.
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe('1-1/3');
    expect(response.json()).toEqual([
      expect.objectContaining({ analyzer: 'privileged', config: expect.objectContaining({ name: 'shop-1' }) }),
    ]);
    const filtered = await get(
      users.viewer,
      `${LIST}&limit=50&offset=0&status=eq.open&severity=eq.high&config_type=eq.Kubernetes::Pod&order=config_name.asc,id.asc`,
    );
    expect((filtered.json() as Array<{ analyzer: string }>).map((row) => row.analyzer)).toEqual(['privileged']);
  });

  it("finds a component's insights and lists components and analyzers for the filters", async () => {
    const byComponent = await get(users.viewer, `/api/db/rpc/lookup_analysis_by_component?id=${ids.component}`);
    expect(byComponent.statusCode).toBe(200);
    expect((byComponent.json() as Array<{ analyzer: string }>).map((row) => row.analyzer).sort()).toEqual([
      'privileged',
      'restarts',
    ]);
    const components = await get(users.viewer, '/api/db/components?select=id,name&deleted_at=is.null&order=name.asc');
    expect(components.json()).toEqual([{ id: ids.component, name: 'Shop' }]);
    const analyzers = await get(users.viewer, '/api/db/config_analysis_analyzers?order=analyzer.asc');
    expect(analyzers.json()).toEqual([{ analyzer: 'limits' }, { analyzer: 'privileged' }, { analyzer: 'restarts' }]);
  });

  it.each(ROLES)('%s reads changes and insights (read on config_scrapers)', async (role) => {
    expect((await changes(users[role], {})).statusCode).toBe(200);
    expect((await get(users[role], `${LIST}&limit=1`)).headers['content-range']).toBe('0-0/3');
  });

  it('needs a session', async () => {
    expect((await changes(undefined, {})).statusCode).toBe(401);
  });
});
