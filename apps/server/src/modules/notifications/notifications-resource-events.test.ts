import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import {
  buildNotificationTestApp,
  eventually,
  historyOf,
  insertRule,
  startReceiver,
  type NotificationTestApp,
  type Receiver,
} from '../../../test/notification-helpers.js';

/*
 * Component and catalog events through the flow on real PostgreSQL and a local webhook: a
 * component's health changes (21_topology.sql queues component.<health>), a catalog item's
 * health changes or a scrape records a change (18_catalog.sql queues config.<health> and
 * config.updated); rules match them by event and CEL filter over `component` / `config`, and
 * silences on a component or item (recursive: its descendants) hold them back as `silenced`.
 */

let testApp: NotificationTestApp;
let receiver: Receiver;
let admin: TestUser;
const pool = () => testApp.database.pool;

beforeAll(async () => {
  receiver = await startReceiver();
  testApp = await buildNotificationTestApp();
  admin = await createSignedInUser(testApp.app, pool(), { email: 'admin@example.com', roles: ['admin'] });
}, 120_000);

afterAll(async () => {
  await testApp?.close();
  await receiver?.close();
});

const api = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: { ...bearer(admin), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

/** Resolves once every component and catalog event is taken (none left untried). */
async function resourceEventsDrained(): Promise<void> {
  await eventually(async () => {
    const { rows } = await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event_queue WHERE (name LIKE 'component.%' OR name LIKE 'config.%') AND attempts = 0`,
    );
    return rows[0]!.n === 0;
  });
}

async function insertComponent(name: string, parent?: { id: string; path: string | null }) {
  const path = parent ? [parent.path, parent.id].filter(Boolean).join('.') : null;
  const { rows } = await pool().query<{ id: string; path: string | null }>(
    `INSERT INTO components (external_id, name, type, status, health, parent_id, path)
     VALUES ($1, $1, 'Service', 'healthy', 'healthy', $2, $3) RETURNING id, path`,
    [name, parent?.id ?? null, path],
  );
  return rows[0]!;
}

async function setComponentHealth(id: string, health: 'healthy' | 'unhealthy') {
  await pool().query(`UPDATE components SET health = $2, status = $2 WHERE id = $1`, [id, health]);
  await resourceEventsDrained();
}

async function insertConfig(name: string, type: string, parentId: string | null = null): Promise<string> {
  const { rows } = await pool().query<{ id: string }>(
    `INSERT INTO config_items (config_class, type, name, health, status, parent_id, tags)
     VALUES ('Pod', $2, $1, 'healthy', 'Running', $3, '{"cluster": "prod"}') RETURNING id`,
    [name, type, parentId],
  );
  await resourceEventsDrained();
  return rows[0]!.id;
}

async function setConfigHealth(id: string, health: 'healthy' | 'unhealthy') {
  await pool().query(`UPDATE config_items SET health = $2 WHERE id = $1`, [id, health]);
  await resourceEventsDrained();
}

const sentTo = (path: string) => receiver.requests.filter((request) => request.url === path);

describe('component events', () => {
  it('notify through a webhook when a component turns unhealthy, with the component in scope', async () => {
    const component = await insertComponent('payments');
    const rule = await insertRule(pool(), {
      events: ['component.unhealthy'],
      filter: "component.type == 'Service' && name == 'payments'",
      custom_services: [{ url: `${receiver.url}/component` }],
    });

    await setComponentHealth(component.id, 'unhealthy');
    const request = await eventually(async () => sentTo('/component')[0]);
    const sent = JSON.parse(request.body) as Record<string, string>;
    expect(sent.title).toBe('Component payments is unhealthy');
    expect(sent.message).toContain('**Type**: Service');
    expect(sent.message).toContain(
      `[Silence](http://lookout.test/notifications/silences/add?component_id=${component.id})`,
    );
    expect(sent.message).toContain(`[View component](http://lookout.test/topology/${component.id})`);
    const [row] = await eventually(async () => {
      const rows = await historyOf(pool(), rule);
      return rows[0]?.status === 'sent' ? rows : undefined;
    });
    const { rows: stored } = await pool().query(
      'SELECT resource_id, resource_type, resource_health, source_event FROM notification_send_history WHERE id = $1',
      [row!.id],
    );
    expect(stored[0]).toEqual({
      resource_id: component.id,
      resource_type: 'component',
      resource_health: 'unhealthy',
      source_event: 'component.unhealthy',
    });

    // Back to healthy is another event, which this rule does not name.
    await setComponentHealth(component.id, 'healthy');
    expect(await historyOf(pool(), rule)).toHaveLength(1);
    await pool().query('UPDATE notifications SET deleted_at = now() WHERE id = $1', [rule]);
  });

  it('are recorded as silenced under a recursive silence on a parent, and the trace says so', async () => {
    const parent = await insertComponent('cluster');
    const child = await insertComponent('cluster-node', parent);
    const other = await insertComponent('elsewhere');
    const rule = await insertRule(pool(), {
      events: ['component.unhealthy'],
      custom_services: [{ url: `${receiver.url}/silenced-component` }],
    });
    const silence = await api('POST', '/api/notification/silence', {
      component_id: parent.id,
      recursive: true,
      from: 'now',
      until: 'now+1h',
      description: 'cluster upgrade',
    });
    expect(silence.statusCode).toBe(201);

    await setComponentHealth(child.id, 'unhealthy');
    await setComponentHealth(other.id, 'unhealthy');
    const rows = await eventually(async () => {
      const all = await historyOf(pool(), rule);
      return all.some((r) => r.status === 'sent') ? all : undefined;
    });
    const { rows: byResource } = await pool().query<{ resource_id: string; status: string; silenced_by: string }>(
      'SELECT resource_id, status, silenced_by FROM notification_send_history WHERE notification_id = $1',
      [rule],
    );
    expect(rows).toHaveLength(2);
    expect(byResource.find((r) => r.resource_id === child.id)).toMatchObject({
      status: 'silenced',
      silenced_by: silence.json().id,
    });
    expect(byResource.find((r) => r.resource_id === other.id)?.status).toBe('sent');
    expect(sentTo('/silenced-component')).toHaveLength(1);

    const traces = await api('GET', `/api/notification/traces?resource_id=${child.id}&event=component.unhealthy`);
    expect(traces.statusCode).toBe(200);
    const trace = traces.json().traces[0];
    expect(trace).toMatchObject({ resource_type: 'component', resource_id: child.id });
    expect(trace.rules.find((r: { notification_id: string }) => r.notification_id === rule)).toMatchObject({
      outcome: 'silenced',
      silenced_by: silence.json().id,
    });
    await pool().query('UPDATE notifications SET deleted_at = now() WHERE id = $1', [rule]);
  });
});

