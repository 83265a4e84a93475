import type { WhatChangedResponse } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { until } from '../../../test/event-helpers.js';

/*
 * 'What changed' (issue 14 item 7) and the topology.rollup events (item 2) on a real
 * PostgreSQL with the event queue's workers running: a component with a parent and a child,
 * config items and checks linked to each, changes and check results around the moment the
 * component turned unhealthy; then incidents and insights that move the summaries without a
 * run, a check or a config event.
 */

let testApp: TestApp;
let viewer: TestUser;
const ids = {} as Record<
  'shop' | 'db' | 'disk' | 'cfgShop' | 'cfgDb' | 'cfgDisk' | 'cfgOther' | 'checkDb' | 'checkDisk' | 'canary',
  string
>;
const MINUTE = 60_000;
/** When the db component turned unhealthy in this test. */
const onset = new Date(Date.now() - 10 * MINUTE);
const at = (minutes: number) => new Date(onset.getTime() + minutes * MINUTE);

const query = <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) =>
  testApp.database.pool.query<T>(sql, values).then((result) => result.rows);

const one = async (sql: string, values: unknown[] = []) => (await query<{ id: string }>(sql, values))[0]!.id;

const component = (name: string, parentId: string | null, health: string) =>
  one(
    `INSERT INTO components (external_id, name, type, status, own_health, health, parent_id)
     VALUES ($1, $1, 'Service', $2, $2, $2, $3) RETURNING id`,
    [name, health, parentId],
  );

const configItem = (name: string) =>
  one(
    `INSERT INTO config_items (config_class, type, name, config, health) VALUES ('Service', 'Service::Thing', $1, '{}', 'healthy') RETURNING id`,
    [name],
  );

const change = (configId: string, minutes: number, severity: string | null, summary: string) =>
  query(
    `INSERT INTO config_changes (config_id, change_type, severity, summary, created_at, first_observed) VALUES ($1, 'diff', $2, $3, $4, $4)`,
    [configId, severity, summary, at(minutes)],
  );

const result = (checkId: string, minutes: number, status: boolean, error: string | null = null) =>
  query(`INSERT INTO check_statuses (check_id, time, status, error) VALUES ($1, $2, $3, $4)`, [
    checkId,
    at(minutes),
    status,
    error,
  ]);

const whatChanged = async (id: string, user: TestUser | null = viewer) =>
  testApp.app.inject({
    method: 'GET',
    url: `/api/topology/what-changed/${id}`,
    headers: user ? bearer(user) : {},
  });

beforeAll(async () => {
  testApp = await buildTestApp();
  viewer = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'viewer@topology-changes.example.com',
    roles: ['viewer'],
  });
  ids.shop = await component('Shop', null, 'unhealthy');
  ids.db = await component('DB', ids.shop, 'unhealthy');
  ids.disk = await component('Disk', ids.db, 'healthy');
  // The trigger stamped now(); the test sets the moment so the window is known.
  await query(`UPDATE components SET health_changed_at = $2 WHERE id = $1`, [ids.db, onset]);
  for (const [key, name] of [
    ['cfgShop', 'shop-config'],
    ['cfgDb', 'db-config'],
    ['cfgDisk', 'disk-config'],
    ['cfgOther', 'unlinked-config'],
  ] as const)
    ids[key] = await configItem(name);
  for (const [componentId, configId] of [
    [ids.shop, ids.cfgShop],
    [ids.db, ids.cfgDb],
    [ids.disk, ids.cfgDisk],
  ])
    await query(
      `INSERT INTO config_component_relationships (component_id, config_id, selector_id) VALUES ($1, $2, 'test')`,
      [componentId, configId],
    );
  ids.canary = await one(`INSERT INTO canaries (name, spec) VALUES ('changes', '{"http":[]}') RETURNING id`);
  ids.checkDb = await one(
    `INSERT INTO checks (canary_id, type, name, spec) VALUES ($1, 'http', 'db-port', '{}') RETURNING id`,
    [ids.canary],
  );
  ids.checkDisk = await one(
    `INSERT INTO checks (canary_id, type, name, spec, severity) VALUES ($1, 'http', 'disk-free', '{}', 'low') RETURNING id`,
    [ids.canary],
  );
  for (const [componentId, checkId] of [
    [ids.db, ids.checkDb],
    [ids.disk, ids.checkDisk],
  ])
    await query(`INSERT INTO check_component_relationships (component_id, check_id, canary_id) VALUES ($1, $2, $3)`, [
      componentId,
      checkId,
      ids.canary,
    ]);

  await change(ids.cfgDb, -5, 'high', 'max_connections lowered');
  await change(ids.cfgShop, -50, 'critical', 'shop release');
  await change(ids.cfgDisk, -1, null, 'disk resized');
  await change(ids.cfgDb, -70, 'critical', 'too early');
  await change(ids.cfgDb, 5, 'critical', 'too late');
  await change(ids.cfgOther, -2, 'critical', 'not linked');
  await result(ids.checkDb, -90, true);
  await result(ids.checkDb, -20, true);
  await result(ids.checkDb, -3, false, 'connection refused');
  await result(ids.checkDisk, -30, false, 'disk full');
  await result(ids.checkDisk, -25, true);
}, 120_000);

afterAll(async () => {
  await testApp?.close();
});

