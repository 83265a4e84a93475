import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { applyCanaryFiles, attachToRunningEmbedded } from './health-cli.js';

let database: TestDatabase;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-apply-'));
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

const apply = (files: string[], source: 'ConfigFile' | 'UI' = 'ConfigFile', stdin = '') =>
  applyCanaryFiles({
    pool: database.pool,
    logger: pino({ level: 'silent' }),
    files,
    source,
    readStdin: async () => stdin,
  });

describe('lookout apply -f', () => {
  it('applies every canary of a multi-document file, as ConfigFile, and reports each', async () => {
    const file = path.join(dir, 'canaries.yaml');
    await writeFile(
      file,
      `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: web
spec:
  interval: 60
  http:
    - name: home
      url: https://example.com
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: broken
spec:
  tcp:
    - name: db
      endpoint: db.internal
---
kind: Topology
metadata:
  name: other
`,
    );
    const lines = await apply([file]);
    expect(lines).toEqual([
      { ok: true, text: 'canary default/web created (1 checks: http/home)' },
      {
        ok: false,
        text: `${file} (document 2): Invalid canary: spec.tcp[0].endpoint: must be host:port, for example db.internal:5432`,
      },
      { ok: false, text: `${file} (document 3): kind Topology is not supported yet; use one of Canary` },
    ]);
    const { rows } = await database.pool.query("SELECT source FROM canaries WHERE name = 'web'");
    expect(rows).toEqual([{ source: 'ConfigFile' }]);
    expect((await apply([file]))[0]).toEqual({ ok: true, text: 'canary default/web configured (1 checks: http/home)' });
  });

  it('reads standard input and reports unreadable files and YAML errors', async () => {
    const stdin =
      '{"apiVersion": "canaries.flanksource.com/v1", "kind": "Canary", "metadata": {"name": "piped"}, "spec": {"tcp": [{"name": "t", "endpoint": "127.0.0.1:9"}]}}';
    expect(await apply(['-'], 'UI', stdin)).toEqual([
      { ok: true, text: 'canary default/piped created (1 checks: tcp/t)' },
    ]);
    const missing = await apply([path.join(dir, 'nope.yaml')]);
    expect(missing[0]?.ok).toBe(false);
    expect(missing[0]?.text).toContain('cannot be read');
    const bad = path.join(dir, 'bad.yaml');
    await writeFile(bad, 'kind: [');
    expect((await apply([bad]))[0]?.text).toMatch(/not valid YAML: line 1/);
  });

  it('refuses a schedule the scheduler cannot honour and an expression that does not compile, storing nothing', async () => {
    const file = path.join(dir, 'unrunnable.yaml');
    await writeFile(
      file,
      `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: too-often
spec:
  schedule: "@every 1ms"
  http:
    - name: home
      url: https://example.com
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: bad-test
spec:
  http:
    - name: home
      url: https://example.com
      test:
        expr: "code =="
      display:
        expr: "'status ' + 1"
`,
    );
    expect(await apply([file])).toEqual([
      {
        ok: false,
        text: `${file} (document 1): Invalid canary: spec.schedule: '@every 1ms' is more often than checks can run; the shortest interval is @every 1s`,
      },
      {
        ok: false,
        text: `${file} (document 2): Invalid canary: spec.http[0].test.expr: does not compile: Unexpected token: EOF; spec.http[0].display.expr: does not compile: no such overload: string + int`,
      },
    ]);
    const { rows } = await database.pool.query("SELECT name FROM canaries WHERE name IN ('too-often', 'bad-test')");
    expect(rows).toEqual([]);
  });

  it('refuses a YAML alias bomb and deep nesting before parsing them', async () => {
    const bomb = path.join(dir, 'bomb.yaml');
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [name, previous] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
      ['g', 'f'],
    ]) {
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    await writeFile(bomb, levels.join('\n'));
    const nested = path.join(dir, 'nested.yaml');
    await writeFile(nested, `${'['.repeat(480_000)}${']'.repeat(480_000)}`);
    expect(await apply([bomb, nested])).toEqual([
      {
        ok: false,
        text: `${bomb}: The YAML uses more than 100 aliases (*name); write the repeated values out instead.`,
      },
      {
        ok: false,
        text: `${nested}: The YAML nests mappings and lists more than 100 levels deep (a canary needs about ten); flatten it.`,
      },
    ]);
  });

  it('attaches to no embedded cluster when the data directory has none running', async () => {
    expect(await attachToRunningEmbedded(dir)).toBeUndefined();
  });
});
