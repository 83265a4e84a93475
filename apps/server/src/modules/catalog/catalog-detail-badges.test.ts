import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * The config page's tab badges (ui-calls section 3.5, migration 28): config_detail.summary
 * counts the item's playbook runs and its linked checks, and the Checks tab's rows come from
 * check_summary_for_config, on real PostgreSQL through /api/db.
 */

let testApp: TestApp;
let viewer: TestUser;
const ids = {} as Record<'item' | 'other' | 'playbook' | 'canary' | 'check', string>;

const one = async (sql: string, values: unknown[] = []) =>
  (await testApp.database.pool.query<{ id: string }>(sql, values)).rows[0]!.id;

beforeAll(async () => {
  testApp = await buildTestApp();
  viewer = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'viewer@example.com',
    roles: ['viewer'],
  });
  const item = `INSERT INTO config_items (config_class, type, name, config) VALUES ('Kubernetes', 'Kubernetes::Pod', $1, '{}') RETURNING id`;
  ids.item = await one(item, ['shop-1']);
  ids.other = await one(item, ['shop-2']);
  ids.playbook = await one(`INSERT INTO playbooks (name, spec) VALUES ('restart', '{"actions":[]}') RETURNING id`);
  for (const [config, status] of [
    [ids.item, 'completed'],
    [ids.item, 'failed'],
    [ids.other, 'completed'],
  ] as const) {
    await testApp.database.pool.query(
      `INSERT INTO playbook_runs (playbook_id, spec, status, config_id) VALUES ($1, '{}', $2, $3)`,
      [ids.playbook, status, config],
    );
  }
  ids.canary = await one(`INSERT INTO canaries (name, spec) VALUES ('shop', '{"http":[]}') RETURNING id`);
  ids.check = await one(
    `INSERT INTO checks (canary_id, type, name, spec, status) VALUES ($1, 'http', 'shop-http', '{}', 'unhealthy') RETURNING id`,
    [ids.canary],
  );
  await testApp.database.pool.query(
    `INSERT INTO check_config_relationships (config_id, check_id, canary_id, selector_id) VALUES ($1, $2, $3, 'sel')`,
    [ids.item, ids.check, ids.canary],
  );
});
afterAll(() => testApp.close());

const get = (url: string) => testApp.app.inject({ method: 'GET', url, headers: bearer(viewer) });

describe('config_detail tab badges', () => {
  it('counts the playbook runs and linked checks of this item only', async () => {
    const response = await get(`/api/db/config_detail?id=eq.${ids.item}&select=id,summary`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { id: ids.item, summary: { changes: 0, analysis: 0, relationships: 0, playbook_runs: 2, checks: 1 } },
    ]);
    const other = await get(`/api/db/config_detail?id=eq.${ids.other}&select=summary`);
    expect(other.json()).toEqual([
      { summary: { changes: 0, analysis: 0, relationships: 0, playbook_runs: 1, checks: 0 } },
    ]);
  });

  it('keeps every column of the view', async () => {
    const response = await get(`/api/db/config_detail?id=eq.${ids.item}`);
    const [row] = response.json() as Array<Record<string, unknown>>;
    expect(Object.keys(row!)).toEqual(
      expect.arrayContaining(['id', 'name', 'type', 'config', 'last_scraped_time', 'summary', 'cost_total_30d']),
    );
  });

  it('lists the linked checks for the Checks tab', async () => {
    const response = await get(
      `/api/db/check_summary_for_config?config_id=eq.${ids.item}&select=id,name,type,status,severity,last_runtime`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      expect.objectContaining({ id: ids.check, name: 'shop-http', type: 'http', status: 'unhealthy' }),
    ]);
  });
});
