import { ROLES, type Role } from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * Canary writes attacked and mistaken, through every HTTP path: schedules the scheduler cannot
 * honour and expressions that do not compile are refused naming the field (issue 10 item 9),
 * and YAML or JSON bodies built to stall or crash the parsers are refused by their bounds while
 * the server keeps answering (item 3). Each refusal leaves the canaries table as it was.
 */

/** Tests act as a role through this header; no header means nobody is signed in. */
const rolesFromHeader = async (request: FastifyRequest): Promise<readonly Role[] | null> => {
  const header = request.headers['x-test-roles'];
  if (typeof header !== 'string') return null;
  return header.split(',').filter((role) => (ROLES as readonly string[]).includes(role)) as Role[];
};

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp({ resolveRoles: rolesFromHeader });
});
afterAll(() => testApp?.close());

const YAML = { 'content-type': 'application/yaml' };
const call = (method: 'POST' | 'PATCH', url: string, payload: unknown, headers: Record<string, string> = {}) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      'x-test-roles': 'editor',
      ...(typeof payload === 'string' ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
const health = () => testApp.app.inject({ method: 'GET', url: '/api/health' });

const canary = (name: string, spec: object) => ({
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Canary',
  metadata: { name },
  spec,
});
const home = { name: 'home', url: 'https://example.com' };
const canaryNames = async () =>
  (await testApp.database.pool.query<{ name: string }>('SELECT name FROM canaries ORDER BY name')).rows.map(
    (row) => row.name,
  );

/** Runs both requests at once and says which finished first. */
async function race(slow: Promise<unknown>, quick: Promise<unknown>): Promise<string[]> {
  const order: string[] = [];
  await Promise.all([slow.then(() => order.push('slow')), quick.then(() => order.push('quick'))]);
  return order;
}

describe('canary writes are validated as the runner validates', () => {
  const tooOften = "spec.schedule: '@every 1ms' is more often than checks can run; the shortest interval is @every 1s";
  const badTest = 'spec.http[0].test.expr: does not compile: Unexpected token: EOF';

  it('refuses an unrunnable schedule or expression through POST /api/canary/apply, JSON or YAML', async () => {
    const before = await canaryNames();
    const json = await call('POST', '/api/canary/apply', canary('too-often', { schedule: '@every 1ms', http: [home] }));
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({
      error: {
        code: 'invalid_canary',
        message: `Invalid canary: ${tooOften}`,
        details: [{ field: 'spec.schedule', message: expect.stringContaining("'@every 1ms'") }],
      },
    });
    const yaml = await call(
      'POST',
      '/api/canary/apply',
      [
        'apiVersion: canaries.flanksource.com/v1',
        'kind: Canary',
        'metadata: {name: bad-test}',
        'spec:',
        '  http:',
        '    - name: home',
        '      url: https://example.com',
        '      test: {expr: "code =="}',
        '      transform: {expr: "lookup(json)"}',
      ].join('\n'),
      YAML,
    );
    expect(yaml.statusCode).toBe(400);
    expect(yaml.json().error.message).toBe(
      `Invalid canary: ${badTest}; spec.http[0].transform.expr: does not compile: found no matching overload for 'lookup(dyn)'`,
    );
    expect(await canaryNames()).toEqual(before);
  });

  it('refuses them through /api/db/canaries inserts and updates, in PostgREST form', async () => {
    const insert = await call('POST', '/api/db/canaries', {
      name: 'too-often',
      namespace: 'default',
      spec: { schedule: '@every 1ms', http: [home] },
    });
    expect(insert.statusCode).toBe(400);
    expect(insert.json()).toEqual({
      code: '23514',
      message: `Invalid canary: ${tooOften}`,
      details: tooOften,
      hint: null,
    });

    const good = { interval: 60, http: [{ ...home, test: { expr: 'code == 200' } }] };
    const created = await call('POST', '/api/db/canaries', { name: 'form', namespace: 'default', spec: good });
    expect(created.statusCode).toBe(201);
    const update = await call('PATCH', '/api/db/canaries?name=eq.form', {
      spec: { http: [{ ...home, test: { expr: 'code ==' } }] },
    });
    expect(update.statusCode).toBe(400);
    expect(update.json()).toMatchObject({ code: '23514', message: `Invalid canary: ${badTest}` });
    const { rows } = await testApp.database.pool.query("SELECT spec FROM canaries WHERE name = 'form'");
    expect(rows).toEqual([{ spec: good }]);
    expect(await canaryNames()).not.toContain('too-often');
  });

  it('still takes schedules and expressions that run', async () => {
    const response = await call(
      'POST',
      '/api/canary/apply',
      canary('runs', {
        schedule: '*/5 * * * *',
        http: [
          {
            ...home,
            test: { expr: "code in [200, 201] && json.status == 'ok'" },
            display: { expr: "code == 200 ? 'up' : 'down: ' + string(code)" },
          },
        ],
      }),
    );
    expect(response.statusCode).toBe(200);
  });
});

describe('parsers under attack', () => {
  it('refuses a YAML alias bomb to POST /api/canary/apply with a 400 that says so', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [name, previous] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
      ['g', 'f'],
      ['h', 'g'],
    ]) {
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const response = await call('POST', '/api/canary/apply', levels.join('\n'), YAML);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'yaml_too_complex',
        message: 'The YAML uses more than 100 aliases (*name); write the repeated values out instead.',
      },
      message: 'The YAML uses more than 100 aliases (*name); write the repeated values out instead.',
    });
  });

  it('refuses a 960 kB deeply nested YAML body by its nesting, and /api/health answers meanwhile', async () => {
    const depthMessage =
      'The YAML nests mappings and lists more than 100 levels deep (a canary needs about ten); flatten it.';
    const nested = `${'['.repeat(480_000)}${']'.repeat(480_000)}`;
    const [refused, healthy] = await Promise.all([call('POST', '/api/canary/apply', nested, YAML), health()]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual({ code: 'yaml_too_complex', message: depthMessage });
    expect(healthy.statusCode).toBe(200);

    // The same attack behind half a megabyte of ordinary YAML, which the scan reads through first:
    // /api/health still finishes before the refusal, because the reading is off the event loop.
    const padding = Array.from({ length: 40_000 }, (_, index) => `  - item${index}`).join('\n');
    const padded = `padding:\n${padding}\nnested: ${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    let paddedRefusal: Awaited<ReturnType<typeof call>> | undefined;
    const order = await race(
      call('POST', '/api/canary/apply', padded, YAML).then((response) => (paddedRefusal = response)),
      health().then((response) => expect(response.statusCode).toBe(200)),
    );
    expect(order).toEqual(['quick', 'slow']);
    expect(paddedRefusal?.json().error).toEqual({ code: 'yaml_too_complex', message: depthMessage });
  });

  it('reads a large YAML document off the event loop: /api/health answers before it is read', async () => {
    const padding = Array.from({ length: 50_000 }, (_, index) => `    - p${index}`).join('\n');
    const large = [
      'apiVersion: canaries.flanksource.com/v1',
      'kind: Canary',
      'metadata: {name: padded}',
      'spec:',
      '  http:',
      '    - name: home',
      '      url: https://example.com',
      '  padding:',
      padding,
    ].join('\n');
    let applied: Awaited<ReturnType<typeof call>> | undefined;
    const order = await race(
      call('POST', '/api/canary/apply', large, YAML).then((response) => (applied = response)),
      health().then((response) => expect(response.statusCode).toBe(200)),
    );
    expect(order).toEqual(['quick', 'slow']);
    // Parsed whole (the schema then judged it), not refused by a bound.
    expect(applied?.statusCode).toBe(400);
    expect(applied?.json().error.message).toContain('spec.padding: unknown field');
  });

  it('refuses YAML larger than 2 MiB with 413, whatever its content type says', async () => {
    const big = `a: "${'x'.repeat(2 * 1024 * 1024)}"`;
    const yaml = await call('POST', '/api/canary/apply', big, YAML);
    expect(yaml.statusCode).toBe(413);
    const text = await call('POST', '/api/canary/apply', big, { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(413);
    expect(text.json().error).toEqual({
      code: 'payload_too_large',
      message: 'The YAML is larger than 2097152 bytes; split it into smaller files or documents.',
    });
  });

  it('refuses a JSON body nested 200,000 deep on a JSON route with a 400 in the error envelope', async () => {
    const deep = `{"apiVersion": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const response = await call('POST', '/api/canary/apply', deep, { 'content-type': 'application/json' });
    expect(response.statusCode).toBe(400);
    const message =
      'The JSON body nests arrays and objects more than 100 levels deep; send one nested at most 100 levels deep.';
    expect(response.json()).toEqual({ error: { code: 'body_too_deep', message }, message });
    expect((await health()).statusCode).toBe(200);
  });
});
