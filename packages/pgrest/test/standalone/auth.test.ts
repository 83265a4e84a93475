import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { PgrestHeaders } from '../../src/engine-types.js';
import { type AuthOutcome, type AuthSettings, authenticate } from '../../src/standalone/auth.js';
import { parseJsPath } from '../../src/standalone/config.js';

// PostgREST's JWT rules (docs "Authentication", "Errors > PGRST3xx"; src/PostgREST/Auth/Jwt.hs
// and Error.hs of PostgREST 14): 401 with PGRST301 for undecodable tokens, PGRST302 when
// anonymous access is disabled, PGRST303 for invalid claims, each with its WWW-Authenticate.

const SECRET_TEXT = 'reallyreallyreallyreallyverysafe-pgrest';
const SECRET = new TextEncoder().encode(SECRET_TEXT);
const NOW = 1_700_000_000;

const settings: AuthSettings = {
  secret: SECRET,
  roleClaimKey: parseJsPath('.role'),
  anonRole: 'web_anon',
  audience: undefined,
};

function sign(claims: Record<string, unknown>, key: Uint8Array = SECRET, alg = 'HS256'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

function rejected(outcome: AuthOutcome): {
  status: number;
  headers: PgrestHeaders;
  body: Record<string, unknown>;
} {
  if (outcome.ok) throw new Error(`expected a rejection, got caller ${JSON.stringify(outcome.caller)}`);
  return {
    status: outcome.response.status,
    headers: outcome.response.headers,
    body: JSON.parse(outcome.response.body) as Record<string, unknown>,
  };
}

describe('anonymous requests', () => {
  it('carry no role (the engine applies db-anon-role) but expose it in the claims', async () => {
    const outcome = await authenticate(undefined, settings, NOW);
    expect(outcome).toEqual({ ok: true, caller: { claims: { role: 'web_anon' } } });
  });

  it('treat non-bearer schemes as anonymous', async () => {
    const outcome = await authenticate('Basic dXNlcjpwYXNz', settings, NOW);
    expect(outcome).toEqual({ ok: true, caller: { claims: { role: 'web_anon' } } });
  });

  it('are 401 / PGRST302 with WWW-Authenticate: Bearer when there is no anonymous role', async () => {
    const r = rejected(await authenticate(undefined, { ...settings, anonRole: undefined }, NOW));
    expect(r.status).toBe(401);
    expect(r.headers['WWW-Authenticate']).toBe('Bearer');
    expect(r.headers['Content-Type']).toBe('application/json; charset=utf-8');
    expect(r.body).toEqual({ code: 'PGRST302', message: 'Anonymous access is disabled', details: null, hint: null });
  });
});

describe('valid tokens', () => {
  it('take the role from the role claim and expose every claim', async () => {
    const token = await sign({ role: 'web_user', email: 'a@b.c' });
    const outcome = await authenticate(`Bearer ${token}`, settings, NOW);
    expect(outcome).toEqual({ ok: true, caller: { role: 'web_user', claims: { role: 'web_user', email: 'a@b.c' } } });
  });

  it("accept the scheme in any case ('bearer')", async () => {
    const token = await sign({ role: 'web_user' });
    const outcome = await authenticate(`bearer ${token}`, settings, NOW);
    expect(outcome.ok && outcome.caller.role).toBe('web_user');
  });

  it('accept HS384 and HS512 too', async () => {
    for (const alg of ['HS384', 'HS512']) {
      const outcome = await authenticate(`Bearer ${await sign({ role: 'web_user' }, SECRET, alg)}`, settings, NOW);
      expect(outcome.ok).toBe(true);
    }
  });

  it('read the role at a nested jwt-role-claim-key', async () => {
    const token = await sign({ app: { roles: ['editor', 'viewer'] } });
    const outcome = await authenticate(
      `Bearer ${token}`,
      { ...settings, roleClaimKey: parseJsPath('.app.roles[1]') },
      NOW,
    );
    expect(outcome.ok && outcome.caller.role).toBe('viewer');
    expect(outcome.ok && outcome.caller.claims?.role).toBe('viewer');
  });

  it('fall back to the anonymous role when the token has no role claim', async () => {
    const outcome = await authenticate(`Bearer ${await sign({ sub: 'x' })}`, settings, NOW);
    expect(outcome).toEqual({ ok: true, caller: { claims: { sub: 'x', role: 'web_anon' } } });
  });

  it('are 401 / PGRST302 without a role claim and without an anonymous role', async () => {
    const r = rejected(
      await authenticate(`Bearer ${await sign({ sub: 'x' })}`, { ...settings, anonRole: undefined }, NOW),
    );
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('PGRST302');
  });

  it('accept an exp within the 30 s skew', async () => {
    const outcome = await authenticate(`Bearer ${await sign({ role: 'web_user', exp: NOW - 10 })}`, settings, NOW);
    expect(outcome.ok).toBe(true);
  });
});

describe('undecodable tokens: 401 / PGRST301', () => {
  it('an empty bearer token', async () => {
    const r = rejected(await authenticate('Bearer ', settings, NOW));
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      code: 'PGRST301',
      message: 'Empty JWT is sent in Authorization header',
      details: null,
      hint: null,
    });
    expect(r.headers['WWW-Authenticate']).toBe(
      'Bearer error="invalid_token", error_description="Empty JWT is sent in Authorization header"',
    );
  });

  it('a token without three parts', async () => {
    const r = rejected(await authenticate('Bearer abc.def', settings, NOW));
    expect(r.body).toMatchObject({ code: 'PGRST301', message: 'Expected 3 parts in JWT; got 2' });
  });

  it('a token signed with another secret', async () => {
    const token = await sign({ role: 'web_user' }, new TextEncoder().encode('another-secret-that-is-long-enough-0123'));
    const r = rejected(await authenticate(`Bearer ${token}`, settings, NOW));
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: 'PGRST301', message: 'No suitable key or wrong key type' });
    expect(r.headers['WWW-Authenticate']).toMatch(/^Bearer error="invalid_token", error_description="/);
  });

  it('a token with an algorithm a shared secret cannot verify', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ role: 'web_user' })).toString('base64url');
    const r = rejected(await authenticate(`Bearer ${header}.${payload}.`, settings, NOW));
    expect(r.body).toMatchObject({ code: 'PGRST301', message: 'Wrong or unsupported encoding algorithm' });
  });

  it('is 500 / PGRST300 when the server has no secret', async () => {
    const r = rejected(
      await authenticate(`Bearer ${await sign({ role: 'x' })}`, { ...settings, secret: undefined }, NOW),
    );
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ code: 'PGRST300', message: 'Server lacks JWT secret' });
  });
});

