import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROLES, type Role, type TopologyComponent, type TopologyResponse } from '@lookout/contracts';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { until } from '../../../test/event-helpers.js';

/*
 * Topology end to end on a real PostgreSQL and real HTTP: a document written through /api/db
 * runs (planner job) into components built from static entries, a configs lookup with forEach,
 * an http lookup and check/config selectors; the fetch answers the cards' shape; a check that
 * fails and recovers moves the health through the event queue; manual links, snapshot, roles
 * and bad input.
 */

let testApp: TestApp;
let lookupServer: http.Server;
let lookupUrl: string;
const users = {} as Record<Role, TestUser>;
const ids = {} as Record<'canary' | 'checkDb' | 'checkApi' | 'configDb' | 'configCache' | 'topology', string>;

const call = (user: TestUser | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(user),
      ...(body === undefined ? {} : { 'content-type': 'application/json', prefer: 'return=representation' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const query = <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) =>
  testApp.database.pool.query<T>(sql, values).then((result) => result.rows);

const fetchTopology = async (params: string, user: TestUser = users.viewer) => {
  const response = await call(user, 'GET', `/api/canary/api/topology${params}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TopologyResponse>();
};

const byName = (list: TopologyComponent[] | undefined, name: string) => list?.find((c) => c.name === name);

const SPEC = () => ({
  type: 'Shop',
  icon: 'shop',
  schedule: '@every 1h',
  components: [
    {
      name: 'Orders DB',
      type: 'Database',
      checks: [{ selector: { labelSelector: 'app=orders-db' } }],
      configs: [{ name: 'orders', types: ['Postgres::Database'] }],
      properties: [{ name: 'tier', text: 'gold', headline: true }],
    },
    {
      name: 'Caches',
      type: 'Group',
      lookup: { configs: [{ types: ['Redis::Cache'] }] },
      forEach: { properties: [{ name: 'owner', text: 'team-{{ .name }}' }] },
    },
    {
      name: 'API',
      type: 'Service',
      checks: [{ selector: { name: 'api-*' } }],
      properties: [
        {
          name: 'replicas',
          lookup: { http: [{ url: `${lookupUrl}/stats`, display: { expr: 'json.replicas' } }] },
        },
      ],
    },
    { lookup: { http: [{ url: `${lookupUrl}/workers` }] } },
  ],
});

beforeAll(async () => {
  lookupServer = http.createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/stats') response.end(JSON.stringify({ replicas: 3 }));
    else
      response.end(
        JSON.stringify([
          { name: 'worker-1', type: 'Worker', health: 'healthy' },
          { name: 'worker-2', type: 'Worker', health: 'warning' },
        ]),
      );
  });
  await new Promise<void>((resolve) => lookupServer.listen(0, '127.0.0.1', resolve));
  lookupUrl = `http://127.0.0.1:${(lookupServer.address() as AddressInfo).port}`;
  testApp = await buildTestApp({ topology: { planIntervalMs: 200 } });
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@topology.example.com`,
      roles: [role],
    });
  }
  const [canary] = await query<{ id: string }>(
    `INSERT INTO canaries (name, spec) VALUES ('shop', '{"http":[{"name":"x","url":"http://x"}]}') RETURNING id`,
  );
  ids.canary = canary!.id;
  const check = async (name: string, labels: Record<string, string>, status: string) => {
    const [row] = await query<{ id: string }>(
      `INSERT INTO checks (canary_id, type, name, spec, labels, status) VALUES ($1, 'http', $2, '{}', $3, $4) RETURNING id`,
      [ids.canary, name, JSON.stringify(labels), status],
    );
    return row!.id;
  };
  ids.checkDb = await check('orders-db-port', { app: 'orders-db' }, 'healthy');
  ids.checkApi = await check('api-health', {}, 'healthy');
  const item = async (type: string, name: string) => {
    const [row] = await query<{ id: string }>(
      `INSERT INTO config_items (config_class, type, name, config, health) VALUES (split_part($1, '::', 1), $1, $2, '{"password":"s3cret"}', 'healthy') RETURNING id`,
      [type, name],
    );
    return row!.id;
  };
  ids.configDb = await item('Postgres::Database', 'orders');
  ids.configCache = await item('Redis::Cache', 'sessions');
  await query(
    `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity) VALUES ($1, 'big', 'cost', 'high')`,
    [ids.configDb],
  );
}, 120_000);

afterAll(async () => {
  await testApp?.close();
  await new Promise((resolve) => lookupServer?.close(resolve));
});

describe('a topology from real lookups', () => {
  it('is created through /api/db by an editor and run by the planner into components', async () => {
    const created = await call(users.editor, 'POST', '/api/db/topologies', {
      name: 'shop',
      namespace: 'default',
      spec: SPEC(),
    });
    expect(created.statusCode, created.body).toBe(201);
    ids.topology = created.json<{ id: string }[]>()[0]!.id;
    await until(
      async () =>
        (await query(`SELECT 1 FROM components WHERE topology_id = $1 AND name = 'worker-2'`, [ids.topology])).length >
        0,
      50,
    );
    const runs = await query<{ status: string; details: { errors?: string[] } }>(
      `SELECT status, details FROM job_history WHERE resource_type = 'topology' AND resource_id = $1`,
      [ids.topology],
    );
    expect(runs[0]?.status, JSON.stringify(runs[0]?.details)).toBe('SUCCESS');
  }, 60_000);

  it('answers the top level and one component with its children in the cards shape', async () => {
    const top = await fetchTopology('');
    const shop = byName(top.components, 'shop');
    expect(shop).toMatchObject({ type: 'Shop', icon: 'shop', topology_id: ids.topology, parent_id: null });
    expect(top.types).toContain('Shop');
    expect(top).toHaveProperty('healthStatuses');
    expect(top).toHaveProperty('tags');
    expect(top).toHaveProperty('teams');

    const one = await fetchTopology(`?id=${shop!.id}&sortBy=name&sortOrder=asc`);
    expect(one.components).toHaveLength(1);
    const children = one.components[0]!.components ?? [];
    expect(children.map((c) => c.name)).toEqual(['API', 'Caches', 'Orders DB', 'worker-1', 'worker-2']);
    const db = byName(children, 'Orders DB')!;
    expect(db.properties).toEqual([expect.objectContaining({ name: 'tier', text: 'gold', headline: true })]);
    expect(db.summary).toMatchObject({ checks: { healthy: 1 }, insights: { cost: { high: 1 } } });
    expect(db.health).toBe('healthy');
    expect(byName(children, 'API')!.properties).toEqual([expect.objectContaining({ name: 'replicas', value: 3 })]);
    expect(byName(children, 'worker-2')!.health).toBe('warning');
    // The root rolls up its children: a warning worker makes it warning.
    expect(one.components[0]!.health).toBe('warning');
    expect(one.components[0]!.summary).toMatchObject({ warning: 1, checks: { healthy: 2 } });

    const caches = await fetchTopology(`?id=${byName(children, 'Caches')!.id}`);
    expect(caches.components[0]!.components).toEqual([
      expect.objectContaining({
        name: 'sessions',
        type: 'Redis::Cache',
        properties: [expect.objectContaining({ name: 'owner', text: 'team-sessions' })],
      }),
    ]);

    const flat = await fetchTopology(`?type=Worker&flatten=true`);
    expect(flat.components.map((c) => c.name).sort()).toEqual(['worker-1', 'worker-2']);
    const unhealthyFirst = await fetchTopology(`?id=${shop!.id}&sortBy=status`);
    expect(unhealthyFirst.components[0]!.components![0]!.name).toBe('worker-2');
    expect(
      (await fetchTopology(`?id=${shop!.id}&status=warning`)).components[0]!.components!.map((c) => c.name),
    ).toEqual(['worker-2']);
    // The alias without the proxy prefix answers the same.
    expect((await call(users.viewer, 'GET', '/api/topology')).json<TopologyResponse>().components.length).toBe(
      top.components.length,
    );
  });

  it('moves the health through the event queue when a check fails and recovers', async () => {
    const healthOf = async (name: string) =>
      (
        await query<{ health: string }>(`SELECT health FROM components WHERE name = $1 AND deleted_at IS NULL`, [name])
      )[0]?.health;
    await query(`UPDATE checks SET status = 'unhealthy' WHERE id = $1`, [ids.checkDb]);
    const failedAt = Date.now();
    await until(async () => (await healthOf('Orders DB')) === 'unhealthy', 20);
    expect(Date.now() - failedAt).toBeLessThan(10_000);
    await until(async () => (await healthOf('shop')) === 'unhealthy', 20);
    const [row] = await query<{ summary: { checks: Record<string, number> } }>(
      `SELECT summary FROM components WHERE name = 'Orders DB'`,
    );
    expect(row!.summary.checks).toEqual({ unhealthy: 1 });
    const events = await query(`SELECT 1 FROM event_queue WHERE name = 'component.unhealthy'`);
    expect(events.length).toBeGreaterThan(0);

    await query(`UPDATE checks SET status = 'healthy' WHERE id = $1`, [ids.checkDb]);
    await until(async () => (await healthOf('Orders DB')) === 'healthy', 20);
    await until(async () => (await healthOf('shop')) === 'warning', 20);
  }, 60_000);

  it("counts a config item's new insight when its health event arrives", async () => {
    await query(
      `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity) VALUES ($1, 'open-port', 'security', 'critical')`,
      [ids.configDb],
    );
    await query(`UPDATE config_items SET health = 'warning' WHERE id = $1`, [ids.configDb]);
    const insightsOf = async (name: string) =>
      (
        await query<{ summary: { insights?: Record<string, Record<string, number>> } }>(
          `SELECT summary FROM components WHERE name = $1 AND deleted_at IS NULL`,
          [name],
        )
      )[0]?.summary.insights;
    await until(async () => (await insightsOf('Orders DB'))?.security?.critical === 1, 20);
    expect(await insightsOf('Orders DB')).toEqual({ cost: { high: 1 }, security: { critical: 1 } });
    await until(async () => (await insightsOf('shop'))?.security?.critical === 1, 20);
  }, 60_000);

  it('soft-deletes components the spec no longer has and keeps ids of the rest', async () => {
    const [before] = await query<{ id: string }>(
      `SELECT id FROM components WHERE name = 'Orders DB' AND deleted_at IS NULL`,
    );
    const spec = SPEC();
    spec.components = spec.components.filter((c) => c.name !== 'API');
    const changed = await call(users.editor, 'PATCH', `/api/db/topologies?id=eq.${ids.topology}`, { spec });
    expect(changed.statusCode, changed.body).toBe(200);
    await until(
      async () => (await query(`SELECT 1 FROM components WHERE name = 'API' AND deleted_at IS NOT NULL`)).length > 0,
      50,
    );
    const [after] = await query<{ id: string }>(
      `SELECT id FROM components WHERE name = 'Orders DB' AND deleted_at IS NULL`,
    );
    expect(after!.id).toBe(before!.id);
  }, 60_000);
});

describe('manual links, snapshot, roles and bad input', () => {
  const dbComponent = async () =>
    (await query<{ id: string }>(`SELECT id FROM components WHERE name = 'Orders DB' AND deleted_at IS NULL`))[0]!.id;

  it('links and unlinks a config by hand (editor), refuses viewers and non-manual rows', async () => {
    const component = await dbComponent();
    const body = { component_id: component, config_id: ids.configCache, selector_id: 'manual' };
    expect((await call(users.viewer, 'POST', '/api/db/config_component_relationships', body)).statusCode).toBe(403);
    await query(
      `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity) VALUES ($1, 'evictions', 'reliability', 'medium')`,
      [ids.configCache],
    );
    const insights = async () =>
      (
        await query<{ summary: { insights?: Record<string, unknown> } }>(
          'SELECT summary FROM components WHERE id = $1',
          [component],
        )
      )[0]!.summary.insights ?? {};
    const linked = await call(users.editor, 'POST', '/api/db/config_component_relationships', body);
    expect(linked.statusCode, linked.body).toBe(201);
    // The linked item's insights count at once (no event announces a link).
    expect(await insights()).toHaveProperty('reliability', { medium: 1 });
    const panel = await call(
      users.viewer,
      'GET',
      `/api/db/config_component_relationships?component_id=eq.${component}&deleted_at=is.null&select=*,configs!config_component_relationships_config_id_fkey(id,name)`,
    );
    expect(
      panel
        .json<{ selector_id: string; configs: { name: string } }[]>()
        .map((r) => `${r.configs.name}/${r.selector_id.startsWith('selector-') ? 'selector' : r.selector_id}`)
        .sort(),
    ).toEqual(['orders/selector', 'sessions/manual']);
    const bad = await call(users.editor, 'POST', '/api/db/config_component_relationships', {
      ...body,
      selector_id: 'mine',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('selector_id must be manual');
    const missing = await call(users.editor, 'POST', '/api/db/config_component_relationships', {
      component_id: component,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('config_id');
    const notManual = await call(
      users.editor,
      'DELETE',
      `/api/db/config_component_relationships?component_id=eq.${component}&config_id=eq.${ids.configDb}`,
    );
    expect(notManual.statusCode).toBe(403);
    const unlinked = await call(
      users.editor,
      'DELETE',
      `/api/db/config_component_relationships?component_id=eq.${component}&config_id=eq.${ids.configCache}&selector_id=eq.manual`,
    );
    expect(unlinked.statusCode, unlinked.body).toBeLessThan(300);
    expect(await insights()).not.toHaveProperty('reliability');
  });

  it('downloads a snapshot zip named after the component, credentials masked', async () => {
    const component = await dbComponent();
    const response = await call(users.viewer, 'GET', `/api/snapshot/topology/${component}?start=7d&related=true`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain('Orders_DB-snapshot.zip');
    const files = unzipSync(new Uint8Array(response.rawPayload));
    expect(Object.keys(files).sort()).toEqual([
      'checks.json',
      'component.json',
      'components.json',
      'configs.json',
      'incidents.json',
      'summary.md',
    ]);
    expect(JSON.parse(strFromU8(files['component.json']!))).toMatchObject({ name: 'Orders DB' });
    const checks = JSON.parse(strFromU8(files['checks.json']!)) as { name: string }[];
    expect(checks.map((c) => c.name)).toEqual(['orders-db-port']);
    expect(strFromU8(files['configs.json']!)).not.toContain('s3cret');
    expect(strFromU8(files['summary.md']!)).toContain('# Snapshot of Orders DB');
    expect(
      (await call(users.viewer, 'GET', `/api/snapshot/topology/${component}?start=yesterday-ish`)).statusCode,
    ).toBe(400);
    expect((await call(users.viewer, 'GET', `/api/snapshot/topology/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  it('refuses bad topology documents with the field named, and writes by viewers', async () => {
    const bad = await call(users.editor, 'POST', '/api/db/topologies', {
      name: 'bad',
      spec: {
        components: [
          { name: 'x', lookup: { http: [{}] } },
          { name: 'y', healthExpr: 'summary.(' },
        ],
        colour: 1,
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('spec.components[0].lookup.http[0].url: is required');
    expect(bad.json<{ message: string }>().message).toContain('spec.colour: unknown field');
    const badExpr = await call(users.editor, 'POST', '/api/db/topologies', {
      name: 'bad',
      spec: { healthExpr: 'summary.(' },
    });
    expect(badExpr.statusCode).toBe(400);
    expect(badExpr.body).toContain('spec.healthExpr: is not a valid CEL expression');
    expect((await call(users.editor, 'POST', '/api/db/topologies', { name: 'nospec' })).body).toContain(
      'spec: is required',
    );
    expect((await call(users.viewer, 'POST', '/api/db/topologies', { name: 'v', spec: {} })).statusCode).toBe(403);
    expect((await call(users.responder, 'POST', '/api/db/topologies', { name: 'v', spec: {} })).statusCode).toBe(403);
    expect((await call(users.viewer, 'GET', '/api/canary/api/topology?id=nope')).statusCode).toBe(400);
    expect((await call(users.viewer, 'GET', '/api/canary/api/topology?labels=novalue')).statusCode).toBe(400);
    expect((await call(users.viewer, 'GET', '/api/canary/api/topology?sortOrder=up')).statusCode).toBe(400);
    expect((await call(undefined, 'GET', '/api/canary/api/topology')).statusCode).toBe(401);
    const empty = await fetchTopology(`?id=${crypto.randomUUID()}`);
    expect(empty.components).toEqual([]);
  });

  it("soft-deletes a topology's components with it", async () => {
    const created = await call(users.admin, 'POST', '/api/db/topologies', {
      name: 'short-lived',
      spec: { components: [{ name: 'ephemeral' }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }[]>()[0]!.id;
    await until(
      async () => (await query(`SELECT 1 FROM components WHERE name = 'ephemeral' AND deleted_at IS NULL`)).length > 0,
      50,
    );
    const deleted = await call(users.admin, 'PATCH', `/api/db/topologies?id=eq.${id}`, { deleted_at: 'now()' });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await query(`SELECT 1 FROM components WHERE topology_id = $1 AND deleted_at IS NULL`, [id])).toEqual([]);
  }, 60_000);

  it("answers the panels' calls as the console makes them (ui-calls 3.4)", async () => {
    const component = await dbComponent();
    const calls = [
      `/api/db/checks_by_component?component_id=eq.${component}`,
      `/api/db/changes_by_component?component_id=eq.${component}&select=id,type,config_id,name,change_type,config_class,created_at:configs(id,name,type,config_class)`,
      `/api/db/analysis_by_component?component_id=eq.${component}&limit=50&offset=0&select=analysis_id,config:configs(id,name,config_class,type,analysis:config_analysis(id,analyzer,analysis_type,message,severity,analysis,first_observed))`,
      `/api/db/incidents_by_component?order=created_at.desc&component_id=eq.${component}`,
      `/api/db/team_components?component_id=eq.${component}&select=*,team:teams(id,name,icon)`,
      `/api/db/component_names?id=eq.${component}`,
      `/api/db/component_labels`,
      `/api/db/topologies?id=eq.${ids.topology}`,
    ];
    for (const url of calls) {
      const response = await call(users.viewer, 'GET', url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }
    const checks = await call(users.viewer, 'GET', `/api/db/checks_by_component?component_id=eq.${component}`);
    expect(checks.json<{ name: string }[]>().map((c) => c.name)).toEqual(['orders-db-port']);
    const insights = await call(
      users.viewer,
      'GET',
      `/api/db/analysis_by_component?component_id=eq.${component}&select=analysis_id,analyzer,config:configs(id,name)`,
    );
    expect(
      insights
        .json<{ analyzer: string; config: { name: string } }[]>()
        .map((r) => `${r.config.name}/${r.analyzer}`)
        .sort(),
    ).toEqual(['orders/big', 'orders/open-port']);
  });

  it('lists topologies with their last run for the settings page', async () => {
    const response = await call(
      users.viewer,
      'GET',
      '/api/db/topologies_with_status?select=*,agent:agent_id(id,name,description)&deleted_at=is.null',
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ name: string; job_status: string }[]>()).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'shop', job_status: 'SUCCESS' })]),
    );
  });
});
