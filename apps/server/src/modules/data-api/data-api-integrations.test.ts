import { integrationRowsSchema, ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * The Integrations list through /api/db exactly as the console calls it (spec 2 sections 2.7
 * and 7.6, ui-calls 3.10; 31_integrations.sql): catalog scrapers, topologies and log backends
 * in one paged, counted read of `integrations_with_status`, each with its latest run, last
 * failure, agent and creator, as real signed-in users of each role (every role reads the
 * integrations resource; the view itself is never written).
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const ids = {} as Record<'scraper' | 'topology' | 'backend' | 'deleted' | 'agent', string>;

const call = (user: TestUser | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(user),
      prefer: 'return=representation,count=exact',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const query = async <T extends Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<T[]> =>
  (await testApp.database.pool.query<T>(sql, values)).rows;

const insertId = async (sql: string, values: unknown[] = []) => (await query<{ id: string }>(sql, values))[0]!.id;

/** The list call of the Integrations page (ui-calls 3.10). */
const LIST = '/api/db/integrations_with_status?order=created_at.desc&select=*&deleted_at=is.null&limit=50&offset=0';

type IntegrationRow = {
  id: string;
  name: string;
  namespace: string | null;
  source: string;
  integration_type: string;
  agent_id: string;
  agent: { id: string; name: string } | null;
  job_status: string | null;
  job_details: Record<string, unknown> | null;
  job_name: string | null;
  job_time_start: string | null;
  job_last_failed: string | null;
  created_by: string | null;
  creator: { id: string; name: string; email: string | null } | null;
  created_at: string;
};

beforeAll(async () => {
  // Nothing in the background: the topology runner would otherwise add runs of its own.
  testApp = await buildTestApp({ background: false });
  const { app, database } = testApp;
  for (const role of ROLES) {
    users[role] = await createSignedInUser(app, database.pool, { email: `${role}@example.com`, roles: [role] });
  }
  const admin = users.admin.id;
  ids.agent = await insertId("INSERT INTO agents (name) VALUES ('eu-west') RETURNING id");
  // Oldest first, so the list's newest-first order is scraper, topology... reversed below.
  ids.backend = await insertId(
    `INSERT INTO logging_backends (name, spec, created_by, created_at)
     VALUES ('loki', '{"loki": {"url": "http://loki:3100"}}', $1, now() - interval '3 hours') RETURNING id`,
    [admin],
  );
  ids.topology = await insertId(
    `INSERT INTO topologies (name, namespace, spec, agent_id, created_by, created_at)
     VALUES ('cluster', 'ops', '{"components": []}', $1, $2, now() - interval '2 hours') RETURNING id`,
    [ids.agent, admin],
  );
  ids.scraper = await insertId(
    `INSERT INTO config_scrapers (name, namespace, spec, source, created_at)
     VALUES ('aws-prod', 'mission-control', '{"aws": []}', 'ConfigFile', now() - interval '1 hour') RETURNING id`,
  );
  ids.deleted = await insertId(
    `INSERT INTO topologies (name, spec, deleted_at) VALUES ('retired', '{}', now()) RETURNING id`,
  );
  await query(
    `INSERT INTO job_history (name, status, resource_type, resource_id, details, time_start, created_at) VALUES
       ('TopologyRun', 'FAILED', 'topology', $1, '{"errors": ["lookup failed"]}', now() - interval '50 minutes', now() - interval '50 minutes'),
       ('TopologyRun', 'SUCCESS', 'topology', $1, NULL, now() - interval '10 minutes', now() - interval '10 minutes'),
       ('ConfigScraper', 'WARNING', 'config_scraper', $2, '{"scrape_summary": {"aws": 3}}', now() - interval '5 minutes', now() - interval '5 minutes')`,
    [ids.topology, ids.scraper],
  );
});
afterAll(() => testApp.close());

describe('GET /api/db/integrations_with_status as the Integrations page sends it (ui-calls 3.10)', () => {
  it('lists the live scrapers, topologies and log backends newest first with the exact count', async () => {
    const response = await call(users.admin, 'GET', LIST);
    expect(response.statusCode).toBe(200);
    const rows = response.json<IntegrationRow[]>();
    const mine = rows.filter((row) => Object.values(ids).includes(row.id));
    expect(mine.map((row) => [row.name, row.integration_type])).toEqual([
      ['aws-prod', 'scrapers'],
      ['cluster', 'topologies'],
      ['loki', 'logging_backends'],
    ]);
    expect(rows.some((row) => row.id === ids.deleted)).toBe(false);
    // The console parses the rows with the contracts' schema.
    expect(integrationRowsSchema.safeParse(rows).error).toBeUndefined();
    expect(response.headers['content-range']).toBe(`0-${rows.length - 1}/${rows.length}`);
  });

  it('gives each row its latest run, its last failure, its agent and its creator, and no spec', async () => {
    const rows = (await call(users.admin, 'GET', LIST)).json<IntegrationRow[]>();
    const byId = new Map(rows.map((row) => [row.id, row]));
    const topology = byId.get(ids.topology)!;
    expect(topology).toMatchObject({
      namespace: 'ops',
      source: 'UI',
      job_status: 'SUCCESS',
      job_name: 'TopologyRun',
      agent: { id: ids.agent, name: 'eu-west' },
      agent_id: ids.agent,
      created_by: users.admin.id,
      creator: { id: users.admin.id, email: 'admin@example.com' },
    });
    expect(topology.job_last_failed).not.toBeNull();
    const scraper = byId.get(ids.scraper)!;
    expect(scraper).toMatchObject({
      namespace: 'mission-control',
      source: 'ConfigFile',
      job_status: 'WARNING',
      job_details: { scrape_summary: { aws: 3 } },
      job_last_failed: null,
      created_by: null,
      creator: null,
    });
    const backend = byId.get(ids.backend)!;
    expect(backend).toMatchObject({ namespace: null, job_status: null, job_time_start: null });
    expect(backend.agent?.id).toBe('00000000-0000-0000-0000-000000000000');
    expect(Object.keys(topology).sort()).toEqual(
      [
        'agent',
        'agent_id',
        'created_at',
        'created_by',
        'creator',
        'deleted_at',
        'id',
        'integration_type',
        'job_details',
        'job_last_failed',
        'job_name',
        'job_status',
        'job_time_start',
        'name',
        'namespace',
        'source',
        'updated_at',
      ].sort(),
    );
  });

  it('pages with limit and offset while the count stays the whole', async () => {
    const first = await call(users.admin, 'GET', LIST.replace('limit=50', 'limit=2'));
    const second = await call(users.admin, 'GET', LIST.replace('limit=50', 'limit=2').replace('offset=0', 'offset=2'));
    expect(first.json<IntegrationRow[]>()).toHaveLength(2);
    expect(second.json<IntegrationRow[]>()).toHaveLength(1);
    expect(first.headers['content-range']).toBe('0-1/3');
    expect(second.headers['content-range']).toBe('2-2/3');
  });

  it('finds one integration by id, as the detail page does', async () => {
    const response = await call(users.viewer, 'GET', `/api/db/integrations_with_status?id=eq.${ids.topology}`);
    expect(response.json<IntegrationRow[]>().map((row) => row.name)).toEqual(['cluster']);
  });

  it('answers a 400 naming the column for a select of something the view does not have', async () => {
    const response = await call(users.admin, 'GET', '/api/db/integrations_with_status?select=spec');
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('spec');
  });
});

describe('who reads and writes integrations (spec 2 section 6: the integrations resource)', () => {
  it.each(ROLES)('%s reads the list', async (role) => {
    const response = await call(users[role], 'GET', LIST);
    expect(response.statusCode).toBe(200);
    expect(response.json<IntegrationRow[]>()).toHaveLength(3);
  });

  it('refuses a caller who is not signed in', async () => {
    expect((await call(undefined, 'GET', LIST)).statusCode).toBe(401);
  });

  it('keeps the view read-only: 405 naming the tables for writers, 403 for the others', async () => {
    for (const role of ['admin', 'editor'] as const) {
      const post = await call(users[role], 'POST', '/api/db/integrations_with_status', { name: 'x' });
      expect(post.statusCode).toBe(405);
      expect(post.body).toContain('write config_scrapers, topologies or logging_backends instead');
      const patch = await call(users[role], 'PATCH', `/api/db/integrations_with_status?id=eq.${ids.topology}`, {
        name: 'renamed',
      });
      expect(patch.statusCode).toBe(405);
    }
    for (const role of ['viewer', 'commander', 'responder'] as const) {
      expect(
        (await call(users[role], 'DELETE', `/api/db/integrations_with_status?id=eq.${ids.topology}`)).statusCode,
      ).toBe(403);
    }
    expect(await query('SELECT name FROM topologies WHERE id = $1', [ids.topology])).toEqual([{ name: 'cluster' }]);
  });
});
