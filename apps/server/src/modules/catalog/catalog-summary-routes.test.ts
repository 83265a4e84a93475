import { can, ROLES, type CatalogChangesResponse, type CatalogSummaryRow, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * POST /api/catalog/summary and POST /api/catalog/changes (ui-calls 3.5) against real
 * PostgreSQL with seeded items, changes and insights: answers, filters, paging, per role, and
 * bad bodies (400 naming the field).
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const items = {} as Record<'pod1' | 'pod2' | 'pod3' | 'deploy' | 'gone', string>;

const post = (user: TestUser | undefined, path: string, body: unknown) =>
  testApp.app.inject({
    method: 'POST',
    url: `/api/catalog/${path}`,
    headers: { ...bearer(user), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const query = <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) =>
  testApp.database.pool.query<T>(sql, values).then((result) => result.rows);

async function insertItem(
  type: string,
  name: string,
  health: string | null,
  extra: { deleted?: boolean; team?: string; cost?: number } = {},
) {
  const rows = await query<{ id: string }>(
    `INSERT INTO config_items (config_class, type, name, health, status, tags, labels, config, cost_total_1d, cost_total_30d, deleted_at)
     VALUES (split_part($1, '::', 1), $1, $2, $3, 'Running', $4, $5, '{}'::jsonb, $6, $7, $8) RETURNING id`,
    [
      type,
      name,
      health,
      { namespace: 'prod', team: extra.team ?? 'blue' },
      { app: name.startsWith('web') ? 'web' : 'db' },
      extra.cost === undefined ? null : extra.cost / 30,
      extra.cost ?? null,
      extra.deleted ? new Date() : null,
    ],
  );
  return rows[0]!.id;
}

async function insertChange(configId: string, changeType: string, severity: string, hoursAgo: number, summary = '') {
  await query(
    `INSERT INTO config_changes (config_id, change_type, severity, summary, source, created_at, first_observed, external_change_id)
     VALUES ($1, $2, $3, $4, 'kubernetes', now() - $5 * interval '1 hour', now() - $5 * interval '1 hour', gen_random_uuid()::text)`,
    [configId, changeType, severity, summary, hoursAgo],
  );
}

beforeAll(async () => {
  testApp = await buildTestApp();
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@example.com`,
      roles: [role],
    });
  }
  items.pod1 = await insertItem('Kubernetes::Pod', 'web-1', 'healthy', { cost: 30 });
  items.pod2 = await insertItem('Kubernetes::Pod', 'web-2', 'unhealthy', { cost: 60, team: 'red' });
  items.pod3 = await insertItem('Kubernetes::Pod', 'db-1', null);
  items.deploy = await insertItem('Kubernetes::Deployment', 'web', 'warning');
  items.gone = await insertItem('Kubernetes::Pod', 'old-1', 'healthy', { deleted: true });
  await insertChange(items.pod1, 'diff', 'info', 1, 'image changed');
  await insertChange(items.pod1, 'Pulled', 'info', 2);
  await insertChange(items.pod2, 'BackOff', 'high', 3);
  await insertChange(items.deploy, 'diff', 'low', 50);
  await insertChange(items.deploy, 'ScalingReplicaSet', 'info', 24 * 40); // outside 30 days
  await insertChange(items.gone, 'diff', 'info', 1);
  await query(
    `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, message, first_observed, last_observed)
     VALUES ($1, 'privileged', 'security', 'high', 'open', 'runs privileged', now(), now()),
            ($1, 'no-limits', 'cost', 'low', 'open', 'no limits', now(), now()),
            ($2, 'old', 'security', 'low', 'resolved', 'fixed', now(), now())`,
    [items.pod2, items.pod1],
  );
  // List counts come from the roll-ups the catalog summary job refreshes (ADR 0021).
  await query('SELECT lookout_refresh_config_item_summaries()');
}, 120_000);

afterAll(async () => {
  await testApp?.close();
});

describe('POST /api/catalog/summary', () => {
  it('groups live items by type with health, 30-day changes, open insights and costs', async () => {
    const response = await post(users.admin, 'summary', {
      changes: { since: '30d' },
      analysis: { since: '30d' },
      cost: '30d',
    });
    expect(response.statusCode).toBe(200);
    const rows = response.json<CatalogSummaryRow[]>();
    expect(rows.map((row) => row.type)).toEqual(['Kubernetes::Deployment', 'Kubernetes::Pod']);
    const pods = rows[1]!;
    expect(pods).toMatchObject({
      count: 3,
      health: { healthy: 1, unhealthy: 1, unknown: 1 },
      changes: 3,
      analysis: { security: 1, cost: 1 },
      cost_total_30d: 90,
      cost_total_1d: 3,
      agent: { id: '00000000-0000-0000-0000-000000000000', name: 'local' },
    });
    expect(rows[0]).toMatchObject({ count: 1, health: { warning: 1 }, changes: 1, analysis: {} });
  });

  it('includes deleted items when asked, and filters by health, status and labels', async () => {
    const withDeleted = (await post(users.admin, 'summary', { deleted: true })).json<CatalogSummaryRow[]>();
    expect(withDeleted.find((row) => row.type === 'Kubernetes::Pod')).toMatchObject({ count: 4, changes: 4 });
    const notUnhealthy = (await post(users.admin, 'summary', { health: '!unhealthy' })).json<CatalogSummaryRow[]>();
    expect(notUnhealthy.find((row) => row.type === 'Kubernetes::Pod')?.count).toBe(2);
    const unknown = (await post(users.admin, 'summary', { health: 'unknown' })).json<CatalogSummaryRow[]>();
    expect(unknown).toEqual([expect.objectContaining({ type: 'Kubernetes::Pod', count: 1 })]);
    const labelled = (await post(users.admin, 'summary', { filter: { app: 'db' } })).json<CatalogSummaryRow[]>();
    expect(labelled).toEqual([expect.objectContaining({ type: 'Kubernetes::Pod', count: 1 })]);
    const status = (await post(users.admin, 'summary', { status: 'Stopped' })).json<CatalogSummaryRow[]>();
    expect(status).toEqual([]);
  });

  it('groups by a tag key and answers it as a column of that name', async () => {
    const rows = (await post(users.admin, 'summary', { groupBy: ['team'] })).json<CatalogSummaryRow[]>();
    const pods = rows.filter((row) => row.type === 'Kubernetes::Pod');
    expect(pods.map((row) => [row.team, row.count]).sort()).toEqual([
      ['blue', 2],
      ['red', 1],
    ]);
  });

  it('answers 400 naming the field of a bad body', async () => {
    const cases: [unknown, string][] = [
      [{ groupBy: 'type' }, 'groupBy'],
      [{ deleted: 'yes' }, 'deleted'],
      [{ changes: { since: 'soon' } }, 'changes.since'],
      [{ cost: 'lots' }, 'cost'],
      [{ filter: { app: 3 } }, 'filter'],
      [{ unknownKey: 1 }, 'unknownKey'],
    ];
    for (const [body, field] of cases) {
      const response = await post(users.admin, 'summary', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body).toContain(field);
    }
  });
});

describe('POST /api/catalog/changes', () => {
  it('answers a page of changes in the range, newest first, with the total and counts by type', async () => {
    const response = await post(users.admin, 'changes', {
      from: 'now-7d',
      to: 'now',
      page: 1,
      page_size: 2,
      sort_by: '-created_at',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<CatalogChangesResponse>();
    expect(body.total).toBe(4);
    expect(body.summary).toEqual({ diff: 2, Pulled: 1, BackOff: 1 });
    expect(body.changes.map((row) => row.change_type)).toEqual(['diff', 'Pulled']);
    expect(body.changes[0]).toMatchObject({
      config_id: items.pod1,
      name: 'web-1',
      type: 'Kubernetes::Pod',
      severity: 'info',
      summary: 'image changed',
      count: 1,
    });
    const second = (
      await post(users.admin, 'changes', { from: 'now-7d', page: 2, page_size: 2 })
    ).json<CatalogChangesResponse>();
    expect(second.changes.map((row) => row.change_type)).toEqual(['BackOff', 'diff']);
  });

  it('defaults to the last two days and hides deleted items unless asked', async () => {
    const body = (await post(users.admin, 'changes', {})).json<CatalogChangesResponse>();
    expect(body.total).toBe(3);
    const withDeleted = (
      await post(users.admin, 'changes', { include_deleted_configs: true })
    ).json<CatalogChangesResponse>();
    expect(withDeleted.total).toBe(4); // the deleted item's change
  });

  it('filters by config type, change type, severity, tags, summary and item', async () => {
    const total = async (body: Record<string, unknown>) =>
      (await post(users.admin, 'changes', { from: 'now-60d', ...body })).json<CatalogChangesResponse>().total;
    expect(await total({ config_type: 'Kubernetes::Deployment' })).toBe(2);
    expect(await total({ type: '!diff' })).toBe(3);
    expect(await total({ severity: 'high,low' })).toBe(2);
    expect(await total({ tags: 'team=red' })).toBe(1);
    expect(await total({ tags: 'team!=red,namespace in (prod,dev)' })).toBe(4);
    expect(await total({ tags: 'team notin (blue)' })).toBe(1);
    expect(await total({ summary: 'image' })).toBe(1);
    expect(await total({ id: items.pod1, recursive: 'none' })).toBe(2);
    const sorted = (
      await post(users.admin, 'changes', { from: 'now-60d', sort_by: 'change_type' })
    ).json<CatalogChangesResponse>();
    expect(sorted.changes[0]!.change_type).toBe('BackOff');
  });

  it('answers 400 naming the field of a bad body', async () => {
    const cases: [unknown, string][] = [
      [{ page: 0 }, 'page'],
      [{ page_size: 'ten' }, 'page_size'],
      [{ id: 'not-a-uuid' }, 'id'],
      [{ recursive: 'sideways' }, 'recursive'],
      [{ from: 'yesterday-ish' }, 'from'],
      [{ to: 'later' }, 'to'],
      [{ sort_by: 'password' }, 'sort_by'],
      [{ tags: 'novalue' }, 'tags'],
    ];
    for (const [body, field] of cases) {
      const response = await post(users.admin, 'changes', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body).toContain(field);
    }
  });
});

describe('permissions', () => {
  it('needs a session', async () => {
    expect((await post(undefined, 'summary', {})).statusCode).toBe(401);
    expect((await post(undefined, 'changes', {})).statusCode).toBe(401);
  });

  it.each(ROLES)('%s gets the catalog only with read on config_scrapers', async (role) => {
    const expected = can([role], 'config_scrapers', 'read') ? 200 : 403;
    expect((await post(users[role], 'summary', {})).statusCode).toBe(expected);
    expect((await post(users[role], 'changes', {})).statusCode).toBe(expected);
  });
});
