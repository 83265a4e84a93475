import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROLES, type LogsResponse, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * POST /api/logs on a real PostgreSQL, real files and real HTTP: a component whose logs
 * selectors name backends (files; Loki, OpenSearch and a Kubernetes API server played by local
 * servers speaking their documented formats), backends written through /api/db with their
 * spec validated, roles and bad input. The app may read only `dir` (LOOKOUT_LOG_FILE_ROOTS): a
 * link in it to a file elsewhere, and backends naming other directories, are refused.
 */

let testApp: TestApp;
let fake: http.Server;
let fakeUrl: string;
const requests: { method: string; url: string; body: string }[] = [];
const users = {} as Record<Role, TestUser>;
const dir = mkdtempSync(join(tmpdir(), 'lookout-logs-route-'));
const elsewhere = mkdtempSync(join(tmpdir(), 'lookout-logs-elsewhere-'));
const rootsSetting = `LOOKOUT_LOG_FILE_ROOTS=${dir}`;
let componentId: string;

const call = (user: TestUser | undefined, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...bearer(user),
      ...(body === undefined ? {} : { 'content-type': 'application/json', prefer: 'return=representation' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const logs = async (body: Record<string, unknown>, user = users.viewer) => {
  const response = await call(user, 'POST', '/api/logs', { id: componentId, ...body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LogsResponse>();
};

/** A kubeconfig whose one context reaches the local API server with a token. */
const kubeconfig = (server: string) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'lab',
    clusters: [{ name: 'lab', cluster: { server } }],
    contexts: [{ name: 'lab', context: { cluster: 'lab', user: 'lab' } }],
    users: [{ name: 'lab', user: { token: 'pod-log-token' } }],
  });

/** Loki's query_range, OpenSearch's _search and the Kubernetes pod log API, as documented. */
function answer(request: http.IncomingMessage, body: string, response: http.ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://fake');
  requests.push({ method: request.method ?? '', url: url.pathname + url.search, body });
  response.setHeader('content-type', 'application/json');
  if (url.pathname === '/loki/api/v1/query_range') {
    response.end(
      JSON.stringify({
        status: 'success',
        data: {
          resultType: 'streams',
          result: [
            {
              stream: { app: 'shop' },
              values: [
                ['1772359202000000000', 'loki newest'],
                ['1772359200000000000', 'loki old'],
              ],
            },
          ],
        },
      }),
    );
  } else if (url.pathname === '/shop-logs/_search') {
    response.end(
      JSON.stringify({
        hits: {
          total: { value: 42, relation: 'eq' },
          hits: [{ _source: { '@timestamp': '2026-03-01T10:00:00Z', message: 'search hit', level: 'warn' } }],
        },
      }),
    );
  } else if (url.pathname === '/api/v1/namespaces/shop/pods/web-0/log') {
    expect(request.headers.authorization).toBe('Bearer pod-log-token');
    response.setHeader('content-type', 'text/plain');
    response.end('2026-03-01T10:00:00.000000001Z pod first\n2026-03-01T10:00:01Z pod second\n');
  } else {
    response.statusCode = 404;
    response.end(JSON.stringify({ kind: 'Status', message: 'pods "x" not found' }));
  }
}

beforeAll(async () => {
  fake = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => answer(request, body, response));
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  testApp = await buildTestApp({ logs: { fileRoots: [dir] } });
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@logs.test`,
      roles: [role],
    });
  }
  const lines = Array.from({ length: 300 }, (_, index) =>
    JSON.stringify({
      time: new Date(Date.UTC(2026, 2, 1, 10) + index * 1000).toISOString(),
      level: index % 10 === 0 ? 'error' : 'info',
      msg: `request ${index}`,
    }),
  );
  writeFileSync(join(dir, 'app-1.log'), `${lines.slice(0, 150).join('\n')}\n`);
  writeFileSync(join(dir, 'app-2.log'), `${lines.slice(150).join('\n')}\n`);
  writeFileSync(join(elsewhere, 'secret.key'), 'the secret key\n');
  symlinkSync(join(elsewhere, 'secret.key'), join(dir, 'leak.log'));
  const selectors = [
    { name: 'app', type: 'files' },
    { name: 'errors', type: 'files', labels: { level: 'error' } },
    { name: 'loki', type: 'loki', labels: { app: 'shop' } },
    { name: 'search', type: 'search' },
    { name: 'pod', type: 'cluster', labels: { namespace: 'shop', pod: 'web-0' } },
    { name: 'missing-pod', type: 'cluster', labels: { namespace: 'shop', pod: 'x' } },
    { name: 'nowhere', type: 'absent' },
    { name: 'leaky', type: 'leaky' },
    { name: 'old', type: 'old' },
    { name: 'untyped' },
  ];
  const { rows } = await testApp.database.pool.query<{ id: string }>(
    `INSERT INTO components (name, type, status, external_id, log_selectors) VALUES ('shop', 'Service', 'healthy', 'shop', $1) RETURNING id`,
    [JSON.stringify(selectors)],
  );
  componentId = rows[0]?.id as string;
  await testApp.database.pool.query(
    `INSERT INTO connections (name, namespace, type, certificate, source) VALUES ('cluster', 'default', 'kubernetes', $1, 'UI')`,
    [kubeconfig(fakeUrl)],
  );
  const backends = [
    { name: 'files', labels: { team: 'shop' }, spec: { file: { paths: [join(dir, 'app-*.log')], format: 'json' } } },
    { name: 'loki', spec: { loki: { url: fakeUrl } } },
    { name: 'search', spec: { opensearch: { url: fakeUrl, index: 'shop-logs' } } },
    { name: 'cluster', spec: { kubernetes: { connection: 'connection://default/cluster' } } },
    // Inside the root as written; the link it matches leads out.
    { name: 'leaky', spec: { file: { paths: [join(dir, 'leak*.log')] } } },
  ];
  for (const backend of backends) {
    const response = await call(users.editor, 'POST', '/api/db/logging_backends', backend);
    expect(response.statusCode, response.body).toBe(201);
  }
  // A row from before the setting (or a narrower one since) names a directory outside the root.
  await testApp.database.pool.query(`INSERT INTO logging_backends (name, spec) VALUES ('old', $1)`, [
    JSON.stringify({ file: { paths: [join(elsewhere, '*.key')] } }),
  ]);
}, 120_000);

afterAll(async () => {
  await testApp?.close();
  await new Promise((resolve) => fake?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('POST /api/logs', () => {
  it('reads the files of a glob, newest first across files', async () => {
    const result = await logs({ name: 'app', limit: 3 });
    expect(result.results.map((line) => line.message)).toEqual(['request 299', 'request 298', 'request 297']);
    expect(result.results[0]).toMatchObject({
      timestamp: '2026-03-01T10:04:59.000Z',
      labels: { level: 'info', file: join(dir, 'app-2.log') },
    });
  });

  it('searches, counts and honours the time range and the selector labels', async () => {
    const found = await logs({ name: 'app', query: 'request 1', limit: 500 });
    expect(found.total).toBe(111); // 1, 10-19, 100-199
    const ranged = await logs({ name: 'app', start: '2026-03-01T10:00:10Z', end: '2026-03-01T10:00:12Z' });
    expect(ranged.results.map((line) => line.message)).toEqual(['request 12', 'request 11', 'request 10']);
    const errors = await logs({ name: 'errors' });
    expect(errors.total).toBe(30);
    expect(errors.results.every((line) => line.labels.level === 'error')).toBe(true);
  });

  it('reads Loki query_range with the labels as stream selector and the query as line filter', async () => {
    const result = await logs({
      name: 'loki',
      query: 'newest',
      start: '2026-03-01T10:00:00Z',
      end: '2026-03-01T11:00:00Z',
    });
    expect(result.results).toEqual([
      { timestamp: '2026-03-01T10:00:02.000Z', message: 'loki newest', labels: { app: 'shop' } },
      { timestamp: '2026-03-01T10:00:00.000Z', message: 'loki old', labels: { app: 'shop' } },
    ]);
    const sent = new URL(requests.findLast((r) => r.url.startsWith('/loki'))?.url ?? '', 'http://x');
    expect(sent.searchParams.get('query')).toBe('{app="shop"} |= "newest"');
    expect(sent.searchParams.get('start')).toBe(`${Date.parse('2026-03-01T10:00:00Z')}000000`);
    expect(sent.searchParams.get('direction')).toBe('backward');
  });

  it('reads OpenSearch _search with the query as a phrase and the time range as a filter', async () => {
    const result = await logs({ name: 'search', query: 'hit', start: '2026-03-01T00:00:00Z' });
    expect(result).toEqual({
      total: 42,
      results: [{ timestamp: '2026-03-01T10:00:00.000Z', message: 'search hit', labels: { level: 'warn' } }],
    });
    const body = JSON.parse(requests.findLast((r) => r.url.includes('_search'))?.body ?? '{}');
    expect(body.sort).toEqual([{ '@timestamp': { order: 'desc' } }]);
    expect(body.query.bool.filter).toEqual([{ range: { '@timestamp': { gte: '2026-03-01T00:00:00.000Z' } } }]);
  });

  it('reads pod logs through a kubernetes connection', async () => {
    const result = await logs({ name: 'pod', limit: 10 });
    expect(result.results.map((line) => line.message)).toEqual(['pod second', 'pod first']);
    expect(result.results[0]?.labels).toEqual({ namespace: 'shop', pod: 'web-0' });
    expect(requests.findLast((r) => r.url.includes('/log'))?.url).toContain('timestamps=true&tailLines=10');
    const missing = await call(users.viewer, 'POST', '/api/logs', { id: componentId, name: 'missing-pod' });
    expect(missing.statusCode).toBe(502);
    expect(missing.json().message).toContain('pods "x" not found');
  });

  it('answers 400 naming the field for bad input, 404 for what does not exist', async () => {
    const bad = async (body: Record<string, unknown>, status: number, text: string) => {
      const response = await call(users.viewer, 'POST', '/api/logs', body);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.body).toContain(text);
    };
    await bad({ id: 'not-a-uuid', name: 'app' }, 400, 'id');
    await bad({ id: componentId }, 400, 'name');
    await bad({ id: componentId, name: 'app', limit: 0 }, 400, 'limit');
    await bad({ id: componentId, name: 'app', start: 'yesterday-ish' }, 400, 'start');
    await bad({ id: componentId, name: 'app', start: 'now', end: 'now-1h' }, 400, 'start: is after end');
    await bad({ id: componentId, name: 'untyped' }, 400, 'names no log backend');
    await bad({ id: componentId, name: 'nope' }, 404, "no logs selector 'nope'");
    await bad({ id: componentId, name: 'nowhere' }, 404, "log backend 'absent' does not exist");
    await bad({ id: '00000000-0000-4000-8000-000000000000', name: 'app' }, 404, 'no component');
  });

  it('refuses to read a file outside LOOKOUT_LOG_FILE_ROOTS, through a link or a stored glob', async () => {
    const leaky = await call(users.admin, 'POST', '/api/logs', { id: componentId, name: 'leaky' });
    expect(leaky.statusCode, leaky.body).toBe(409);
    expect(leaky.json().message).toBe(
      `spec.file.paths: ${join(dir, 'leak.log')} (really ${join(elsewhere, 'secret.key')}) is outside the directories log backends may read (${rootsSetting}); add its directory there to allow it`,
    );
    expect(leaky.body).not.toContain('the secret key');
    const old = await call(users.admin, 'POST', '/api/logs', { id: componentId, name: 'old' });
    expect(old.statusCode, old.body).toBe(409);
    expect(old.json().message).toBe(
      `spec.file.paths[0]: ${join(elsewhere, '*.key')} is outside the directories log backends may read (${rootsSetting}); add its directory there to allow it`,
    );
  });

  it('needs a signed-in caller and the logs feature', async () => {
    expect((await call(undefined, 'POST', '/api/logs', { id: componentId, name: 'app' })).statusCode).toBe(401);
    // Through /api/db, which refreshes the feature flags at once.
    const flag = await call(users.admin, 'POST', '/api/db/properties', { name: 'logs.disable', value: 'true' });
    expect(flag.statusCode, flag.body).toBe(201);
    try {
      // A disabled feature's routes answer 404 (docs/access.md).
      expect((await call(users.viewer, 'POST', '/api/logs', { id: componentId, name: 'app' })).statusCode).toBe(404);
    } finally {
      await call(users.admin, 'PATCH', '/api/db/properties?name=eq.logs.disable', { value: 'false' });
    }
    expect((await call(users.viewer, 'POST', '/api/logs', { id: componentId, name: 'app' })).statusCode).toBe(200);
  });
});

describe('log backends through /api/db', () => {
  it('refuses an invalid spec with a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'x', spec: {} }, 'needs exactly one of file'],
      [{ name: 'x', spec: { file: { paths: [] } } }, 'spec.file.paths: needs at least one path'],
      [{ name: 'x', spec: { loki: {} } }, 'spec.loki: needs url or connection'],
      [{ name: 'x', spec: { opensearch: { url: 'http://x' } } }, 'spec.opensearch.index: is required'],
      [{ name: 'x', spec: { file: { paths: ['/x'], format: 'xml' } } }, 'spec.file.format'],
      [{ name: '', spec: { journald: {} } }, 'name: is required'],
      [{ name: 'x', labels: { a: 1 }, spec: { journald: {} } }, 'labels: must be an object of texts'],
      [{ name: 'x' }, 'spec: is required'],
    ];
    for (const [body, text] of cases) {
      const response = await call(users.admin, 'POST', '/api/db/logging_backends', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toContain(text);
    }
    const patch = await call(users.admin, 'PATCH', '/api/db/logging_backends?name=eq.files', { spec: { file: {} } });
    expect(patch.statusCode).toBe(400);
  });

  it('refuses a glob or journal directory outside LOOKOUT_LOG_FILE_ROOTS with a 400 naming the field', async () => {
    const outside = (field: string, what: string) =>
      `${field}: ${what} is outside the directories log backends may read (${rootsSetting}); add its directory there to allow it`;
    const cases: [unknown, string][] = [
      [
        { name: 'x', spec: { file: { paths: [join(dir, 'a.log'), '/etc/shadow'] } } },
        outside('spec.file.paths[1]', '/etc/shadow'),
      ],
      [{ name: 'x', spec: { file: { paths: [`${dir}2/*.log`] } } }, outside('spec.file.paths[0]', `${dir}2/*.log`)],
      [
        { name: 'x', spec: { file: { paths: [`${dir}/../*/secret.key`] } } },
        outside('spec.file.paths[0]', `${dir}/../*/secret.key`),
      ],
      [{ name: 'x', spec: { file: { paths: ['/**/secret.key'] } } }, outside('spec.file.paths[0]', '/**/secret.key')],
      [{ name: 'x', spec: { journald: { directory: elsewhere } } }, outside('spec.journald.directory', elsewhere)],
    ];
    for (const [body, text] of cases) {
      const response = await call(users.editor, 'POST', '/api/db/logging_backends', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toBe(`Invalid log backend: ${text}`);
    }
    const bulk = await call(users.editor, 'POST', '/api/db/logging_backends', [
      { name: 'fine', spec: { file: { paths: [join(dir, '*.log')] } } },
      { name: 'far', spec: { file: { paths: ['/etc/*'] } } },
    ]);
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json().message).toBe(`Invalid log backend: [1] ${outside('spec.file.paths[0]', '/etc/*')}`);
    const patch = await call(users.editor, 'PATCH', '/api/db/logging_backends?name=eq.files', {
      spec: { file: { paths: ['/etc/*'] } },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().message).toContain('spec.file.paths[0]: /etc/* is outside');
    // Someone who may not write at all is told so by the data API, whatever the spec.
    const viewer = await call(users.viewer, 'POST', '/api/db/logging_backends', {
      name: 'x',
      spec: { file: { paths: ['/etc/*'] } },
    });
    expect(viewer.statusCode).toBe(403);
    // A journal directory under the root is saved; the default journal needs no directory.
    const journal = await call(users.editor, 'POST', '/api/db/logging_backends', {
      name: 'local-journal',
      spec: { journald: { directory: join(dir, 'journal') } },
    });
    expect(journal.statusCode, journal.body).toBe(201);
  });

  it('lets admins and editors write, everyone else read only', async () => {
    for (const role of ROLES) {
      const write = await call(users[role], 'POST', '/api/db/logging_backends', {
        name: `by-${role}`,
        spec: { journald: {} },
      });
      expect(write.statusCode, role).toBe(role === 'admin' || role === 'editor' ? 201 : 403);
      expect((await call(users[role], 'GET', '/api/db/logging_backends?select=name')).statusCode).toBe(200);
    }
  });

  it('lists components with logs for the picker', async () => {
    const response = await call(users.viewer, 'GET', '/api/db/components_with_logs?order=name.asc&select=id,name,icon');
    expect(response.json()).toEqual([{ id: componentId, name: 'shop', icon: null }]);
  });
});
