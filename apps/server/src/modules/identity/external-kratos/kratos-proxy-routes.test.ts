import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/build-test-app.js';

/**
 * What the /api/.ory proxy sends to Kratos and hands back, seen from a fake Kratos that echoes
 * each request (the behaviour of a real one is in external-kratos.test.ts).
 */

const IDENTITY_ID = '0190a0a0-0000-7000-8000-0000000000aa';

type Echo = { method: string; url: string; headers: Record<string, string>; body: string };

async function startFakeKratos(): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.get('/sessions/whoami', async (request, reply) => {
    const signedIn =
      request.headers['x-session-token'] === 'good' || /ory_kratos_session=good/.test(request.headers.cookie ?? '');
    if (!signedIn) return reply.status(401).send({ error: { code: 401, status: 'Unauthorized', message: 'no' } });
    return {
      id: 'session-1',
      active: true,
      identity: {
        id: IDENTITY_ID,
        traits: { email: 'fake@example.com', name: { first: 'Fake', last: 'User' } },
        verifiable_addresses: [{ value: 'fake@example.com', verified: true, via: 'email' }],
      },
    };
  });
  app.get('/self-service/login/browser', async (_request, reply) =>
    reply
      .header('set-cookie', 'csrf_token_abc=xyz; Path=/; HttpOnly; SameSite=Lax')
      .redirect(`${base}/ui/login?flow=1`, 303),
  );
  app.get('/teapot', async (_request, reply) => reply.status(418).send({ error: { code: 418, message: 'teapot' } }));
  app.all('/*', async (request): Promise<Echo> => ({
    method: request.method,
    url: request.url,
    headers: request.headers as Record<string, string>,
    body: typeof request.body === 'string' ? request.body : '',
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, base };
}

describe('/api/.ory proxy to an external Kratos', () => {
  let kratos: Awaited<ReturnType<typeof startFakeKratos>>;
  let lookout: TestApp;

  beforeAll(async () => {
    kratos = await startFakeKratos();
    lookout = await buildTestApp({
      identity: { kratosPublicUrl: kratos.base, kratosAdminUrl: `${kratos.base}/admin-port` },
    });
    // The fake identity signs in once, then gets admin (its person exists from then on).
    const first = await lookout.app.inject({
      method: 'GET',
      url: '/api/auth/whoami',
      headers: { 'x-session-token': 'good' },
    });
    expect(first.statusCode).toBe(200);
    await lookout.database.pool.query("INSERT INTO role_assignments (person_id, role) VALUES ($1, 'admin')", [
      IDENTITY_ID,
    ]);
  });
  afterAll(async () => {
    await lookout?.close();
    await kratos?.app.close();
  });

  it('passes method, path, query, body bytes, content type and cookies through, and says who the browser is', async () => {
    const form = 'method=password&identifier=a%40example.com&password=p%26ss+word&csrf_token=t';
    const response = await lookout.app.inject({
      method: 'POST',
      url: '/api/.ory/self-service/login?flow=abc&return_to=%2Fhealth',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: 'csrf_token_abc=xyz; ory_kratos_session=good',
        'x-forwarded-for': '203.0.113.7',
      },
      payload: form,
    });
    expect(response.statusCode).toBe(200);
    const echo = response.json<Echo>();
    expect(echo).toMatchObject({
      method: 'POST',
      url: '/self-service/login?flow=abc&return_to=%2Fhealth',
      body: form,
    });
    expect(echo.headers).toMatchObject({
      'content-type': 'application/x-www-form-urlencoded',
      cookie: 'csrf_token_abc=xyz; ory_kratos_session=good',
      host: new URL(kratos.base).host,
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'localhost:80',
    });
    // The caller's own X-Forwarded-For is not passed on: Lookout trusts no proxy by default.
    expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');

    const json = await lookout.app.inject({
      method: 'PUT',
      url: '/api/.ory/anything',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: '{ "kept":  "as sent" }',
    });
    expect(json.json<Echo>()).toMatchObject({ method: 'PUT', body: '{ "kept":  "as sent" }' });
  });

  it('passes on the chain of a trusted proxy, and says LOOKOUT_PUBLIC_URL is what the browser used', async () => {
    const behindProxy = await buildTestApp({
      identity: { kratosPublicUrl: kratos.base },
      publicUrl: 'https://lookout.example',
      // app.inject connects from 127.0.0.1.
      trustProxy: ['127.0.0.1'],
    });
    try {
      const response = await behindProxy.app.inject({
        method: 'GET',
        url: '/api/.ory/anything',
        headers: { host: 'evil.example', 'x-forwarded-for': '203.0.113.7', 'x-forwarded-host': 'evil.example' },
      });
      expect(response.json<Echo>().headers).toMatchObject({
        'x-forwarded-for': '203.0.113.7, 127.0.0.1',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'lookout.example',
      });
    } finally {
      await behindProxy.close();
    }
  });

  it("hands back Kratos's status, body and cookies, with its own URL in Location pointed at /api/.ory", async () => {
    const redirect = await lookout.app.inject({ method: 'GET', url: '/api/.ory/self-service/login/browser' });
    expect(redirect.statusCode).toBe(303);
    expect(redirect.headers.location).toBe('/api/.ory/ui/login?flow=1');
    expect(redirect.headers['set-cookie']).toBe('csrf_token_abc=xyz; Path=/; HttpOnly; SameSite=Lax');

    const teapot = await lookout.app.inject({ method: 'GET', url: '/api/.ory/teapot' });
    expect(teapot.statusCode).toBe(418);
    expect(teapot.json()).toEqual({ error: { code: 418, message: 'teapot' } });
  });

  it("sends the admin API to KRATOS_ADMIN_URL's /admin without the caller's session", async () => {
    const response = await lookout.app.inject({
      method: 'DELETE',
      url: `/api/.ory/admin/identities/${IDENTITY_ID}/sessions?x=1`,
      headers: { 'x-session-token': 'good', cookie: 'ory_kratos_session=good', authorization: 'Bearer good' },
    });
    expect(response.statusCode).toBe(200);
    const echo = response.json<Echo>();
    expect(echo).toMatchObject({ method: 'DELETE', url: `/admin-port/admin/identities/${IDENTITY_ID}/sessions?x=1` });
    expect(echo.headers).not.toHaveProperty('cookie');
    expect(echo.headers).not.toHaveProperty('authorization');
    expect(echo.headers).not.toHaveProperty('x-session-token');
  });

  it('refuses a body larger than the proxy passes on, in the error envelope', async () => {
    const response = await lookout.app.inject({
      method: 'POST',
      url: '/api/.ory/self-service/login?flow=abc',
      headers: { 'content-type': 'application/json' },
      payload: `"${'x'.repeat(1024 * 1024 + 1)}"`,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('fst_err_ctp_body_too_large');
  });
});
