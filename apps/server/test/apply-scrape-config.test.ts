import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogCli } from '../src/modules/catalog/catalog-module.js';
import { applyCanaryFiles } from '../src/modules/health/health-cli.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/*
 * `lookout apply -f` as cli.ts composes it: the command reads the files (health) and hands
 * ScrapeConfig documents to the catalog's applier, beside Canary documents in the same file.
 */

let database: TestDatabase;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-apply-scrapers-'));
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

const apply = (files: string[], source: 'ConfigFile' | 'UI' = 'ConfigFile') =>
  applyCanaryFiles({
    pool: database.pool,
    logger: pino({ level: 'silent' }),
    files,
    source,
    appliers: catalogCli.appliers,
  });

describe('lookout apply -f with ScrapeConfig documents', () => {
  it('creates and then configures scrapers beside canaries, and names the wrong field of a bad one', async () => {
    const file = path.join(dir, 'mixed.yaml');
    await writeFile(
      file,
      `apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: local-files
  namespace: ops
spec:
  schedule: '@every 1m'
  retention:
    changes:
      - name: diff
        count: 50
  file:
    - type: File::Config
      id: $.id
      name: "{{ .name }}"
      class: "expr: 'File'"
      paths: ['/etc/lookout/*.yaml']
  kubernetes:
    - clusterName: local
---
apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: broken
spec:
  http:
    - type: Api::Item
      id: "$.items["
      url: http://127.0.0.1/items
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: web
spec:
  http:
    - name: home
      url: https://example.com
---
kind: Topology
metadata:
  name: other
`,
    );
    const lines = await apply([file]);
    expect(lines.map((line) => line.ok)).toEqual([true, false, true, false]);
    expect(lines[0]!.text).toBe('scraper ops/local-files created (file: 1, kubernetes: 1)');
    expect(lines[1]!.text).toMatch(/\(document 2\): invalid ScrapeConfig: spec\.http\[0\]\.id: jsonpath expression /);
    expect(lines[1]!.text.startsWith(`${file} (document 2)`)).toBe(true);
    expect(lines[2]!.text).toBe('canary default/web created (1 checks: http/home)');
    expect(lines[3]!.text).toBe(
      `${file} (document 4): kind Topology is not supported yet; use one of Canary, ScrapeConfig`,
    );
    const rows = await database.pool.query(
      `SELECT name, namespace, source, spec -> 'retention' AS retention FROM config_scrapers ORDER BY name`,
    );
    expect(rows.rows).toEqual([
      {
        name: 'local-files',
        namespace: 'ops',
        source: 'ConfigFile',
        retention: { changes: [{ name: 'diff', count: 50 }] },
      },
    ]);
    expect((await apply([file], 'UI'))[0]).toEqual({
      ok: true,
      text: 'scraper ops/local-files configured (file: 1, kubernetes: 1)',
    });
    const after = await database.pool.query(`SELECT source FROM config_scrapers WHERE deleted_at IS NULL`);
    expect(after.rows).toEqual([{ source: 'UI' }]);
  });
});
