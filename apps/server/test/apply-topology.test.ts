import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogCli } from '../src/modules/catalog/catalog-module.js';
import { applyCanaryFiles } from '../src/modules/health/health-cli.js';
import { topologyCli } from '../src/modules/topology/topology-module.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/*
 * `lookout apply -f` as cli.ts composes it: Topology documents go to the topology's applier,
 * beside Canary and ScrapeConfig documents in the same file.
 */

let database: TestDatabase;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-apply-topology-'));
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

const apply = (files: string[]) =>
  applyCanaryFiles({
    pool: database.pool,
    logger: pino({ level: 'silent' }),
    files,
    source: 'ConfigFile',
    appliers: { ...catalogCli.appliers, ...topologyCli.appliers },
  });

describe('lookout apply -f with Topology documents', () => {
  it('creates then configures a topology beside a canary, and names the wrong field of a bad one', async () => {
    const file = path.join(dir, 'shop.yaml');
    await writeFile(
      file,
      `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata:
  name: shop
spec:
  type: Shop
  schedule: '@every 10m'
  components:
    - name: Orders DB
      type: Database
      checks:
        - selector:
            labelSelector: app=orders
      properties:
        - name: tier
          text: gold
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: orders
spec:
  http:
    - name: orders-api
      url: http://127.0.0.1:9/health
---
apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata:
  name: broken
spec:
  components:
    - name: x
      lookup:
        http:
          - method: GET
`,
    );
    const lines = await apply([file]);
    expect(lines.map((line) => line.ok)).toEqual([true, true, false]);
    expect(lines[0]!.text).toBe('topology default/shop created (components: 1)');
    expect(lines[2]!.text).toContain('spec.components[0].lookup.http[0].url: is required');
    const again = await apply([file]);
    expect(again[0]!.text).toBe('topology default/shop configured (components: 1)');
    const { rows } = await database.pool.query<{ name: string; source: string; schedule: string }>(
      'SELECT name, source::text, schedule FROM topologies ORDER BY name',
    );
    expect(rows).toEqual([{ name: 'shop', source: 'ConfigFile', schedule: '@every 10m' }]);
  });
});
