import { authConfigResponseSchema } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/** `GET /api/auth/config`: what the sign-in pages read before anyone is signed in. */
describe('identity: GET /api/auth/config', () => {
  let closed: TestApp;
  let open: TestApp;
  beforeAll(async () => {
    closed = await buildTestApp();
    open = await buildTestApp({
      identity: {
        registrationOpen: true,
        oidcProviders: [
          {
            id: 'acme',
            label: 'Acme SSO',
            issuer: 'https://sso.acme.example',
            client_id: 'lookout',
            client_secret: 'acme-client-secret',
          },
          { id: 'corp', issuer: 'https://login.corp.example', client_id: 'lookout-corp' },
        ],
      },
    });
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
  });

  it('says registration is closed and no provider is configured, without a session', async () => {
    const response = await closed.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ registration_open: false, oidc_providers: [], user_admin: true });
  });

  it('lists open registration and the providers by id and label only (the id when no label is set)', async () => {
    const response = await open.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(response.statusCode).toBe(200);
    const body = authConfigResponseSchema.parse(response.json());
    expect(body).toEqual({
      registration_open: true,
      oidc_providers: [
        { id: 'acme', label: 'Acme SSO' },
        { id: 'corp', label: 'corp' },
      ],
      user_admin: true,
    });
    for (const secretish of ['acme-client-secret', 'sso.acme.example', 'lookout-corp']) {
      expect(response.body).not.toContain(secretish);
    }
  });

  it('agrees with the registration flow it describes', async () => {
    const refused = await closed.app.inject({
      method: 'GET',
      url: '/api/.ory/self-service/registration/api',
      headers: { accept: 'application/json' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.id).toBe('self_service_flow_disabled');
    const created = await open.app.inject({
      method: 'GET',
      url: '/api/.ory/self-service/registration/api',
      headers: { accept: 'application/json' },
    });
    expect(created.statusCode).toBe(200);
  });
});
