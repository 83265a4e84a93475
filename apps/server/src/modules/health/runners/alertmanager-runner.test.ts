import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AlertmanagerCheck } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../db/free-port.js';
import { runCheck } from './runners.js';

const resolveSecret = () => Promise.reject(new Error('no secrets in this test'));
// Debian ships Alertmanager as prometheus-alertmanager.
const binary = [
  process.env.ALERTMANAGER_BIN,
  '/usr/bin/prometheus-alertmanager',
  '/usr/bin/alertmanager',
  '/usr/local/bin/alertmanager',
].find((file): file is string => !!file && existsSync(file));

let child: ChildProcess | undefined;
let dir = '';
let url = '';
let unavailable: string | undefined = binary
  ? undefined
  : 'alertmanager is not installed (run scripts/ensure-test-tools.mjs)';

async function api(method: string, pathname: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${pathname} answered ${response.status}: ${await response.text()}`);
  const text = await response.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

async function waitFor(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child?.exitCode !== null && child?.exitCode !== undefined)
      throw new Error(`alertmanager exited with code ${child.exitCode}`);
    try {
      if (await probe()) return;
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} within 20 s`);
}

beforeAll(async () => {
  if (!binary) return;
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-alertmanager-'));
  const port = await findFreePort();
  url = `http://127.0.0.1:${port}`;
  const config = path.join(dir, 'alertmanager.yml');
  await writeFile(config, 'route:\n  receiver: discard\n  group_wait: 1s\nreceivers:\n  - name: discard\n');
  child = spawn(
    binary,
    [
      `--config.file=${config}`,
      `--storage.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // No gossip cluster: it would bind another port the test does not need.
      '--cluster.listen-address=',
    ],
    { stdio: 'ignore' },
  );
  try {
    await waitFor('alertmanager did not become ready', async () => (await fetch(`${url}/-/ready`)).ok);
    const endsAt = new Date(Date.now() + 3_600_000).toISOString();
    await api('POST', '/api/v2/alerts', [
      {
        labels: { alertname: 'DiskFull', severity: 'critical', namespace: 'prod', pod: 'db-0' },
        annotations: { summary: 'disk is 95% full' },
        endsAt,
      },
      { labels: { alertname: 'HighLatency', severity: 'warning', namespace: 'prod' }, endsAt },
      { labels: { alertname: 'Watchdog', severity: 'none' }, endsAt },
    ]);
    await api('POST', '/api/v2/silences', {
      matchers: [{ name: 'alertname', value: 'Watchdog', isRegex: false, isEqual: true }],
      startsAt: new Date().toISOString(),
      endsAt,
      createdBy: 'lookout tests',
      comment: 'known and expected',
    });
    await waitFor('the test alerts did not appear', async () => {
      const alerts = (await api('GET', '/api/v2/alerts')) as unknown[];
      return alerts.length === 3;
    });
  } catch (error) {
    unavailable = `alertmanager did not start: ${(error as Error).message}`;
  }
}, 30_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

const run = (check: Omit<AlertmanagerCheck, 'name' | 'url'>, base = url) =>
  runCheck(
    { type: 'alertmanager', check: { name: 'alerts', url: base, ...check } },
    { resolveSecret, timeoutMs: 5000 },
  );

describe('alertmanager runner against Alertmanager started by the test', () => {
  it('fails while matching alerts fire, naming them, and fans them out with transform', async () => {
    if (unavailable) {
      console.warn(`SKIPPED alertmanager runner test: ${unavailable}`);
      return;
    }
    const result = await run({
      alerts: ['Disk.*'],
      transform: { expr: 'results.alerts.map(a, {"name": a.name, "pass": false, "message": a.message})' },
    });
    expect(result).toMatchObject({ pass: false, message: '1 alert firing: DiskFull/prod/db-0 (disk is 95% full)' });
    expect(result.transformed).toEqual([{ name: 'DiskFull/prod/db-0', pass: false, message: 'disk is 95% full' }]);

    const all = await run({ filters: { namespace: 'prod' } });
    expect(all.pass).toBe(false);
    expect(all.message).toMatch(/^2 alerts firing: /);
  });

  it('passes when nothing matching fires, and ignores silenced alerts', async () => {
    if (unavailable) {
      console.warn(`SKIPPED alertmanager runner test: ${unavailable}`);
      return;
    }
    expect(await run({ filters: { severity: 'info' } })).toMatchObject({
      pass: true,
      message: 'no matching alerts firing (2 other active alerts did not match)',
    });
    expect(await run({ ignore: ['DiskFull', 'High.*'] })).toMatchObject({ pass: true });
    expect(await run({ exclude_filters: { namespace: 'prod' } })).toMatchObject({ pass: true });
    // Watchdog fires but is silenced.
    expect(await run({ alerts: ['Watchdog'] })).toMatchObject({ pass: true });
  });

  it('fails when Alertmanager is not there', async () => {
    const port = await findFreePort();
    expect(await run({}, `http://127.0.0.1:${port}`)).toMatchObject({
      pass: false,
      message: `could not reach alertmanager at http://127.0.0.1:${port}/api/v2/alerts: connection refused`,
    });
  });
});