describe("'What changed' before a component turned unhealthy", () => {
  it('ranks its and its relatives’ changes and check transitions of the hour before, most severe and newest first', async () => {
    const response = await whatChanged(ids.db);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<WhatChangedResponse>();
    expect(body.component).toEqual({ id: ids.db, name: 'DB', health: 'unhealthy' });
    expect(body.unhealthySince).toBe(onset.toISOString());
    expect(body.from).toBe(at(-60).toISOString());
    expect(body.items.map((item) => [item.kind, item.relation, item.severity, item.summary])).toEqual([
      ['config_change', 'parent', 'critical', 'shop release'],
      ['check_transition', 'self', 'high', 'connection refused'],
      ['config_change', 'self', 'high', 'max_connections lowered'],
      ['check_transition', 'child', 'low', 'disk full'],
      ['config_change', 'child', 'info', 'disk resized'],
      ['check_transition', 'child', 'info', null],
    ]);
    expect(body.items[0]).toMatchObject({
      component: { id: ids.shop, name: 'Shop' },
      config: { id: ids.cfgShop, name: 'shop-config', type: 'Service::Thing' },
      change_type: 'diff',
      at: at(-50).toISOString(),
    });
    expect(body.items[1]).toMatchObject({
      check: { id: ids.checkDb, name: 'db-port' },
      status: 'unhealthy',
      title: 'db-port',
      at: at(-3).toISOString(),
    });
  });

  it('answers no items for a component that is not unhealthy, 404 for an unknown one, 400 for a bad id', async () => {
    const healthy = await whatChanged(ids.disk);
    expect(healthy.statusCode).toBe(200);
    expect(healthy.json<WhatChangedResponse>()).toMatchObject({ unhealthySince: null, from: null, items: [] });
    const unknown = await whatChanged('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('Component not found');
    const bad = await whatChanged('not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('id');
    expect((await whatChanged(ids.db, null)).statusCode).toBe(401);
  });

  it('stamps health_changed_at only when the rolled-up health changes', async () => {
    const stamp = async () =>
      (await query<{ t: Date }>(`SELECT health_changed_at AS t FROM components WHERE id = $1`, [ids.disk]))[0]!.t;
    const before = await stamp();
    await query(`UPDATE components SET status = 'healthy', health = 'healthy' WHERE id = $1`, [ids.disk]);
    expect(await stamp()).toEqual(before);
  });
});

describe('summaries kept current by incidents and insights (topology.rollup)', () => {
  const summaryOf = async (id: string) =>
    (
      await query<{ summary: Record<string, Record<string, Record<string, number>> | undefined> | null }>(
        `SELECT summary FROM components WHERE id = $1`,
        [id],
      )
    )[0]!.summary;

  it('counts an incident once its evidence names the component, and drops it when resolved', async () => {
    const incidentId = await one(
      `INSERT INTO incidents (title, type, severity, status) VALUES ('Disk trouble', 'availability', 'high', 'open') RETURNING id`,
    );
    const hypothesisId =
      (await query<{ id: string }>(`SELECT id FROM hypotheses WHERE incident_id = $1 LIMIT 1`, [incidentId]))[0]?.id ??
      (await one(`INSERT INTO hypotheses (incident_id, type, title) VALUES ($1, 'root', 'root') RETURNING id`, [
        incidentId,
      ]));
    await query(`INSERT INTO evidences (hypothesis_id, type, component_id) VALUES ($1, 'topology', $2)`, [
      hypothesisId,
      ids.disk,
    ]);
    await until(async () => (await summaryOf(ids.disk))?.incidents?.availability?.high === 1, 50);
    // The ancestors carry their children's counts.
    await until(async () => (await summaryOf(ids.shop))?.incidents?.availability?.high === 1, 50);

    await query(`UPDATE incidents SET status = 'resolved' WHERE id = $1`, [incidentId]);
    await until(async () => (await summaryOf(ids.disk))?.incidents?.availability === undefined, 50);
    await until(async () => (await summaryOf(ids.db))?.incidents?.availability === undefined, 50);
  }, 60_000);

  it('counts a new insight of a linked item and drops it when resolved, without a config event', async () => {
    await query(
      `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity) VALUES ($1, 'full-disk', 'reliability', 'critical')`,
      [ids.cfgDisk],
    );
    await until(async () => (await summaryOf(ids.disk))?.insights?.reliability?.critical === 1, 50);
    await until(async () => (await summaryOf(ids.shop))?.insights?.reliability?.critical === 1, 50);

    // An upsert that changes nothing the summary counts queues nothing.
    await query(`UPDATE config_analysis SET last_observed = now() WHERE config_id = $1`, [ids.cfgDisk]);
    const queued = await query(`SELECT 1 FROM event_queue WHERE name = 'topology.rollup' AND event_id = $1`, [
      ids.disk,
    ]);
    expect(queued).toHaveLength(0);

    await query(`UPDATE config_analysis SET status = 'resolved' WHERE config_id = $1`, [ids.cfgDisk]);
    await until(async () => (await summaryOf(ids.disk))?.insights?.reliability === undefined, 50);
  }, 60_000);
});

describe('the Playbook runs panel', () => {
  it("reads a component's runs with their playbook through /api/db, as the panel asks", async () => {
    const playbookId = await one(
      `INSERT INTO playbooks (name, title, spec) VALUES ('restart-db', 'Restart database', '{}') RETURNING id`,
    );
    const runId = await one(
      `INSERT INTO playbook_runs (playbook_id, spec, status, component_id) VALUES ($1, '{}', 'completed', $2) RETURNING id`,
      [playbookId, ids.db],
    );
    const params = new URLSearchParams({
      component_id: `eq.${ids.db}`,
      select: 'id,status,created_at,start_time,end_time,playbooks(id,name,title,icon)',
      order: 'created_at.desc',
      limit: '50',
    });
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/db/playbook_runs?${params.toString()}`,
      headers: bearer(viewer),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual([
      expect.objectContaining({
        id: runId,
        status: 'completed',
        playbooks: { id: playbookId, name: 'restart-db', title: 'Restart database', icon: null },
      }),
    ]);
  });
});
