import { ROLES, type ResourceSearchResponse, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * POST /api/resources/search (ui-calls 3.16) on real PostgreSQL with seeded checks, components
 * and config items: each selector field, merging, every role, and bad bodies (400 naming the field).
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;

const search = (user: TestUser | undefined, body: unknown) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/resources/search',
    headers: { ...bearer(user), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const found = async (body: unknown) => {
  const response = await search(users.viewer, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ResourceSearchResponse>();
};
const names = (rows: { name: string | null }[]) => rows.map((row) => row.name);
const query = (sql: string, values: unknown[] = []) => testApp.database.pool.query(sql, values);

beforeAll(async () => {
  testApp = await buildTestApp();
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `search-${role}@example.org`,
      roles: [role],
    });
  }
  await query(`INSERT INTO agents (id, name) VALUES ('11111111-1111-1111-1111-111111111111', 'edge')`);
  const canary = await query(
    `INSERT INTO canaries (name, namespace, spec) VALUES ('search-canary', 'default', '{}'::jsonb) RETURNING id`,
  );
  const canaryId = (canary.rows[0] as { id: string }).id;
  const check = (name: string, type: string, status: string, labels: object, extra = '') =>
    query(
      `INSERT INTO checks (canary_id, name, type, status, namespace, labels, spec${extra ? ', deleted_at' : ''})
       VALUES ($1, $2, $3, $4, 'default', $5, '{}'${extra ? `, ${extra}` : ''})`,
      [canaryId, name, type, status, labels],
    );
  await check('api-health', 'http', 'healthy', { team: 'web', tier: 'front' });
  await check('api-latency', 'http', 'unhealthy', { team: 'web' });
  await check('db-ping', 'postgres', 'healthy', { team: 'data' });
  await check('old-check', 'http', 'healthy', { team: 'web' }, 'now()');
  await query(
    `INSERT INTO components (name, external_id, type, status, namespace, labels, agent_id) VALUES
       ('checkout', 'c1', 'Service', 'healthy', 'shop', '{"app":"checkout"}', '00000000-0000-0000-0000-000000000000'),
       ('cart', 'c2', 'Service', 'unhealthy', 'shop', '{"app":"cart"}', '11111111-1111-1111-1111-111111111111')`,
  );
  await query(
    `INSERT INTO config_items (config_class, type, name, status, tags, labels, config) VALUES
       ('Pod', 'Kubernetes::Pod', 'web-1', 'Running', '{"namespace":"prod","cluster":"a"}', '{"app":"web"}', '{}'),
       ('Pod', 'Kubernetes::Pod', 'web-2', 'Pending', '{"namespace":"dev","cluster":"a"}', '{"app":"web"}', '{}'),
       ('Node', 'Kubernetes::Node', 'node-a', 'Ready', '{"cluster":"a"}', '{}', '{}')`,
  );
}, 180_000);

afterAll(async () => {
  await testApp?.close();
});

