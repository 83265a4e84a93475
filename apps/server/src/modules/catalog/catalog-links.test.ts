import { MANUAL_LINK_SELECTOR, ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * Manual links between config items (19_catalog_links.sql) through /api/db/config_relationships
 * as the Relationships tab writes them: per role, bad input answered with a 400 naming the
 * field, links found by scrapers left alone, and the graph function seeing the new edge.
 */

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const ids = {} as Record<'scraper' | 'app' | 'db' | 'cache' | 'gone', string>;

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

async function insertItem(type: string, name: string, deleted = false): Promise<string> {
  const [row] = await query<{ id: string }>(
    `INSERT INTO config_items (scraper_id, config_class, type, name, config, external_id, deleted_at)
     VALUES ($1, split_part($2, '::', 1), $2, $3, '{}', ARRAY[$3], CASE WHEN $4 THEN now() END) RETURNING id`,
    [ids.scraper, type, name, deleted],
  );
  return row!.id;
}

const unlinkUrl = (from: string, to: string) =>
  `/api/db/config_relationships?config_id=eq.${from}&related_id=eq.${to}&selector_id=eq.${MANUAL_LINK_SELECTOR}`;

beforeAll(async () => {
  testApp = await buildTestApp();
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@links.example.com`,
      roles: [role],
    });
  }
  const [scraper] = await query<{ id: string }>(
    `INSERT INTO config_scrapers (name, spec) VALUES ('links', '{"exec":[{"type":"T","script":"x"}]}') RETURNING id`,
  );
  ids.scraper = scraper!.id;
  ids.app = await insertItem('App::Service', 'shop');
  ids.db = await insertItem('Database::Postgres', 'orders');
  ids.cache = await insertItem('Cache::Redis', 'sessions');
  ids.gone = await insertItem('Cache::Redis', 'old', true);
  // A relationship a scraper found: the console may not remove it.
  await query(
    `INSERT INTO config_relationships (config_id, related_id, relation, scraper_id) VALUES ($1, $2, '', $3)`,
    [ids.app, ids.cache, ids.scraper],
  );
});
afterAll(() => testApp.close());

describe('manual config links', () => {
  it('lets admin and editor link and unlink items, and the graph sees the link', async () => {
    for (const role of ['admin', 'editor'] as const) {
      const linked = await call(users[role], 'POST', '/api/db/config_relationships', {
        config_id: ids.app,
        related_id: ids.db,
      });
      expect(linked.statusCode, role).toBe(201);
      expect(linked.json()).toEqual([
        expect.objectContaining({ config_id: ids.app, related_id: ids.db, scraper_id: null, selector_id: 'manual' }),
      ]);
      const graph = await call(
        users.viewer,
        'GET',
        `/api/db/rpc/related_configs_recursive?config_id=${ids.app}&type_filter=outgoing&max_depth=10&include_deleted_configs=false`,
      );
      const self = (graph.json() as Array<{ id: string; related_ids: string[] }>).find((row) => row.id === ids.app);
      expect(self?.related_ids.sort(), role).toEqual([ids.db, ids.cache].sort());

      const unlinked = await call(users[role], 'DELETE', unlinkUrl(ids.app, ids.db));
      expect(unlinked.statusCode, role).toBe(204);
      const rows = await query(`SELECT 1 FROM config_relationships WHERE config_id = $1 AND related_id = $2`, [
        ids.app,
        ids.db,
      ]);
      expect(rows, role).toHaveLength(0);
    }
  });

  it('refuses viewers, commanders and responders', async () => {
    await query(
      `INSERT INTO config_relationships (config_id, related_id, selector_id) VALUES ($1, $2, 'manual') ON CONFLICT DO NOTHING`,
      [ids.db, ids.cache],
    );
    for (const role of ['viewer', 'commander', 'responder'] as const) {
      const linked = await call(users[role], 'POST', '/api/db/config_relationships', {
        config_id: ids.cache,
        related_id: ids.db,
      });
      expect(linked.statusCode, role).toBe(403);
      const unlinked = await call(users[role], 'DELETE', unlinkUrl(ids.db, ids.cache));
      expect(unlinked.statusCode, role).toBe(403);
    }
    expect(await query(`SELECT 1 FROM config_relationships WHERE config_id = $1`, [ids.db])).toHaveLength(1);
    expect((await call(undefined, 'POST', '/api/db/config_relationships', { config_id: ids.cache })).statusCode).toBe(
      401,
    );
  });

  it('answers bad input with a 400 naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ related_id: ids.db }, /config_id/],
      [{ config_id: ids.app }, /related_id/],
      [{ config_id: ids.app, related_id: ids.app }, /linked to itself/],
      [{ config_id: ids.app, related_id: 'not-a-uuid' }, /uuid/],
      [{ config_id: ids.app, related_id: ids.gone }, /related_id/],
      [{ config_id: '00000000-0000-0000-0000-00000000abcd', related_id: ids.db }, /config_id/],
      [{ config_id: ids.app, related_id: ids.db, scraper_id: ids.scraper }, /scraper_id/],
      [{ config_id: ids.app, related_id: ids.db, selector_id: 'other' }, /selector_id/],
      [{ config_id: ids.app, related_id: ids.db, relation: 'x'.repeat(300) }, /relation/],
    ];
    for (const [body, message] of cases) {
      const response = await call(users.editor, 'POST', '/api/db/config_relationships', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect((response.json() as { message: string }).message, JSON.stringify(body)).toMatch(message);
    }
  });

  it('refuses a second identical link with 409', async () => {
    const first = await call(users.admin, 'POST', '/api/db/config_relationships', {
      config_id: ids.cache,
      related_id: ids.app,
    });
    expect(first.statusCode).toBe(201);
    const again = await call(users.admin, 'POST', '/api/db/config_relationships', {
      config_id: ids.cache,
      related_id: ids.app,
    });
    expect(again.statusCode).toBe(409);
    expect((again.json() as { message: string }).message).toBe('These items are already linked.');
  });

  it('relinks after a link was soft-deleted by another writer', async () => {
    await query(`UPDATE config_relationships SET deleted_at = now() WHERE config_id = $1 AND related_id = $2`, [
      ids.cache,
      ids.app,
    ]);
    const relinked = await call(users.admin, 'POST', '/api/db/config_relationships', {
      config_id: ids.cache,
      related_id: ids.app,
    });
    expect(relinked.statusCode).toBe(201);
    expect(relinked.json()).toEqual([expect.objectContaining({ deleted_at: null })]);
  });

  it('leaves relationships found by scrapers alone', async () => {
    const removed = await call(users.admin, 'DELETE', `/api/db/config_relationships?config_id=eq.${ids.app}`);
    expect(removed.statusCode).toBe(403);
    expect((removed.json() as { message: string }).message).toMatch(/Only manual links can be removed/);
    const changed = await call(users.admin, 'PATCH', `/api/db/config_relationships?config_id=eq.${ids.app}`, {
      relation: 'hard',
    });
    expect(changed.statusCode).toBe(405);
    const rows = await query(`SELECT relation FROM config_relationships WHERE config_id = $1 AND scraper_id = $2`, [
      ids.app,
      ids.scraper,
    ]);
    expect(rows).toEqual([{ relation: '' }]);
  });

  it('reads the components an item is linked to and lets a topology writer remove a manual link', async () => {
    const [component] = await query<{ id: string }>(
      `INSERT INTO components (external_id, name, type, status) VALUES ('checkout', 'checkout', 'Service', 'healthy') RETURNING id`,
    );
    await query(
      `INSERT INTO config_component_relationships (component_id, config_id, selector_id) VALUES ($1, $2, 'manual')`,
      [component!.id, ids.db],
    );
    const listed = await call(
      users.viewer,
      'GET',
      `/api/db/config_component_relationships?config_id=eq.${ids.db}&deleted_at=is.null&select=component_id,selector_id,component:components!config_component_relationships_component_id_fkey(id,name,type)`,
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      {
        component_id: component!.id,
        selector_id: 'manual',
        component: { id: component!.id, name: 'checkout', type: 'Service' },
      },
    ]);
    const url = `/api/db/config_component_relationships?component_id=eq.${component!.id}&config_id=eq.${ids.db}&selector_id=eq.manual`;
    expect((await call(users.viewer, 'DELETE', url)).statusCode).toBe(403);
    expect((await call(users.editor, 'DELETE', url)).statusCode).toBe(204);
    expect(await query(`SELECT 1 FROM config_component_relationships WHERE config_id = $1`, [ids.db])).toHaveLength(0);
  });

  it('lists an item manual links the way the tab reads them', async () => {
    const response = await call(
      users.viewer,
      'GET',
      `/api/db/config_relationships?or=(config_id.eq.${ids.cache},related_id.eq.${ids.cache})&selector_id=eq.manual&deleted_at=is.null&select=config_id,related_id,relation,selector_id`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(
      expect.arrayContaining([
        { config_id: ids.cache, related_id: ids.app, relation: '', selector_id: 'manual' },
        { config_id: ids.db, related_id: ids.cache, relation: '', selector_id: 'manual' },
      ]),
    );
  });
});
