import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkDetailsResponseSchema,
  checkGraphResponseSchema,
  checkSummaryResponseSchema,
  NIL_AGENT_ID,
  ROLES,
  type Role,
} from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { createHealthRepository } from './health-repository.js';

/** Tests act as a role through this header; no header means nobody is signed in. */
const rolesFromHeader = async (request: FastifyRequest): Promise<readonly Role[] | null> => {
  const header = request.headers['x-test-roles'];
  if (typeof header !== 'string') return null;
  return header === ''
    ? []
    : (header.split(',').filter((role) => (ROLES as readonly string[]).includes(role)) as Role[]);
};

let testApp: TestApp;
let target: http.Server;
let targetUrl: string;
let answer = 200;

beforeAll(async () => {
  target = http.createServer((_request, response) => {
    response.writeHead(answer, { 'content-type': 'text/plain' });
    response.end(answer === 200 ? 'ok' : 'broken');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
  testApp = await buildTestApp({ resolveRoles: rolesFromHeader });
});
afterAll(async () => {
  await testApp?.close();
  await new Promise((resolve) => target.close(resolve));
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (
  method: Method,
  url: string,
  roles: string | undefined,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...(roles === undefined ? {} : { 'x-test-roles': roles }),
      ...(payload === undefined || typeof payload === 'string' ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });

const canary = (name: string, spec: object) => ({
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Canary',
  metadata: { name, namespace: 'default', labels: { team: 'sre' } },
  spec,
});

describe('POST /api/canary/apply', () => {
  it('creates a canary and derives its checks, then updates it in place', async () => {
    const body = canary('web', { interval: 60, http: [{ name: 'home', url: targetUrl }] });
    const created = await call('POST', '/api/canary/apply', 'editor', body);
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      canary: { name: 'web', namespace: 'default', source: 'UI' },
      created: true,
      checks: [{ type: 'http', name: 'home' }],
    });
    const again = await call('POST', '/api/canary/apply', 'admin', {
      ...body,
      spec: {
        interval: 60,
        http: [{ name: 'home', url: targetUrl }],
        tcp: [{ name: 'port', endpoint: '127.0.0.1:1' }],
      },
    });
    expect(again.json()).toMatchObject({ created: false, checks: [{ type: 'http' }, { type: 'tcp' }] });
    expect(again.json().canary.id).toBe(created.json().canary.id);
  });

  it('accepts YAML, the way canaries are written by hand', async () => {
    const yaml = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: from-yaml
spec:
  schedule: "@every 1m"
  tcp:
    - name: local
      endpoint: 127.0.0.1:9
`;
    const response = await call('POST', '/api/canary/apply?source=ConfigFile', 'editor', yaml, {
      'content-type': 'application/yaml',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ canary: { name: 'from-yaml', source: 'ConfigFile' }, created: true });
  });

  it('refuses an invalid document with every problem naming its field', async () => {
    const response = await call(
      'POST',
      '/api/canary/apply',
      'editor',
      canary('bad', { http: [{ name: 'home', url: 'not a url', respnseCodes: [200] }] }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'Invalid canary: spec.http[0].url: must be a URL; spec.http[0].respnseCodes: unknown field',
    );
    expect(response.json().error.details).toEqual([
      { field: 'spec.http[0].url', message: 'must be a URL' },
      { field: 'spec.http[0].respnseCodes', message: 'unknown field' },
    ]);
  });

  it('refuses broken YAML, a bad source, and a canary another source owns', async () => {
    const yaml = await call('POST', '/api/canary/apply', 'editor', 'kind: [', { 'content-type': 'text/yaml' });
    expect(yaml.statusCode).toBe(400);
    expect(yaml.json().message).toMatch(/^The body is not valid YAML: line 1/);
    const source = await call('POST', '/api/canary/apply?source=System', 'admin', canary('x', { tcp: [] }));
    expect(source.statusCode).toBe(400);
    expect(source.json().message).toContain('source');
    const conflict = await call(
      'POST',
      '/api/canary/apply?source=ConfigFile',
      'editor',
      canary('web', { http: [{ name: 'home', url: targetUrl }] }),
    );
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().message).toBe(
      "Canary 'default/web' already exists and comes from UI; change it there, or apply under another name.",
    );
  });

  it('is for roles that write canaries: 401 signed out, 403 for viewers, responders and commanders', async () => {
    const body = canary('roles', { tcp: [{ name: 't', endpoint: '127.0.0.1:9' }] });
    expect((await call('POST', '/api/canary/apply', undefined, body)).statusCode).toBe(401);
    for (const role of ['viewer', 'responder', 'commander', '']) {
      expect((await call('POST', '/api/canary/apply', role, body)).statusCode, role).toBe(403);
    }
  });
});

describe('GET /api/canary/api/summary', () => {
  it('lists live checks with the fields the dashboard reads', async () => {
    const response = await call('GET', '/api/canary/api/summary', 'viewer');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    // PostgreSQL writes this JSON: it must be exactly what the web's schema reads.
    expect(checkSummaryResponseSchema.safeParse(response.json()).success).toBe(true);
    const body = response.json<{ checks_summary: Record<string, unknown>[]; from: string; to: string }>();
    expect(new Date(body.to).getTime() - new Date(body.from).getTime()).toBe(3_600_000);
    const home = body.checks_summary.find((item) => item.name === 'home');
    expect(home).toMatchObject({
      canary_name: 'web',
      namespace: 'default',
      type: 'http',
      endpoint: targetUrl,
      labels: { team: 'sre' },
      agent_id: '00000000-0000-0000-0000-000000000000',
      uptime: { passed: 0, failed: 0, last_pass: null, last_fail: null },
      latency: { p95: null, p97: null, p99: null, rolling1h: null },
      status: null,
    });
    expect(Object.keys(home ?? {})).toEqual(
      expect.arrayContaining([
        'id',
        'canary_id',
        'icon',
        'description',
        'severity',
        'last_runtime',
        'next_runtime',
        'last_transition_time',
      ]),
    );
  });

  it('takes relative and absolute ranges and says which parameter is wrong', async () => {
    for (const query of [
      'timeRange=7d',
      'timeRange=now-2h',
      'start=2026-01-01T00:00:00Z&end=now',
      'from=1d&to=now-1h',
    ]) {
      expect((await call('GET', `/api/canary/api/summary?${query}`, 'viewer')).statusCode, query).toBe(200);
    }
    const bad = await call('GET', '/api/canary/api/summary?timeRange=yesterday', 'viewer');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('timeRange');
    const reversed = await call('GET', '/api/canary/api/summary?start=now&end=now-1h', 'viewer');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/must start before it ends/);
    const badId = await call('GET', '/api/canary/api/summary?check_id=42', 'viewer');
    expect(badId.statusCode).toBe(400);
  });

  it('answers 401 when nobody is signed in', async () => {
    expect((await call('GET', '/api/canary/api/summary', undefined)).statusCode).toBe(401);
  });
});

describe('POST /api/canary/run/check/{id}', () => {
  let checkId: string;
  beforeAll(async () => {
    const summary = await call('GET', '/api/canary/api/summary', 'viewer');
    checkId = summary
      .json<{ checks_summary: { id: string; name: string }[] }>()
      .checks_summary.find((item) => item.name === 'home')!.id;
  });

  it('runs the check, stores the result and returns it, for admin, editor, responder and commander', async () => {
    answer = 200;
    for (const role of ['admin', 'editor', 'responder', 'commander']) {
      const response = await call('POST', `/api/canary/run/check/${checkId}`, role);
      expect(response.statusCode, role).toBe(200);
      expect(response.json()).toMatchObject({
        total: 1,
        success: 1,
        failed: 0,
        errors: [],
        result: { check_id: checkId, status: true },
      });
    }
    answer = 500;
    const failing = await call('POST', `/api/canary/run/check/${checkId}`, 'responder');
    expect(failing.json()).toMatchObject({ success: 0, failed: 1, result: { status: false } });
    expect(failing.json().errors[0]).toMatch(/500/);
    answer = 200;
    const history = await call(
      'GET',
      `/api/db/check_statuses?check_id=eq.${checkId}&status=eq.0&order=time.desc&limit=50&offset=0&select=time,duration,status,message,error`,
      'viewer',
      undefined,
      { prefer: 'count=exact' },
    );
    expect(history.statusCode).toBe(200);
    expect(history.headers['content-range']).toBe('0-0/1');
    expect(history.json()[0]).toMatchObject({ status: false });
    const summary = await call('GET', `/api/canary/api/summary?check_id=${checkId}`, 'viewer');
    expect(summary.json().checks_summary[0]).toMatchObject({ status: 'unhealthy', uptime: { passed: 4, failed: 1 } });
  });

  it('refuses viewers and people without roles, and answers 401 signed out', async () => {
    expect((await call('POST', `/api/canary/run/check/${checkId}`, 'viewer')).statusCode).toBe(403);
    expect((await call('POST', `/api/canary/run/check/${checkId}`, '')).statusCode).toBe(403);
    expect((await call('POST', `/api/canary/run/check/${checkId}`, undefined)).statusCode).toBe(401);
  });

  it('answers 404 for an unknown check and 400 for an id that is not one', async () => {
    const missing = await call('POST', '/api/canary/run/check/01a1fefe-8cb3-71f1-bdca-1f41fa7808d7', 'admin');
    expect(missing.statusCode).toBe(404);
    expect((await call('POST', '/api/canary/run/check/abc', 'admin')).statusCode).toBe(400);
  });
});

describe('/api/db for health relations', () => {
  it('validates canaries written through the data API and derives their checks at once', async () => {
    const invalid = await call('POST', '/api/db/canaries', 'editor', {
      name: 'db-made',
      namespace: 'default',
      spec: { http: [{ name: 'home', url: 'ftp://nope' }] },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: '23514', message: 'Invalid canary: spec.http[0].url: must be a URL' });

    const created = await call(
      'POST',
      '/api/db/canaries',
      'editor',
      { name: 'db-made', namespace: 'default', spec: { interval: 30, http: [{ name: 'home', url: targetUrl }] } },
      { prefer: 'return=representation' },
    );
    expect(created.statusCode).toBe(201);
    const id = created.json()[0].id as string;
    const checks = await call('GET', `/api/db/checks?canary_id=eq.${id}&select=id,name,type,endpoint`, 'viewer');
    expect(checks.json()).toEqual([{ id: expect.any(String), name: 'home', type: 'http', endpoint: targetUrl }]);

    const badPatch = await call('PATCH', `/api/db/canaries?id=eq.${id}`, 'editor', { spec: { tcp: [{ name: 't' }] } });
    expect(badPatch.statusCode).toBe(400);
    expect(badPatch.json().message).toBe('Invalid canary: spec.tcp[0].endpoint: is required');
    const softDelete = await call('PATCH', `/api/db/canaries?id=eq.${id}`, 'editor', {
      deleted_at: new Date().toISOString(),
    });
    expect(softDelete.statusCode).toBe(204);
    const gone = await call('GET', `/api/db/checks?canary_id=eq.${id}&deleted_at=is.null`, 'viewer');
    expect(gone.json()).toEqual([]);
  });

  it('keeps canaries from other sources read-only and refuses non-JSON bodies', async () => {
    const fromFile = await call('GET', '/api/db/canaries?name=eq.from-yaml&select=id', 'viewer');
    const id = fromFile.json()[0].id as string;
    const patch = await call('PATCH', `/api/db/canaries?id=eq.${id}`, 'editor', { labels: { a: 'b' } });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().message).toContain('ConfigFile');
    const csv = await call('POST', '/api/db/canaries', 'editor', 'name,spec\nx,{}', { 'content-type': 'text/csv' });
    expect(csv.statusCode).toBe(415);
  });

  it('leaves a viewer write to the data API, which refuses it with 403', async () => {
    const response = await call('POST', '/api/db/canaries', 'viewer', { name: 'x', spec: {} });
    expect(response.statusCode).toBe(403);
  });

  it('keeps derived rows read-only except silencing a check', async () => {
    const summary = await call('GET', '/api/canary/api/summary', 'viewer');
    const checkId = summary.json().checks_summary[0].id as string;
    const insert = await call('POST', '/api/db/checks', 'admin', { name: 'x' });
    expect(insert.statusCode).toBe(405);
    const rename = await call('PATCH', `/api/db/checks?id=eq.${checkId}`, 'admin', { name: 'renamed' });
    expect(rename.statusCode).toBe(405);
    expect(rename.json().message).toContain('Only silenced_at');
    const silence = await call('PATCH', `/api/db/checks?id=eq.${checkId}`, 'editor', {
      silenced_at: new Date().toISOString(),
    });
    expect(silence.statusCode).toBe(204);
    for (const relation of [
      'check_statuses',
      'check_statuses_1h',
      'canaries_with_status',
      'job_histories',
      'job_history_names',
    ]) {
      expect((await call('POST', `/api/db/${relation}`, 'admin', {})).statusCode, relation).toBe(405);
    }
  });

  it('serves the check drawer lookups with their embeds', async () => {
    const summary = await call('GET', '/api/canary/api/summary', 'viewer');
    const checkId = summary.json().checks_summary[0].id as string;
    const response = await call(
      'GET',
      `/api/db/checks?id=eq.${checkId}&select=*,canaries!checks_canary_id_fkey(id,name,source),agents!checks_agent_id_fkey(id,name)`,
      'viewer',
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()[0]).toMatchObject({
      id: checkId,
      canaries: { name: expect.any(String), source: expect.any(String) },
      agents: { id: '00000000-0000-0000-0000-000000000000', name: 'local' },
    });
    const list = await call(
      'GET',
      '/api/db/canaries_with_status?select=*,created_by(id,name)&deleted_at=is.null&order=created_at.desc&limit=100',
      'viewer',
    );
    expect(list.statusCode).toBe(200);
    expect(list.json()[0]).toMatchObject({ job_name: 'SyncCanary', job_status: 'SUCCESS' });
    const jobs = await call(
      'GET',
      '/api/db/job_histories?resource_type=eq.canary&name=eq.SyncCanary&select=name,status,resource_name&order=created_at.desc&limit=1',
      'viewer',
    );
    expect(jobs.json()).toEqual([{ name: 'SyncCanary', status: 'SUCCESS', resource_name: expect.any(String) }]);
    const names = await call('GET', '/api/db/job_history_names?order=name.asc', 'viewer');
    expect(names.json()).toContainEqual({ name: 'SyncCanary' });
  });
});

describe('GET /api/canary/api/graph (ui-calls section 3.3)', () => {
  let checkId: string;
  beforeAll(async () => {
    const applied = await call(
      'POST',
      '/api/canary/apply',
      'editor',
      canary('graphed', { interval: 60, http: [{ name: 'graphed', url: targetUrl }] }),
    );
    checkId = applied.json().checks[0].id as string;
    answer = 200;
    await call('POST', `/api/canary/run/check/${checkId}`, 'admin');
    answer = 500;
    await call('POST', `/api/canary/run/check/${checkId}`, 'admin');
    answer = 200;
  });

  it('answers the call the original check drawer makes with the shape it reads', async () => {
    const response = await call('GET', `/api/canary/api/graph?check=${checkId}&count=300&start=1h`, 'viewer');
    expect(response.statusCode).toBe(200);
    expect(checkGraphResponseSchema.safeParse(response.json()).success).toBe(true);
    const body = response.json();
    expect(body).toMatchObject({
      runnerName: 'local',
      window: 0,
      uptime: { passed: 1, failed: 1 },
      latency: {
        p95: expect.any(Number),
        p97: expect.any(Number),
        p99: expect.any(Number),
        rolling1h: expect.any(Number),
      },
    });
    expect(body.status).toHaveLength(2);
    expect(body.status[0]).toMatchObject({ status: true, passed: 1, failed: 0, duration: expect.any(Number) });
    expect(body.status[1]).toMatchObject({ status: false, passed: 0, failed: 1 });
    expect(Date.parse(body.status[0].time)).toBeLessThan(Date.parse(body.status[1].time));
    // A month range is sent as an ISO time; count and end are optional.
    const month = await call(
      'GET',
      `/api/canary/api/graph?check=${checkId}&start=${new Date(Date.now() - 30 * 86_400_000).toISOString()}`,
      'viewer',
    );
    expect(month.statusCode).toBe(200);
    expect(month.json().uptime).toMatchObject({ passed: 1, failed: 1 });
  });

  it('says which parameter is wrong, 404 for an unknown check, 401 signed out', async () => {
    const missing = await call('GET', '/api/canary/api/graph?count=300', 'viewer');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('check');
    for (const [query, field] of [
      [`check=${checkId}&count=0`, 'count'],
      [`check=${checkId}&count=many`, 'count'],
      [`check=${checkId}&count=5000`, 'count'],
      [`check=${checkId}&start=yesterday`, 'start'],
      ['check=42', 'check'],
    ] as const) {
      const response = await call('GET', `/api/canary/api/graph?${query}`, 'viewer');
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toContain(field);
    }
    const reversed = await call('GET', `/api/canary/api/graph?check=${checkId}&start=now&end=1h`, 'viewer');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/must start before it ends/);
    const unknown = await call('GET', '/api/canary/api/graph?check=01a1fefe-8cb3-71f1-bdca-1f41fa7808d7', 'viewer');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("Check '01a1fefe-8cb3-71f1-bdca-1f41fa7808d7' was not found.");
    expect((await call('GET', `/api/canary/api/graph?check=${checkId}`, undefined)).statusCode).toBe(401);
  });
});

describe('GET /api/canary/api (ui-calls section 3.3, incident evidence cards)', () => {
  it('answers the check with its summary figures and its recent runs, newest first', async () => {
    const graphed = await call('GET', '/api/db/checks?name=eq.graphed&select=id', 'viewer');
    const checkId = graphed.json()[0].id as string;
    const response = await call('GET', `/api/canary/api?check=${checkId}&includeMessages=true&start=1h`, 'viewer');
    expect(response.statusCode).toBe(200);
    expect(checkDetailsResponseSchema.safeParse(response.json()).success).toBe(true);
    const [check] = response.json().checks;
    expect(check).toMatchObject({ id: checkId, name: 'graphed', uptime: { passed: 1, failed: 1 } });
    expect(check.checkStatuses).toHaveLength(2);
    expect(check.checkStatuses[0]).toMatchObject({
      status: false,
      invalid: false,
      message: expect.stringMatching(/500/),
      error: null,
    });
    expect(check.checkStatuses[1]).toMatchObject({ status: true, error: null, message: expect.any(String) });
    expect(Date.parse(check.checkStatuses[0].time)).toBeGreaterThan(Date.parse(check.checkStatuses[1].time));
    // Without includeMessages, the runs carry no message or error.
    const plain = await call('GET', `/api/canary/api?check=${checkId}&start=1h`, 'viewer');
    expect(Object.keys(plain.json().checks[0].checkStatuses[0]).sort()).toEqual([
      'duration',
      'invalid',
      'status',
      'time',
    ]);
  });

  it('answers no checks for an unknown id, 400 naming a bad parameter, 401 signed out', async () => {
    const unknown = await call('GET', '/api/canary/api?check=01a1fefe-8cb3-71f1-bdca-1f41fa7808d7', 'viewer');
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().checks).toEqual([]);
    const bad = await call(
      'GET',
      '/api/canary/api?check=01a1fefe-8cb3-71f1-bdca-1f41fa7808d7&includeMessages=maybe',
      'viewer',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('includeMessages');
    expect((await call('GET', '/api/canary/api?start=1h', 'viewer')).json().message).toContain('check');
    expect(
      (await call('GET', '/api/canary/api?check=01a1fefe-8cb3-71f1-bdca-1f41fa7808d7', undefined)).statusCode,
    ).toBe(401);
  });
});

describe("the original console's check drawer through /api/db (ui-calls section 3.3)", () => {
  /** The drawer's read, exactly as the original console sends it. */
  const DRAWER_SELECT =
    '*,canaries!checks_canary_id_fkey(id,name,source),agents!checks_agent_id_fkey(id, name),' +
    'components:check_component_relationships(components(id,name,icon)),' +
    'configs:check_config_relationships(configs(id,name,type))';

  it('reads a check with its component and config embeds: empty lists until topology and catalog fill them', async () => {
    const summary = await call('GET', '/api/canary/api/summary', 'viewer');
    const checkId = summary.json().checks_summary[0].id as string;
    const response = await call(
      'GET',
      `/api/db/checks?id=eq.${checkId}&select=${encodeURIComponent(DRAWER_SELECT)}`,
      'viewer',
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual([
      expect.objectContaining({
        id: checkId,
        canaries: expect.objectContaining({ name: expect.any(String) }),
        agents: { id: NIL_AGENT_ID, name: 'local' },
        components: [],
        configs: [],
      }),
    ]);
  });

  it('embeds the components and config items a check is linked to, and lets them go with the check', async () => {
    const applied = await call(
      'POST',
      '/api/canary/apply',
      'editor',
      canary('related', { interval: 60, http: [{ name: 'related', url: targetUrl }] }),
    );
    const canaryId = applied.json().canary.id as string;
    const checkId = applied.json().checks[0].id as string;
    // What the topology and catalog areas will write; here by hand.
    const pool = testApp.database.pool;
    const component = await pool.query<{ id: string }>(
      `INSERT INTO components (external_id, name, icon, type, status) VALUES ('api', 'api', 'server', 'Service', 'healthy')
       RETURNING id`,
    );
    const config = await pool.query<{ id: string }>(
      `INSERT INTO config_items (config_class, type, name) VALUES ('Deployment', 'Kubernetes::Deployment', 'api')
       RETURNING id`,
    );
    await pool.query(
      'INSERT INTO check_component_relationships (component_id, check_id, canary_id) VALUES ($1, $2, $3)',
      [component.rows[0]!.id, checkId, canaryId],
    );
    await pool.query('INSERT INTO check_config_relationships (config_id, check_id, canary_id) VALUES ($1, $2, $3)', [
      config.rows[0]!.id,
      checkId,
      canaryId,
    ]);
    const response = await call(
      'GET',
      `/api/db/checks?id=eq.${checkId}&select=${encodeURIComponent(DRAWER_SELECT)}`,
      'viewer',
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()[0]).toMatchObject({
      components: [{ components: { id: component.rows[0]!.id, name: 'api', icon: 'server' } }],
      configs: [{ configs: { id: config.rows[0]!.id, name: 'api', type: 'Kubernetes::Deployment' } }],
    });
    // Removing the check from its canary soft-deletes its links, as the original does.
    const removed = await call(
      'POST',
      '/api/canary/apply',
      'editor',
      canary('related', { interval: 60, tcp: [{ name: 'instead', endpoint: '127.0.0.1:9' }] }),
    );
    expect(removed.statusCode).toBe(200);
    const links = await pool.query<{ deleted: boolean }>(
      `SELECT deleted_at IS NOT NULL AS deleted FROM check_component_relationships WHERE check_id = $1
       UNION ALL SELECT deleted_at IS NOT NULL FROM check_config_relationships WHERE check_id = $1`,
      [checkId],
    );
    expect(links.rows).toEqual([{ deleted: true }, { deleted: true }]);
  });

  it('keeps components, config items and the links read-only, for every role', async () => {
    for (const relation of [
      'components',
      'config_items',
      'configs',
      'check_component_relationships',
      'check_config_relationships',
    ]) {
      expect((await call('GET', `/api/db/${relation}?limit=1`, 'viewer')).statusCode, relation).toBe(200);
      const write = await call('POST', `/api/db/${relation}`, 'admin', { name: 'x' });
      expect(write.statusCode, relation).toBe(405);
      expect(write.json().message, relation).toContain(`${relation} is read-only here`);
      expect((await call('POST', `/api/db/${relation}`, 'viewer', { name: 'x' })).statusCode, relation).toBe(403);
    }
  });

  it('lists canaries_with_status with the columns of the original view', async () => {
    const applied = await call(
      'POST',
      '/api/canary/apply',
      'editor',
      canary('scheduled', { schedule: '@every 5m', tcp: [{ name: 't', endpoint: '127.0.0.1:9' }] }),
    );
    const canaryId = applied.json().canary.id as string;
    await testApp.database.pool.query(
      `INSERT INTO job_history (name, resource_type, resource_id, status, time_start, created_at)
       VALUES ('SyncCanary', 'canary', $1, 'FAILED', now() - interval '1 hour', now() - interval '1 hour')`,
      [canaryId],
    );
    const list = await call(
      'GET',
      `/api/db/canaries_with_status?id=in.(${canaryId})&select=*,created_by(id,name)&deleted_at=is.null`,
      'viewer',
    );
    expect(list.statusCode).toBe(200);
    const [row] = list.json();
    expect(row).toMatchObject({
      schedule: '@every 5m',
      interval: null,
      job_name: 'SyncCanary',
      job_status: 'SUCCESS',
      job_success_count: 1,
      job_error_count: 0,
      job_resource_type: 'canary',
      job_last_failed: expect.any(String),
      agent: { id: NIL_AGENT_ID, name: 'local' },
    });
    for (const column of ['job_details', 'job_hostname', 'job_duration_millis', 'job_time_start', 'job_time_end']) {
      expect(row, column).toHaveProperty(column);
    }
    expect(Date.parse(row.job_last_failed)).toBeLessThan(Date.parse(row.job_time_start));
    const web = await call('GET', `/api/db/canaries_with_status?name=eq.graphed&select=interval,schedule`, 'viewer');
    expect(web.json()).toEqual([{ interval: '60', schedule: null }]);
  });
});

describe('GET /api/canary/api/summary: one consistent answer (issue 20 item 4)', () => {
  it("counts a new check's run at once, in step with its status, while the refreshed last hour is fresh", async () => {
    // What the workers do every 30 s: the last hour refreshed, here before the check exists.
    const at = new Date();
    await createHealthRepository(testApp.database.pool).refreshLastHourSummary(at, new Date(at.getTime() - 90_000));
    const applied = await call(
      'POST',
      '/api/canary/apply',
      'editor',
      canary('consistent', { interval: 60, http: [{ name: 'consistent', url: targetUrl }] }),
    );
    const checkId = applied.json().checks[0].id as string;
    const summaryOf = async () => {
      const response = await call('GET', '/api/canary/api/summary', 'viewer');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      // The default view comes from the refreshed hour (plus the rows after it) up to now.
      expect(body.from).toBe(new Date(at.getTime() - 3_600_000).toISOString());
      return body.checks_summary.find((item: { id: string }) => item.id === checkId);
    };
    expect(await summaryOf()).toMatchObject({ status: null, uptime: { passed: 0, failed: 0 } });

    answer = 200;
    await call('POST', `/api/canary/run/check/${checkId}`, 'editor');
    const passed = await summaryOf();
    expect(passed).toMatchObject({ status: 'healthy', uptime: { passed: 1, failed: 0, last_fail: null } });
    expect(passed.uptime.last_pass).toBe(passed.last_runtime);
    expect(passed.latency.p95).toEqual(expect.any(Number));

    answer = 500;
    await call('POST', `/api/canary/run/check/${checkId}`, 'editor');
    answer = 200;
    const failed = await summaryOf();
    expect(failed).toMatchObject({ status: 'unhealthy', uptime: { passed: 1, failed: 1 } });
    expect(failed.uptime.last_fail).toBe(failed.last_runtime);
  });
});