describe('invalid claims: 401 / PGRST303', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['expired', { role: 'web_user', exp: NOW - 31 }, 'JWT expired'],
    ['not yet valid', { role: 'web_user', nbf: NOW + 31 }, 'JWT not yet valid'],
    ['issued in the future', { role: 'web_user', iat: NOW + 31 }, 'JWT issued at future'],
    ['exp not a number', { role: 'web_user', exp: 'tomorrow' }, "The JWT 'exp' claim must be a number"],
    ['aud not a string', { role: 'web_user', aud: 5 }, "The JWT 'aud' claim must be a string or an array of strings"],
  ];
  for (const [name, claims, message] of cases) {
    it(name, async () => {
      const r = rejected(await authenticate(`Bearer ${await sign(claims)}`, settings, NOW));
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 'PGRST303', message, details: null, hint: null });
      expect(r.headers['WWW-Authenticate']).toBe(
        `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
      );
      expect(r.headers['Proxy-Status']).toBe('PostgREST; error=PGRST303');
    });
  }

  it('an audience other than jwt-aud', async () => {
    const token = await sign({ role: 'web_user', aud: 'other' });
    const r = rejected(await authenticate(`Bearer ${token}`, { ...settings, audience: 'pgrest' }, NOW));
    expect(r.body).toMatchObject({ code: 'PGRST303', message: 'JWT not in audience' });
    const ok = await authenticate(
      `Bearer ${await sign({ role: 'web_user', aud: ['x', 'pgrest'] })}`,
      { ...settings, audience: 'pgrest' },
      NOW,
    );
    expect(ok.ok).toBe(true);
  });
});
