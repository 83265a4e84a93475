import type { FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { EXTERNAL_KRATOS_ERRORS } from '@lookout/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createSessionResolver, requireSession, type Session } from './session-resolver.js';

const request = (headers: Record<string, string>) =>
  ({ headers, log: pino({ level: 'silent' }) }) as unknown as FastifyRequest;

const unusedIdentity = {
  currentSession: async () => {
    throw new Error('the built-in identity service must not be asked');
  },
  assertAal: async () => undefined,
};

describe('session resolver with an external Kratos (KRATOS_PUBLIC_URL)', () => {
  const whoami = {
    id: 'session-1',
    active: true,
    expires_at: '2030-01-01T00:00:00Z',
    authenticator_assurance_level: 'aal2',
    identity: {
      id: '0190a0a0-0000-7000-8000-000000000001',
      traits: { email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } },
    },
  };

  it('accepts the sessions that Kratos answers whoami for, forwarding the cookie or the token', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify(whoami), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    const resolve = createSessionResolver({
      identity: unusedIdentity,
      kratosPublicUrl: 'https://kratos.example.com',
      fetch,
    });
    const session = await resolve(request({ cookie: 'other=1; ory_kratos_session=abc' }));
    expect(session).toEqual<Session>({
      id: 'session-1',
      identityId: whoami.identity.id,
      aal: 'aal2',
      expiresAt: new Date('2030-01-01T00:00:00Z'),
      traits: whoami.identity.traits,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    expect(fetch).toHaveBeenCalledWith(
      'https://kratos.example.com/sessions/whoami',
      expect.objectContaining({ headers: expect.objectContaining({ cookie: 'ory_kratos_session=abc' }) }),
    );

    await resolve(request({ authorization: 'Bearer ory_st_x' }));
    expect(fetch).toHaveBeenLastCalledWith(
      'https://kratos.example.com/sessions/whoami',
      expect.objectContaining({ headers: expect.objectContaining({ 'x-session-token': 'ory_st_x' }) }),
    );
  });

  it('answers null for no credentials or a refused session', async () => {
    const refused = vi.fn(async () => new Response('{"error":{"id":"session_inactive"}}', { status: 401 }));
    const resolve = createSessionResolver({
      identity: unusedIdentity,
      kratosPublicUrl: 'https://kratos.example.com',
      fetch: refused,
    });
    expect(await resolve(request({}))).toBeNull();
    expect(refused).not.toHaveBeenCalled();
    expect(await resolve(request({ 'x-session-token': 't' }))).toBeNull();
  });

  it('answers 503 naming KRATOS_PUBLIC_URL when Kratos cannot say (unreachable or failing), not "signed out"', async () => {
    const unavailable = expect.objectContaining({
      statusCode: 503,
      code: EXTERNAL_KRATOS_ERRORS.publicUnreachable.code,
      message: expect.stringContaining('KRATOS_PUBLIC_URL'),
    });
    const down = createSessionResolver({
      identity: unusedIdentity,
      kratosPublicUrl: 'https://kratos.example.com',
      fetch: async () => {
        throw new Error('ECONNREFUSED');
      },
    });
    await expect(down(request({ 'x-session-token': 't' }))).rejects.toEqual(unavailable);
    const failing = createSessionResolver({
      identity: unusedIdentity,
      kratosPublicUrl: 'https://kratos.example.com',
      fetch: async () => new Response('upstream trouble', { status: 500 }),
    });
    await expect(failing(request({ 'x-session-token': 't' }))).rejects.toEqual(unavailable);
  });

  it('keeps the person of every identity it accepts a session of, with whether Kratos verified the email', async () => {
    const sync = vi.fn(async () => undefined);
    const resolve = createSessionResolver({
      identity: unusedIdentity,
      kratosPublicUrl: 'https://kratos.example.com',
      people: { sync },
      fetch: async () =>
        new Response(
          JSON.stringify({
            ...whoami,
            identity: {
              ...whoami.identity,
              verifiable_addresses: [{ value: 'Ada@Example.com', verified: true, via: 'email' }],
            },
          }),
          { status: 200 },
        ),
    });
    await resolve(request({ 'x-session-token': 't' }));
    expect(sync).toHaveBeenCalledWith({ id: whoami.identity.id, traits: whoami.identity.traits, emailVerified: true });
  });
});

describe('requireSession', () => {
  it('gives no roles without a session and asks the inner resolver otherwise', async () => {
    const inner = vi.fn(async () => ['admin'] as const);
    const none = requireSession(async () => null, inner);
    expect(await none(request({}))).toBeNull();
    expect(inner).not.toHaveBeenCalled();
    const some = requireSession(async () => ({ id: 's' }) as Session, inner);
    expect(await some(request({}))).toEqual(['admin']);
  });
});
