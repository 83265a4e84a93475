import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PrometheusCheck } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../db/free-port.js';
import { runCheck } from './runners.js';

const resolveSecret = () => Promise.reject(new Error('no secrets in this test'));
const binary = [process.env.PROMETHEUS_BIN, '/usr/bin/prometheus', '/usr/local/bin/prometheus'].find(
  (file): file is string => !!file && existsSync(file),
);

let child: ChildProcess | undefined;
let dir = '';
let url = '';
let unavailable: string | undefined = binary
  ? undefined
  : 'prometheus is not installed (run scripts/ensure-test-tools.mjs)';

async function waitUntilReady(base: string, process: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) throw new Error(`prometheus exited with code ${process.exitCode}`);
    try {
      if ((await fetch(`${base}/-/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('prometheus did not become ready within 20 s');
}

beforeAll(async () => {
  if (!binary) return;
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-prometheus-'));
  const port = await findFreePort();
  url = `http://127.0.0.1:${port}`;
  const config = path.join(dir, 'prometheus.yml');
  await writeFile(
    config,
    `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: self\n    static_configs:\n      - targets: ['127.0.0.1:${port}']\n`,
  );
  child = spawn(
    binary,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    {
      stdio: 'ignore',
    },
  );
  try {
    await waitUntilReady(url, child);
  } catch (error) {
    unavailable = `prometheus did not start: ${(error as Error).message}`;
  }
}, 30_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

const run = (check: Omit<PrometheusCheck, 'name' | 'url'>, base = url) =>
  runCheck({ type: 'prometheus', check: { name: 'prom', url: base, ...check } }, { resolveSecret, timeoutMs: 5000 });

describe('prometheus runner against Prometheus started by the test', () => {
  it('passes when the test holds over the result vector, and fails when it does not', async () => {
    if (unavailable) {
      console.warn(`SKIPPED prometheus runner test: ${unavailable}`);
      return;
    }
    expect(await run({ query: 'vector(42)', test: { expr: 'value == 42.0' } })).toMatchObject({
      pass: true,
      message: 'query returned 1 series, first: 42',
    });
    const labelled = await run({
      query: 'label_replace(vector(1), "job", "api", "", "") or label_replace(vector(0), "job", "worker", "", "")',
      test: { expr: 'results.exists(r, r.job == "api" && r.value == 1.0)' },
      display: {
        expr: 'string(results.size()) + " jobs, " + string(results.filter(r, r.value == 0.0).size()) + " down"',
      },
      transform: { expr: 'results.map(r, {"name": r.job, "pass": r.value == 1.0})' },
    });
    expect(labelled).toMatchObject({ pass: true, message: '2 jobs, 1 down' });
    expect(labelled.transformed).toEqual(
      expect.arrayContaining([
        { name: 'api', pass: true },
        { name: 'worker', pass: false },
      ]),
    );
    expect(await run({ query: 'vector(42)', test: { expr: 'value < 10.0' } })).toMatchObject({
      pass: false,
      message: 'test `value < 10.0` returned false; query returned 1 series, first: 42',
    });
  });

  it('fails on a query Prometheus rejects, and on a Prometheus that is not there', async () => {
    if (unavailable) {
      console.warn(`SKIPPED prometheus runner test: ${unavailable}`);
      return;
    }
    expect(await run({ query: 'sum(' })).toMatchObject({
      pass: false,
      message:
        'prometheus query failed: bad_data: invalid parameter "query": 1:5: parse error: unclosed left parenthesis',
    });
    const port = await findFreePort();
    expect(await run({ query: 'up' }, `http://127.0.0.1:${port}`)).toMatchObject({
      pass: false,
      message: `could not reach prometheus at http://127.0.0.1:${port}/api/v1/query: connection refused`,
    });
  });
});
