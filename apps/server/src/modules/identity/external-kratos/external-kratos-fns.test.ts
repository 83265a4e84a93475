import { describe, expect, it } from 'vitest';
import {
  externalIdentityOf,
  externalKratosPublicConfig,
  mirrorKey,
  mirroredIdentityOf,
  nextPageToken,
  forwardedHeaders,
  kratosErrorBody,
  leavesPublicApi,
  rewriteLocation,
} from './external-kratos-fns.js';

describe('externalIdentityOf', () => {
  const identity = {
    id: '0190a0a0-0000-7000-8000-000000000001',
    traits: { email: 'Ada@Example.com', name: { first: 'Ada' } },
    verifiable_addresses: [{ value: 'ada@example.com', verified: true, via: 'email' }],
  };

  it('reads the id, the traits and whether Kratos verified the email', () => {
    expect(externalIdentityOf(identity)).toEqual({
      id: identity.id,
      traits: identity.traits,
      emailVerified: true,
    });
  });

  it('counts the email unverified when only another address, or none, is verified', () => {
    expect(externalIdentityOf({ ...identity, verifiable_addresses: [] })?.emailVerified).toBe(false);
    expect(
      externalIdentityOf({
        ...identity,
        verifiable_addresses: [{ value: 'other@example.com', verified: true }],
      })?.emailVerified,
    ).toBe(false);
  });

  it('gives up on an identity without an id or an email trait, which makes no person', () => {
    expect(externalIdentityOf({ traits: identity.traits })).toBeUndefined();
    expect(externalIdentityOf({ id: identity.id, traits: { username: 'ada' } })).toBeUndefined();
    expect(externalIdentityOf({ id: identity.id, traits: { email: '  ' } })).toBeUndefined();
    expect(externalIdentityOf(null)).toBeUndefined();
  });
});

describe('leavesPublicApi', () => {
  it.each([
    '/api/.ory/self-service/login/browser?return_to=/admin',
    '/api/.ory/sessions/whoami',
    '/api/.ory/schemas/ZGVmYXVsdA',
    '/api/.ory/self-service/settings?flow=x',
    '/api/.ory/.well-known/ory/webauthn.js',
  ])('lets the public API path %s through', (url) => {
    expect(leavesPublicApi(url)).toBe(false);
  });

  it.each([
    '/api/.ory/admin/identities',
    '/api/.ory/ADMIN/identities',
    '/api/.ory/%61dmin/identities',
    '/api/.ory//admin/identities',
    '/api/.ory/self-service/../admin/identities',
    '/api/.ory/self-service/%2e%2e/admin/identities',
    '/api/.ory/x%2F..%2Fadmin/identities',
    '/api/.ory/x%252F..%252Fadmin',
    '/api/.ory/x\\..\\admin',
    '/api/.ory/../db/people',
    '/api/.ory/%E0%A4%A',
  ])('refuses %s, which reaches the admin API or leaves /api/.ory once normalised', (url) => {
    expect(leavesPublicApi(url)).toBe(true);
  });
});

describe('rewriteLocation', () => {
  const kratos = 'http://kratos:4433';

  it("points Kratos's own public URL back at /api/.ory on this origin", () => {
    expect(rewriteLocation('http://kratos:4433/self-service/login/browser?refresh=true', kratos)).toBe(
      '/api/.ory/self-service/login/browser?refresh=true',
    );
    expect(rewriteLocation('http://kratos:4433', kratos)).toBe('/api/.ory');
  });

  it('leaves the UI URLs, return_to targets and look-alike hosts alone', () => {
    for (const location of [
      'https://lookout.example/login?flow=1',
      '/login?flow=1',
      'http://kratos:44330/self-service',
      'http://kratos:4433.evil.example/x',
    ]) {
      expect(rewriteLocation(location, kratos)).toBe(location);
    }
  });
});

describe('forwardedHeaders', () => {
  it("lists the trusted chain in X-Forwarded-For and says the browser's protocol and host", () => {
    expect(
      forwardedHeaders({ chain: ['203.0.113.7', '10.0.0.2'], protocol: 'https', host: 'lookout.example' }),
    ).toEqual({
      'x-forwarded-for': '203.0.113.7, 10.0.0.2',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'lookout.example',
    });
    expect(forwardedHeaders({ chain: ['127.0.0.1'], protocol: 'http', host: 'localhost:8080' })).toMatchObject({
      'x-forwarded-for': '127.0.0.1',
    });
    expect(forwardedHeaders({ chain: [''], protocol: 'http', host: 'localhost:8080' })).not.toHaveProperty(
      'x-forwarded-for',
    );
  });
});

