import type { FastifyRequest } from 'fastify';
import { EXTERNAL_KRATOS_ERRORS, type Role } from '@lookout/contracts';
import { AppError } from '../../http/app-error.js';
import type { PeopleMirror } from './external-kratos/external-people-mirror.js';
import { externalIdentityOf } from './external-kratos/external-kratos-fns.js';
import type { Traits } from './ui-nodes-fns.js';
import { displayName, parseCookies, SESSION_COOKIE, sessionTokenOf } from './identity-fns.js';
import type { IdentityService } from './identity-service.js';
import type { RequestContext } from './identity-types.js';

/** The signed-in caller of an /api route. */
export type Session = {
  id: string;
  identityId: string;
  aal: 'aal1' | 'aal2';
  expiresAt: Date;
  traits: Traits;
  name: string;
  email: string;
};

export type SessionResolver = (request: FastifyRequest) => Promise<Session | null>;

export type SessionResolverDeps = {
  identity: Pick<IdentityService, 'currentSession' | 'assertAal'>;
  /** With KRATOS_PUBLIC_URL, sessions are those of that Ory Kratos, asked through whoami. */
  kratosPublicUrl?: string;
  /** With KRATOS_PUBLIC_URL: keeps a person for each identity whose session is seen. */
  people?: Pick<PeopleMirror, 'sync'>;
  fetch?: typeof fetch;
};

/**
 * Finds the session of any request from the `ory_kratos_session` cookie, `X-Session-Token`
 * or `Authorization: Bearer <session token>`. A session that has not reached the
 * identity's highest AAL (a second factor is set up but was not used) does not count.
 */
export function createSessionResolver({
  identity,
  kratosPublicUrl,
  people,
  fetch: fetchImpl = fetch,
}: SessionResolverDeps): SessionResolver {
  if (kratosPublicUrl) return externalKratosResolver(kratosPublicUrl, fetchImpl, people);
  return async (request) => {
    const token = sessionTokenOf(request.headers);
    if (!token) return null;
    const resolved = await identity.currentSession({ sessionToken: token });
    if (!resolved) return null;
    try {
      await identity.assertAal(resolved, {
        origin: '',
        baseUrl: '',
        requestUrl: '',
        json: true,
      } satisfies RequestContext);
    } catch {
      return null;
    }
    return {
      id: resolved.session.id,
      identityId: resolved.identity.id,
      aal: resolved.session.aal,
      expiresAt: resolved.session.expires_at,
      traits: resolved.identity.traits,
      name: displayName(resolved.identity.traits),
      email: resolved.identity.traits.email,
    };
  };
}

type KratosWhoami = {
  id?: string;
  active?: boolean;
  expires_at?: string;
  authenticator_assurance_level?: string;
  identity?: unknown;
};

/** Kratos could not say whether the session is valid: neither signed in nor out (503). */
const kratosUnavailable = () =>
  new AppError(503, EXTERNAL_KRATOS_ERRORS.publicUnreachable.code, EXTERNAL_KRATOS_ERRORS.publicUnreachable.message);

function externalKratosResolver(
  baseUrl: string,
  fetchImpl: typeof fetch,
  people: Pick<PeopleMirror, 'sync'> | undefined,
): SessionResolver {
  return async (request) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const cookie = parseCookies(request.headers.cookie)[SESSION_COOKIE];
    if (cookie) headers.cookie = `${SESSION_COOKIE}=${cookie}`;
    const token = sessionTokenOf({
      'x-session-token': request.headers['x-session-token'],
      authorization: request.headers.authorization,
    });
    if (token) headers['x-session-token'] = token;
    if (!cookie && !token) return null;
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}/sessions/whoami`, { headers, signal: AbortSignal.timeout(5_000) });
    } catch (error) {
      request.log.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'Could not reach Kratos at KRATOS_PUBLIC_URL',
      );
      // Answering "not signed in" would send every user to a sign-in page that cannot work.
      throw kratosUnavailable();
    }
    if (response.status >= 500) {
      request.log.warn({ status: response.status }, 'Kratos at KRATOS_PUBLIC_URL failed to answer whoami');
      throw kratosUnavailable();
    }
    if (response.status !== 200) return null;
    const body = (await response.json().catch(() => ({}))) as KratosWhoami;
    const seen = externalIdentityOf(body.identity);
    if (!body.active || !body.id || !seen) return null;
    // Roles hang off the person, so the person must exist before any role is looked up.
    await people?.sync(seen);
    const traits = { ...seen.traits, email: seen.traits.email.trim() };
    return {
      id: body.id,
      identityId: seen.id,
      aal: body.authenticator_assurance_level === 'aal2' ? 'aal2' : 'aal1',
      expiresAt: body.expires_at ? new Date(body.expires_at) : new Date(Date.now() + 60_000),
      traits,
      name: displayName(traits),
      email: traits.email,
    };
  };
}

/**
 * Wraps a role resolver so that a request without a session has no roles (401). The
 * Access issue replaces `inner` with the roles of the session's person.
 */
export function requireSession(
  resolveSession: SessionResolver,
  inner: (request: FastifyRequest) => Promise<readonly Role[] | null>,
): (request: FastifyRequest) => Promise<readonly Role[] | null> {
  return async (request) => ((await resolveSession(request)) === null ? null : inner(request));
}
