import type { Feature, FeatureFlagValues, Role } from '@lookout/contracts';
import { isFeatureDisabled } from '@lookout/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../http/error-envelope.js';
import { registerRouteAccess } from './route-access.js';

/** The access hooks on a bare Fastify, with roles from a header and flags from a map. */
function appWith(flags: FeatureFlagValues = {}): FastifyInstance {
  const app = Fastify();
  registerErrorHandler(app);
  const control = registerRouteAccess(app);
  control.bind({
    resolveRoles: async (request) => {
      const header = request.headers['x-roles'];
      return typeof header === 'string' ? (header === '' ? [] : (header.split(',') as Role[])) : null;
    },
    isFeatureDisabled: async (feature: Feature) => isFeatureDisabled(flags, feature),
  });
  return app;
}

describe('route access hooks', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('answers 401 without a session and 403 naming the roles, resource and action', async () => {
    app = appWith();
    app.post('/api/things', { config: { rbac: { resource: 'connections', action: 'write' } } }, async () => ({
      ok: true,
    }));
    expect((await app.inject({ method: 'POST', url: '/api/things' })).json()).toEqual({
      error: { code: 'unauthorized', message: 'Sign in to use Lookout.' },
      message: 'Sign in to use Lookout.',
    });
    const refused = await app.inject({
      method: 'POST',
      url: '/api/things',
      headers: { 'x-roles': 'editor,responder' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your roles (editor, responder) do not allow write on connections.');
    const none = await app.inject({ method: 'POST', url: '/api/things', headers: { 'x-roles': '' } });
    expect(none.json().message).toBe('Your roles (viewer) do not allow write on connections.');
    expect((await app.inject({ method: 'POST', url: '/api/things', headers: { 'x-roles': 'admin' } })).statusCode).toBe(
      200,
    );
  });

  it('checks before the body is validated, so a refused caller learns nothing about the input', async () => {
    app = appWith();
    app.post(
      '/api/strict',
      {
        config: { rbac: { resource: 'rbac', action: 'write' } },
        schema: { body: { type: 'object', required: ['x'] } },
      },
      async () => ({}),
    );
    expect((await app.inject({ method: 'POST', url: '/api/strict', payload: {} })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'POST', url: '/api/strict', payload: {}, headers: { 'x-roles': 'viewer' } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await app.inject({ method: 'POST', url: '/api/strict', payload: {}, headers: { 'x-roles': 'admin' } }))
        .statusCode,
    ).toBe(400);
  });

  it('reads the declaration from app.requirePermission and records every route', async () => {
    app = appWith();
    app.get('/api/open', { config: { rbac: 'public' } }, async () => 'open');
    app.delete('/api/people/:id', { preHandler: app.requirePermission('identities', 'write') }, async () => 'gone');
    expect(app.routeAccess.routes()).toEqual([
      { method: 'GET', url: '/api/open', access: 'public' },
      { method: 'HEAD', url: '/api/open', access: 'public' },
      { method: 'DELETE', url: '/api/people/:id', access: { resource: 'identities', action: 'write' } },
    ]);
    expect((await app.inject({ method: 'GET', url: '/api/open' })).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'DELETE', url: '/api/people/1', headers: { 'x-roles': 'editor' } })).statusCode,
    ).toBe(403);
    expect(
      (await app.inject({ method: 'DELETE', url: '/api/people/1', headers: { 'x-roles': 'admin' } })).statusCode,
    ).toBe(200);
  });

  it("hides a disabled feature's routes with 404, children following their parent", async () => {
    app = appWith({ 'health.disable': 'true' });
    app.get('/api/jobs', { config: { rbac: 'public', feature: 'settings.job_history' } }, async () => []);
    app.get('/api/incidents', { config: { rbac: 'public', feature: 'incidents' } }, async () => []);
    const hidden = await app.inject({ method: 'GET', url: '/api/jobs' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe(
      "The settings.job_history feature is disabled (property 'settings.job_history.disable').",
    );
    expect((await app.inject({ method: 'GET', url: '/api/incidents' })).statusCode).toBe(200);
  });

  it('refuses routes without a declaration, or with a wrong one, at registration', () => {
    app = appWith();
    expect(() => app!.get('/api/forgotten', async () => 1)).toThrow(
      /Route GET \/api\/forgotten does not declare who may call it/,
    );
    expect(() =>
      app!.get('/api/misspelt', { config: { rbac: 'public', feature: 'incident' as Feature } }, async () => 1),
    ).toThrow(/'incident' is not a feature/);
    expect(() => app!.get('/api/docs/extra', async () => 1)).not.toThrow();
    expect(() => app!.get('/api/.ory/sessions/extra', async () => 1)).not.toThrow();
    expect(() => app!.get('/api/.ory/admin/extra', async () => 1)).toThrow(/does not declare/);
  });
});