describe('POST /api/resources/search', () => {
  it('answers each kind it was asked for, ordered by name, without deleted rows', async () => {
    const answer = await found({ checks: [{}], components: [{}] });
    expect(names(answer.checks)).toEqual(['api-health', 'api-latency', 'db-ping']);
    expect(names(answer.components)).toEqual(['cart', 'checkout']);
    expect(answer.configs).toEqual([]);
    expect(Object.keys(answer.checks[0]!).sort()).toEqual(
      ['agent', 'icon', 'id', 'labels', 'name', 'namespace', 'tags', 'type'].sort(),
    );
    expect(answer.checks[0]).toMatchObject({
      type: 'http',
      namespace: 'default',
      labels: { team: 'web', tier: 'front' },
    });
  });

  it('includes deleted rows when asked', async () => {
    expect(names((await found({ checks: [{ includeDeleted: true, search: 'old' }] })).checks)).toEqual(['old-check']);
  });

  it('matches names exactly, by * patterns and excluded with !', async () => {
    expect(names((await found({ checks: [{ name: 'db-ping' }] })).checks)).toEqual(['db-ping']);
    expect(names((await found({ checks: [{ name: 'api-*' }] })).checks)).toEqual(['api-health', 'api-latency']);
    expect(names((await found({ checks: [{ name: '*-ping' }] })).checks)).toEqual(['db-ping']);
    expect(names((await found({ checks: [{ name: '!db-ping' }] })).checks)).toEqual(['api-health', 'api-latency']);
  });

  it('filters by id, types, statuses, namespace and the free-text search', async () => {
    const all = await found({ checks: [{}] });
    const id = all.checks[1]!.id;
    expect(names((await found({ checks: [{ id }] })).checks)).toEqual(['api-latency']);
    expect(names((await found({ checks: [{ types: ['postgres'] }] })).checks)).toEqual(['db-ping']);
    expect(names((await found({ checks: [{ types: ['!postgres'], statuses: ['healthy'] }] })).checks)).toEqual([
      'api-health',
    ]);
    expect(names((await found({ configs: [{ namespace: 'prod' }] })).configs)).toEqual(['web-1']);
    expect(names((await found({ configs: [{ search: 'WEB' }] })).configs)).toEqual(['web-1', 'web-2']);
    expect(names((await found({ checks: [{ search: '50%_' }] })).checks)).toEqual([]);
  });

  it('filters by agent: all, local, or an agent name or id', async () => {
    expect(names((await found({ components: [{ agent: 'all' }] })).components)).toEqual(['cart', 'checkout']);
    expect(names((await found({ components: [{ agent: 'local' }] })).components)).toEqual(['checkout']);
    expect(names((await found({ components: [{ agent: 'edge' }] })).components)).toEqual(['cart']);
    const answer = await found({ components: [{ agent: '11111111-1111-1111-1111-111111111111' }] });
    expect(answer.components[0]).toMatchObject({ name: 'cart', agent: '11111111-1111-1111-1111-111111111111' });
  });

  it('reads label selectors (config items match their tags too) and field selectors', async () => {
    expect(names((await found({ checks: [{ labelSelector: 'team=web,tier' }] })).checks)).toEqual(['api-health']);
    expect(names((await found({ checks: [{ labelSelector: 'team in (data, web),!tier' }] })).checks)).toEqual([
      'api-latency',
      'db-ping',
    ]);
    expect(names((await found({ checks: [{ labelSelector: 'team!=web' }] })).checks)).toEqual(['db-ping']);
    expect(names((await found({ configs: [{ labelSelector: 'cluster=a,app notin (web)' }] })).configs)).toEqual([
      'node-a',
    ]);
    expect(names((await found({ components: [{ fieldSelector: 'status=unhealthy' }] })).components)).toEqual(['cart']);
    expect(names((await found({ configs: [{ fieldSelector: 'config_class==Node' }] })).configs)).toEqual(['node-a']);
  });

  it('merges the selectors of a kind without duplicates, and honours limit', async () => {
    const answer = await found({ checks: [{ name: 'db-ping' }, { types: ['postgres', 'http'] }] });
    expect(names(answer.checks)).toEqual(['db-ping', 'api-health', 'api-latency']);
    expect(names((await found({ checks: [{ limit: 1 }] })).checks)).toEqual(['api-health']);
  });

  it('answers 400 naming the field for a bad body or selector', async () => {
    const cases: [unknown, string][] = [
      [{ checks: {} }, 'checks'],
      [{ checks: [{ id: 'nope' }] }, 'id'],
      [{ checks: [{ limit: 0 }] }, 'limit'],
      [{ checks: [{ includeDeleted: 'yes' }] }, 'includeDeleted'],
      [{ checks: [{ colour: 'red' }] }, 'colour'],
      [{ things: [] }, 'things'],
      [{ checks: [{ labelSelector: 'a in b' }] }, 'checks[0].labelSelector'],
      [{ components: [{}, { fieldSelector: 'colour=red' }] }, "components[1].fieldSelector: 'colour' is not a field"],
    ];
    for (const [body, field] of cases) {
      const response = await search(users.admin, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toContain(field);
    }
  });

  it('is open to every role and refused without a session', async () => {
    for (const role of ROLES) expect((await search(users[role], { checks: [{}] })).statusCode, role).toBe(200);
    expect((await search(undefined, { checks: [{}] })).statusCode).toBe(401);
  });
});
