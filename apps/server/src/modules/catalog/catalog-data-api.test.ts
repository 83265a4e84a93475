import { ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * The catalog through /api/db exactly as the console calls it (ui-calls section 3.5 and the
 * generic scraper calls of 3.10; migration 18): scraper writes per role with spec validation,
 * every view and function the catalog pages read, the change upsert and the config events.
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const ids = {} as Record<'scraper' | 'cluster' | 'deployment' | 'pod' | 'file' | 'change', string>;

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

const validSpec = {
  schedule: '@every 5m',
  retention: { changes: [{ name: 'diff', age: '30d' }], staleItemAge: '2h' },
  http: [
    {
      type: 'Api::Item',
      id: '$.id',
      name: '{{ .name }}',
      url: 'http://127.0.0.1:9/items',
      headers: [{ name: 'Authorization', value: 'Bearer abc123token' }],
    },
  ],
};

async function insertItem(values: {
  type: string;
  name: string;
  parent?: string;
  health?: string;
  status?: string;
  tags?: Record<string, string>;
  labels?: Record<string, string>;
}): Promise<string> {
  const rows = await query<{ id: string }>(
    `INSERT INTO config_items (scraper_id, parent_id, config_class, type, name, health, status, tags, labels, config,
                               cost_total_30d, external_id)
     VALUES ($1, $2, split_part($3, '::', 1), $3, $4, $5, $6, $7, $8, $9, 3.5, ARRAY[$4])
     RETURNING id`,
    [
      ids.scraper,
      values.parent ?? null,
      values.type,
      values.name,
      values.health ?? 'healthy',
      values.status ?? 'Running',
      values.tags ?? { namespace: 'prod' },
      values.labels ?? { app: 'shop' },
      { kind: values.type, password: 'hunter2' },
    ],
  );
  return rows[0]!.id;
}

beforeAll(async () => {
  // No consumers run: the topology (and, where workers run, notifications and playbooks)
  // consume config events, and the tests below read what the triggers queued.
  testApp = await buildTestApp({ background: false });
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@example.com`,
      roles: [role],
    });
  }
  const created = await call(users.admin, 'POST', '/api/db/config_scrapers', {
    name: 'shop-api',
    source: 'UI',
    spec: validSpec,
  });
  expect(created.statusCode).toBe(201);
  ids.scraper = (created.json() as Array<{ id: string }>)[0]!.id;
  ids.cluster = await insertItem({ type: 'Kubernetes::Cluster', name: 'local' });
  ids.deployment = await insertItem({ type: 'Kubernetes::Deployment', name: 'shop', parent: ids.cluster });
  ids.pod = await insertItem({
    type: 'Kubernetes::Pod',
    name: 'shop-1',
    parent: ids.deployment,
    health: 'unhealthy',
    status: 'CrashLoopBackOff',
  });
  ids.file = await insertItem({ type: 'File::Config', name: 'app.yaml', tags: { env: 'dev' } });
  await query(`INSERT INTO config_relationships (config_id, related_id, relation) VALUES ($1, $2, 'uses')`, [
    ids.deployment,
    ids.file,
  ]);
  await query(`INSERT INTO config_items_last_scraped_time (config_id, last_scraped_time) VALUES ($1, now())`, [
    ids.pod,
  ]);
  const changes = await query<{ id: string }>(
    `INSERT INTO config_changes (config_id, change_type, severity, source, summary, patches, diff, details, fingerprint)
     VALUES ($1, 'diff', 'info', 'diff', 'spec.replicas', '{"spec":{"replicas":2}}', '-1\n+2', '{}', 'fp-1')
     RETURNING id`,
    [ids.deployment],
  );
  ids.change = changes[0]!.id;
  await query(
    `INSERT INTO config_changes (config_id, change_type, severity, source, summary, created_at)
     VALUES ($1, 'BackOff', 'high', 'kubernetes', 'Back-off restarting', now() - interval '1 hour')`,
    [ids.pod],
  );
  await query(
    `INSERT INTO config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, message)
     VALUES ($1, $2, 'restarts', 'reliability', 'high', 'Pod restarted 5 times')`,
    [ids.pod, ids.scraper],
  );
  await query(`SELECT lookout_refresh_config_item_summaries()`);
});
afterAll(() => testApp.close());

describe('config_scrapers writes', () => {
  it('lets admin and editor create, change and soft-delete scrapers', async () => {
    for (const role of ['admin', 'editor'] as const) {
      const created = await call(users[role], 'POST', '/api/db/config_scrapers', {
        name: `by-${role}`,
        source: 'UI',
        spec: { file: [{ type: 'File::Config', paths: ['/etc/lookout/catalog/*.yaml'] }] },
      });
      expect(created.statusCode, role).toBe(201);
      const id = (created.json() as Array<{ id: string }>)[0]!.id;
      const patched = await call(users[role], 'PATCH', `/api/db/config_scrapers?id=eq.${id}`, {
        spec: { file: [{ type: 'File::Config', paths: ['/etc/lookout/catalog/apps/*.yaml'] }], schedule: '@hourly' },
      });
      expect(patched.statusCode, role).toBe(200);
      const deleted = await call(users[role], 'PATCH', `/api/db/config_scrapers?id=eq.${id}`, { deleted_at: 'now()' });
      expect(deleted.statusCode, role).toBe(200);
    }
  });

  it('refuses viewers, commanders and responders', async () => {
    for (const role of ['viewer', 'commander', 'responder'] as const) {
      const response = await call(users[role], 'POST', '/api/db/config_scrapers', {
        name: `by-${role}`,
        spec: { exec: [{ type: 'T', script: 'echo []' }] },
      });
      expect(response.statusCode, role).toBe(403);
    }
  });

  it('refuses a bad spec with 400 naming each wrong field', async () => {
    const response = await call(users.admin, 'POST', '/api/db/config_scrapers', {
      name: 'bad',
      spec: { schedule: 'often', file: [{ type: 'F', id: '$.a[', paths: [] }], s3: [] },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json() as { message: string; details: string };
    expect(body.message).toMatch(/^Invalid scraper: /);
    expect(body.details.split('\n')).toEqual([
      "spec.schedule: must be a cron expression such as '*/5 * * * *', '@hourly' or '@every 1m'",
      expect.stringMatching(/^spec\.file\[0\]\.id: jsonpath expression is not a valid jsonpath/),
      'spec.file[0].paths: must list at least one path or glob',
      expect.stringMatching(/^spec\.s3: unknown field; scraper types are /),
    ]);
    const patch = await call(users.editor, 'PATCH', `/api/db/config_scrapers?id=eq.${ids.scraper}`, {
      spec: { sql: [{ type: 'Db::Row', connection: 'connection://default/pg' }] },
    });
    expect(patch.statusCode).toBe(400);
    expect((patch.json() as { details: string }).details).toBe('spec.sql[0].query: is required');
    const noName = await call(users.admin, 'POST', '/api/db/config_scrapers', { spec: validSpec });
    expect((noName.json() as { details: string }).details).toBe('name: is required');
    const notJson = await testApp.app.inject({
      method: 'POST',
      url: '/api/db/config_scrapers',
      headers: { ...bearer(users.admin), 'content-type': 'text/csv' },
      payload: 'name,spec\nx,{}',
    });
    expect(notJson.statusCode).toBe(415);
  });

  it('keeps rows of other sources read-only', async () => {
    const [row] = await query<{ id: string }>(
      `INSERT INTO config_scrapers (name, spec, source) VALUES ('from-file', '{"exec":[{"type":"T","script":"x"}]}', 'ConfigFile') RETURNING id`,
    );
    const response = await call(users.admin, 'PATCH', `/api/db/config_scrapers?id=eq.${row!.id}`, {
      spec: { exec: [{ type: 'T', script: 'y' }] },
    });
    expect(response.statusCode).toBe(403);
  });

  it('masks credentials in specs and scraped bodies for readers who may not write scrapers', async () => {
    const asViewer = await call(users.viewer, 'GET', `/api/db/config_scrapers?id=eq.${ids.scraper}&select=spec`);
    expect(JSON.stringify(asViewer.json())).not.toContain('abc123token');
    const asEditor = await call(users.editor, 'GET', `/api/db/config_scrapers?id=eq.${ids.scraper}&select=spec`);
    expect(JSON.stringify(asEditor.json())).toContain('abc123token');
    const detail = await call(users.viewer, 'GET', `/api/db/config_detail?id=eq.${ids.pod}&select=config`);
    expect(detail.json()).toEqual([{ config: { kind: 'Kubernetes::Pod', password: '***' } }]);
  });

  // Relationships take manual links (catalog-links.test.ts).
  it('keeps items, changes and insights read-only', async () => {
    for (const relation of ['config_items', 'config_changes', 'config_analysis']) {
      const response = await call(users.admin, 'POST', `/api/db/${relation}`, { config_id: ids.pod });
      expect(response.statusCode, relation).toBe(405);
    }
  });
});

describe('the catalog pages through /api/db', () => {
  it('lists configs with the table page select, embeds and filters', async () => {
    const response = await call(
      users.viewer,
      'GET',
      '/api/db/configs?select=id,type,config_class,status,health,labels,name,tags,created_at,updated_at,deleted_at,cost_per_minute,cost_total_1d,cost_total_7d,cost_total_30d,changes,analysis,agent:agents(id,name)&type=eq.Kubernetes::Pod&deleted_at=is.null&order=type,name.asc',
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      expect.objectContaining({
        id: ids.pod,
        config_class: 'Kubernetes',
        health: 'unhealthy',
        changes: [{ change_type: 'BackOff', severity: 'high', total: 1 }],
        analysis: { reliability: 1 },
        cost_total_30d: 3.5,
        agent: { id: '00000000-0000-0000-0000-000000000000', name: 'local' },
      }),
    ]);
    const search = await call(
      users.viewer,
      'GET',
      '/api/db/configs?select=id,name&or=(name.ilike.*shop*,type.ilike.*shop*,description.ilike.*shop*,namespace.ilike.*shop*)&order=name.asc',
    );
    expect((search.json() as Array<{ name: string }>).map((row) => row.name)).toEqual(['shop', 'shop-1']);
    const byLabel = await call(
      users.viewer,
      'GET',
      '/api/db/configs?select=name&labels->>app=eq.shop&type=eq.File::Config',
    );
    expect(byLabel.json()).toEqual([{ name: 'app.yaml' }]);
  });

  it('answers the lookups', async () => {
    const get = async (url: string) => (await call(users.viewer, 'GET', url)).json() as unknown;
    expect(await get('/api/db/config_types')).toEqual([
      { type: 'File::Config' },
      { type: 'Kubernetes::Cluster' },
      { type: 'Kubernetes::Deployment' },
      { type: 'Kubernetes::Pod' },
    ]);
    expect(await get('/api/db/config_statuses?order=status')).toEqual([
      { status: 'CrashLoopBackOff' },
      { status: 'Running' },
    ]);
    expect(await get('/api/db/config_labels')).toEqual([{ key: 'app', value: 'shop' }]);
    expect(await get('/api/db/config_tags?order=key,value')).toEqual([
      { key: 'env', value: 'dev' },
      { key: 'namespace', value: 'prod' },
    ]);
    expect(await get('/api/db/change_types')).toEqual([{ change_type: 'BackOff' }, { change_type: 'diff' }]);
    expect(await get(`/api/db/config_names?id=eq.${ids.file}&select=id,name`)).toEqual([
      { id: ids.file, name: 'app.yaml' },
    ]);
    expect(await get('/api/db/config_analysis_analyzers?order=analyzer.asc')).toEqual([{ analyzer: 'restarts' }]);
  });

  it('reads the config page with its tab badges, last scrape and scraper', async () => {
    const response = await call(
      users.viewer,
      'GET',
      `/api/db/config_detail?id=eq.${ids.deployment}&select=*,config_scrapers(id,name)`,
    );
    expect(response.statusCode).toBe(200);
    const [row] = response.json() as Array<Record<string, unknown>>;
    expect(row).toMatchObject({
      id: ids.deployment,
      name: 'shop',
      type: 'Kubernetes::Deployment',
      summary: { changes: 1, analysis: 0, relationships: 2, playbook_runs: 0, checks: 0 },
      last_scraped_time: null,
      config_scrapers: { id: ids.scraper, name: 'shop-api' },
    });
    const pod = await call(
      users.viewer,
      'GET',
      `/api/db/config_detail?id=eq.${ids.pod}&select=last_scraped_time,summary`,
    );
    expect((pod.json() as Array<{ last_scraped_time: string | null }>)[0]!.last_scraped_time).not.toBeNull();
  });

  it('reads changes: the change dialog, the changes list and the rollups', async () => {
    const dialog = await call(
      users.viewer,
      'GET',
      `/api/db/config_changes?config_id=eq.${ids.deployment}&id=eq.${ids.change}&select=id,config_id,change_type,created_at,external_created_by,source,diff,details,patches,created_by,config:configs(id,name,type,config_class)`,
    );
    expect(dialog.json()).toEqual([
      expect.objectContaining({
        id: ids.change,
        diff: '-1\n+2',
        patches: { spec: { replicas: 2 } },
        config: { id: ids.deployment, name: 'shop', type: 'Kubernetes::Deployment', config_class: 'Kubernetes' },
      }),
    ]);
    const list = await testApp.app.inject({
      method: 'GET',
      url: '/api/db/catalog_changes?select=id,config_id,name,type,change_type,severity,summary,source,tags,created_at,first_observed,count,created_by,external_created_by&order=created_at.desc&limit=200&created_at=gte.2000-01-01',
      headers: { ...bearer(users.viewer), prefer: 'count=exact' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-range']).toBe('0-1/2');
    expect((list.json() as Array<{ name: string }>).map((row) => row.name)).toEqual(['shop', 'shop-1']);
    const byTypes = await call(users.viewer, 'GET', `/api/db/config_changes_by_types?config_id=eq.${ids.pod}`);
    expect(byTypes.json()).toEqual([expect.objectContaining({ config_id: ids.pod, change_type: 'BackOff', total: 1 })]);
  });

  it('reads the summary rows by type and class', async () => {
    const rows = (await call(users.viewer, 'GET', '/api/db/config_summary?order=type')).json() as Array<
      Record<string, unknown>
    >;
    expect(rows.map((row) => row.type)).toEqual([
      'File::Config',
      'Kubernetes::Cluster',
      'Kubernetes::Deployment',
      'Kubernetes::Pod',
    ]);
    expect(rows[3]).toMatchObject({
      type: 'Kubernetes::Pod',
      config_class: 'Kubernetes',
      count: 1,
      health: { healthy: 0, unhealthy: 1, warning: 0, unknown: 0 },
      changes: 1,
      analysis: { reliability: 1 },
      cost_total_30d: 3.5,
    });
    const classes = (await call(users.viewer, 'GET', '/api/db/config_class_summary?order=config_class')).json();
    expect(classes).toEqual([
      expect.objectContaining({ config_class: 'File', count: 1 }),
      expect.objectContaining({ config_class: 'Kubernetes', count: 3, changes: 2, analysis: 1 }),
    ]);
  });

  it('reads insights: the list, the modal and by severity', async () => {
    const list = await testApp.app.inject({
      method: 'GET',
      url: '/api/db/config_analysis_items?select=id,analysis_type,analyzer,severity,status,first_observed,last_observed,config:configs(id,name,config_class,type)&limit=50&offset=0&status=eq.open&config_type=eq.Kubernetes::Pod&order=first_observed.desc',
      headers: { ...bearer(users.viewer), prefer: 'count=exact' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        analyzer: 'restarts',
        severity: 'high',
        config: { id: ids.pod, name: 'shop-1', config_class: 'Kubernetes', type: 'Kubernetes::Pod' },
      }),
    ]);
    const modal = await call(
      users.viewer,
      'GET',
      '/api/db/config_analysis?select=id,source,analyzer,analysis_type,message,severity,status,analysis,first_observed,config:configs(id,name,config_class,type)',
    );
    expect((modal.json() as Array<{ message: string }>)[0]!.message).toBe('Pod restarted 5 times');
    const bySeverity = await call(users.viewer, 'GET', `/api/db/config_analysis_by_severity?config_id=eq.${ids.pod}`);
    expect(bySeverity.json()).toEqual([{ config_id: ids.pod, severity: 'high', total: 1 }]);
  });

  it('walks relationships down and up with related_ids', async () => {
    const down = await call(
      users.viewer,
      'GET',
      `/api/db/rpc/related_configs_recursive?config_id=${ids.cluster}&include_deleted_configs=false&max_depth=10&type_filter=outgoing`,
    );
    expect(down.statusCode).toBe(200);
    const rows = down.json() as Array<{ id: string; related_ids: string[]; name: string }>;
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(Object.keys(byId).sort()).toEqual([ids.cluster, ids.deployment, ids.pod, ids.file].sort());
    expect(byId[ids.cluster]!.related_ids).toEqual([ids.deployment]);
    expect(byId[ids.deployment]!.related_ids.sort()).toEqual([ids.pod, ids.file].sort());
    const up = await call(
      users.viewer,
      'GET',
      `/api/db/rpc/related_configs_recursive?config_id=${ids.pod}&type_filter=incoming&max_depth=1`,
    );
    expect((up.json() as Array<{ id: string }>).map((row) => row.id).sort()).toEqual([ids.pod, ids.deployment].sort());
    const hardOnly = await call(
      users.viewer,
      'GET',
      `/api/db/rpc/related_configs_recursive?config_id=${ids.deployment}&type_filter=outgoing&outgoing_relation=hard`,
    );
    expect((hardOnly.json() as Array<{ id: string }>).map((row) => row.id).sort()).toEqual(
      [ids.deployment, ids.pod].sort(),
    );
    const direct = await call(users.viewer, 'GET', `/api/db/rpc/related_configs?config_id=${ids.deployment}`);
    expect(
      (direct.json() as Array<{ name: string; direction: string }>).map((r) => `${r.direction}:${r.name}`).sort(),
    ).toEqual(['incoming:local', 'outgoing:app.yaml', 'outgoing:shop-1']);
    const changes = await call(
      users.viewer,
      'GET',
      `/api/db/rpc/related_changes_recursive?config_id=${ids.deployment}&type_filter=downstream`,
    );
    expect((changes.json() as Array<{ name: string }>).map((row) => row.name).sort()).toEqual(['shop', 'shop-1']);
  });

  it('lists scrapers with their latest run', async () => {
    const [run] = await query<{ id: string }>(
      // Dated ahead, so it stays the latest run whatever the scrape engine records meanwhile.
      `INSERT INTO job_history (name, resource_type, resource_id, status, success_count, time_start, time_end, created_at)
       VALUES ('Scraper', 'config_scraper', $1, 'SUCCESS', 4, now(), now(), now() + interval '1 day')
       RETURNING id`,
      [ids.scraper],
    );
    const response = await call(
      users.viewer,
      'GET',
      '/api/db/config_scrapers_with_status?select=*&deleted_at=is.null&order=created_at.desc&limit=100',
    );
    const row = (response.json() as Array<Record<string, unknown>>).find((r) => r.id === ids.scraper);
    expect(row).toMatchObject({ name: 'shop-api', schedule: '@every 5m', job_status: 'SUCCESS', job_success_count: 4 });
    expect(JSON.stringify(row)).not.toContain('abc123token');
    const history = await call(users.viewer, 'GET', `/api/db/job_histories?id=eq.${run!.id}&select=resource_name`);
    expect(history.json()).toEqual([{ resource_name: 'shop-api' }]);
  });

  it('keeps the check drawer embed of configs working', async () => {
    const response = await call(
      users.viewer,
      'GET',
      '/api/db/checks?select=id,configs:check_config_relationships(configs(id,name,type))&limit=1',
    );
    expect(response.statusCode).toBe(200);
  });
});

describe('config_changes upsert', () => {
  it('counts a repeated fingerprint on the first row and keeps first_observed', async () => {
    const insert = (at: string) =>
      query(
        `INSERT INTO config_changes (config_id, change_type, summary, fingerprint, details, created_at, first_observed)
         VALUES ($1, 'diff', 'status.phase', 'fp-repeat', '{"n":1}', $2, $2) RETURNING id`,
        [ids.file, at],
      );
    const first = await insert('2026-11-01T10:00:00Z');
    expect(first).toHaveLength(1);
    expect(await insert('2026-11-01T10:20:00Z')).toEqual([]);
    const rows = await query<{ count: number; first_observed: Date; created_at: Date }>(
      `SELECT count, first_observed, created_at FROM config_changes WHERE fingerprint = 'fp-repeat'`,
    );
    expect(rows).toEqual([
      {
        count: 2,
        first_observed: new Date('2026-11-01T10:00:00Z'),
        created_at: new Date('2026-11-01T10:20:00Z'),
      },
    ]);
    // Outside the one-hour window it is a new change.
    expect(await insert('2026-11-01T12:00:00Z')).toHaveLength(1);
  });

  it('merges on external_change_id, counting only a different body', async () => {
    const insert = (details: unknown) =>
      query(
        `INSERT INTO config_changes (config_id, external_change_id, change_type, details) VALUES ($1, 'evt-1', 'Pulled', $2)`,
        [ids.pod, details],
      );
    await insert({ image: 'a' });
    await insert({ image: 'a' });
    expect(await query(`SELECT count FROM config_changes WHERE external_change_id = 'evt-1'`)).toEqual([{ count: 1 }]);
    await insert({ image: 'b' });
    expect(await query(`SELECT count, details FROM config_changes WHERE external_change_id = 'evt-1'`)).toEqual([
      { count: 2, details: { image: 'b' } },
    ]);
  });
});

describe('config events', () => {
  const events = (eventId: string) =>
    query<{ name: string; properties: Record<string, string> | null }>(
      `SELECT name, properties FROM event_queue WHERE event_id = $1 ORDER BY name`,
      [eventId],
    );

  it('queues created, health, degraded and deleted events for items', async () => {
    const id = await insertItem({ type: 'Kubernetes::Node', name: 'node-1', health: 'unhealthy', status: 'NotReady' });
    expect(await events(id)).toEqual([
      { name: 'config.created', properties: null },
      { name: 'config.unhealthy', properties: { status: 'NotReady' } },
    ]);
    await query(`UPDATE config_items SET health = 'warning', description = 'pressure' WHERE id = $1`, [id]);
    expect((await events(id)).map((event) => event.name)).toContain('config.degraded');
    await query(`UPDATE config_items SET health = 'healthy', status = 'Ready' WHERE id = $1`, [id]);
    expect(await events(id)).toContainEqual({
      name: 'config.healthy',
      properties: { status: 'Ready', description: 'pressure' },
    });
    await query(`UPDATE config_items SET deleted_at = now() WHERE id = $1`, [id]);
    expect((await events(id)).map((event) => event.name)).toContain('config.deleted');
    const healthy = await insertItem({ type: 'Kubernetes::Node', name: 'node-2' });
    expect((await events(healthy)).map((event) => event.name)).toEqual(['config.created']);
  });

  it('queues config.updated for a diff and config.changed for other changes', async () => {
    expect(await events(ids.change)).toEqual([{ name: 'config.updated', properties: { config_id: ids.deployment } }]);
    const [other] = await query<{ id: string }>(
      `SELECT id FROM config_changes WHERE change_type = 'BackOff' AND config_id = $1`,
      [ids.pod],
    );
    expect(await events(other!.id)).toEqual([{ name: 'config.changed', properties: { config_id: ids.pod } }]);
  });
});