describe('catalog events', () => {
  it('notify only the items a rule filter matches, and a change is config.updated with new_state', async () => {
    const web = await insertConfig('web-1', 'Kubernetes::Pod');
    const db = await insertConfig('db-1', 'Kubernetes::StatefulSet');
    const rule = await insertRule(pool(), {
      events: ['config.unhealthy', 'config.updated'],
      filter: "config.type == 'Kubernetes::Pod' && cluster == 'prod'",
      template: '{{ config.name }} {{ new_state }} on {{ tags.cluster }}',
      custom_services: [{ url: `${receiver.url}/config` }],
    });

    await setConfigHealth(web, 'unhealthy');
    await setConfigHealth(db, 'unhealthy');
    const first = await eventually(async () => sentTo('/config')[0]);
    expect(JSON.parse(first.body)).toMatchObject({ title: 'Kubernetes::Pod web-1 is unhealthy' });

    await pool().query(
      `INSERT INTO config_changes (config_id, change_type, summary, external_change_id) VALUES ($1, 'diff', 'image', 'c1')`,
      [web],
    );
    await resourceEventsDrained();
    const second = await eventually(async () => sentTo('/config')[1]);
    expect(JSON.parse(second.body)).toMatchObject({
      title: 'Kubernetes::Pod web-1 was updated',
      message: 'web-1 updated on prod',
    });
    await eventually(async () => (await historyOf(pool(), rule)).every((row) => row.status === 'sent'));
    const { rows } = await pool().query<{ resource_id: string; resource_type: string; source_event: string }>(
      `SELECT resource_id, resource_type, source_event FROM notification_send_history
        WHERE notification_id = $1 ORDER BY created_at`,
      [rule],
    );
    expect(rows).toEqual([
      { resource_id: web, resource_type: 'config', source_event: 'config.unhealthy' },
      { resource_id: web, resource_type: 'config', source_event: 'config.updated' },
    ]);
    expect(sentTo('/config')).toHaveLength(2);
    await pool().query('UPDATE notifications SET deleted_at = now() WHERE id = $1', [rule]);
  });

  it('are silenced by config_id, recursively for child items only when asked', async () => {
    const namespace = await insertConfig('team-a', 'Kubernetes::Namespace');
    const pod = await insertConfig('team-a-pod', 'Kubernetes::Pod', namespace);
    const rule = await insertRule(pool(), {
      events: ['config.unhealthy'],
      custom_services: [{ url: `${receiver.url}/config-silence` }],
    });
    const plain = await api('POST', '/api/notification/silence', { config_id: namespace, until: 'now+1h' });
    expect(plain.statusCode).toBe(201);
    await setConfigHealth(pod, 'unhealthy');
    await eventually(async () => (await historyOf(pool(), rule))[0]?.status === 'sent');

    const recursive = await api('POST', '/api/notification/silence', {
      config_id: namespace,
      recursive: true,
      until: 'now+1h',
    });
    expect(recursive.statusCode).toBe(201);
    await setConfigHealth(pod, 'healthy');
    await setConfigHealth(pod, 'unhealthy');
    const rows = await historyOf(pool(), rule);
    expect(rows.map((row) => row.status)).toEqual(['sent', 'silenced']);
    expect(rows[1]?.silenced_by).toBe(recursive.json().id);
    expect(sentTo('/config-silence')).toHaveLength(1);
    await pool().query('UPDATE notifications SET deleted_at = now() WHERE id = $1', [rule]);
  });
});