describe('kratosErrorBody', () => {
  it("keeps Kratos's own error body, and wraps anything else in one", () => {
    const own = { error: { code: 404, status: 'Not Found', message: 'The requested resource could not be found' } };
    expect(kratosErrorBody(404, own, JSON.stringify(own))).toBe(own);
    expect(kratosErrorBody(400, undefined, 'bad input')).toEqual({
      error: expect.objectContaining({ code: 400, reason: 'bad input' }),
    });
  });
});

describe('externalKratosPublicConfig', () => {
  it('says registration is open as configured and lists no providers (they come in the flows)', () => {
    expect(externalKratosPublicConfig({ registrationOpen: true, kratosAdminUrl: 'http://kratos:4434' })).toEqual({
      registration_open: true,
      oidc_providers: [],
      user_admin: true,
    });
  });

  it('offers user administration only with an admin API to do it through', () => {
    expect(externalKratosPublicConfig({ registrationOpen: false }).user_admin).toBe(false);
  });
});

describe('mirroredIdentityOf', () => {
  const kratosIdentity = {
    id: '0192A5D4-1111-7000-8000-000000000001',
    schema_id: 'customer',
    schema_url: 'http://kratos/schemas/customer',
    state: 'inactive',
    state_changed_at: '2024-10-03T10:00:00.123456Z',
    traits: { email: 'grace@example.com', name: { first: 'Grace' } },
    credentials: { password: { type: 'password', config: { hashed_password: '$argon2id$secret' } } },
    metadata_admin: { note: 'admin only' },
    created_at: '2024-10-01T10:00:00Z',
    updated_at: '2024-10-02T10:00:00Z',
  };

  it('copies id, schema, traits, state and times, and nothing of credentials or metadata', () => {
    const copy = mirroredIdentityOf(kratosIdentity);
    expect(copy).toEqual({
      id: '0192a5d4-1111-7000-8000-000000000001',
      schema_id: 'customer',
      traits: { email: 'grace@example.com', name: { first: 'Grace' } },
      state: 'inactive',
      state_changed_at: new Date('2024-10-03T10:00:00.123Z'),
      created_at: new Date('2024-10-01T10:00:00Z'),
      updated_at: new Date('2024-10-02T10:00:00Z'),
    });
    expect(JSON.stringify(copy)).not.toContain('argon2id');
    expect(JSON.stringify(copy)).not.toContain('admin only');
  });

  it('takes the creation time as state change time when Kratos leaves it out', () => {
    const { state_changed_at: _, ...withoutChange } = kratosIdentity;
    expect(mirroredIdentityOf(withoutChange)?.state_changed_at).toEqual(new Date('2024-10-01T10:00:00Z'));
  });

  it('refuses what the identities table cannot hold', () => {
    expect(mirroredIdentityOf({ ...kratosIdentity, id: 'not-a-uuid' })).toBeUndefined();
    expect(mirroredIdentityOf({ ...kratosIdentity, state: 'deleted' })).toBeUndefined();
    expect(mirroredIdentityOf({ ...kratosIdentity, traits: 'x' })).toBeUndefined();
    expect(mirroredIdentityOf(null)).toBeUndefined();
  });

  it('gives the same key whatever the order of the traits, and another when anything changes', () => {
    const copy = mirroredIdentityOf(kratosIdentity)!;
    const reordered = { ...copy, traits: { name: { first: 'Grace' }, email: 'grace@example.com' } };
    expect(mirrorKey(reordered)).toBe(mirrorKey(copy));
    expect(mirrorKey({ ...copy, state: 'active' })).not.toBe(mirrorKey(copy));
    expect(mirrorKey({ ...copy, updated_at: new Date('2024-10-04T00:00:00Z') })).not.toBe(mirrorKey(copy));
  });
});

describe('nextPageToken', () => {
  it("reads the next page's token from Kratos's Link header, absolute or relative", () => {
    expect(
      nextPageToken(
        '<http://kratos:4434/admin/identities?page_size=2>; rel="first",<http://kratos:4434/admin/identities?page_size=2&page_token=eyJrIjoxfQ>; rel="next"',
      ),
    ).toBe('eyJrIjoxfQ');
    expect(nextPageToken('</admin/identities?page_size=2&page_token=abc>; rel="next"')).toBe('abc');
  });

  it('ends on the last page: no header, or no next link', () => {
    expect(nextPageToken(undefined)).toBeUndefined();
    expect(nextPageToken('<http://kratos:4434/admin/identities?page_size=2>; rel="first"')).toBeUndefined();
  });
});
