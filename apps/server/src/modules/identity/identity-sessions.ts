import type { CredentialRow } from './credentials-repository.js';
import { hashToken, randomToken } from './identity-crypto.js';
import { highestAvailableAal, UI_URLS, type Aal } from './identity-fns.js';
import type { IdentityRow } from './identities-repository.js';
import type { Queryable } from './identity-repository.js';
import type { FlowBody, IdentityServiceContext, Outcome, RequestContext, ResolvedSession } from './identity-types.js';
import { absolute, returnToOf } from './identity-urls.js';
import { identityJson, sessionJson, type IdentityJson, type SessionJson } from './identity-views.js';
import { errors } from './kratos-errors-fns.js';
import { secondFactorsOf } from './identity-second-factors.js';
import type { AuthenticationMethod, SessionRow } from './sessions-repository.js';

/**
 * Sessions: the request's session and its AAL, new sessions, the identity and session JSON
 * of Kratos, and the endpoints about one's own sessions (whoami, the list, revocation,
 * logout).
 */

export type IdentitySessions = ReturnType<typeof createIdentitySessions>;

export function createIdentitySessions({
  repository,
  settings,
  now,
}: Pick<IdentityServiceContext, 'repository' | 'settings' | 'now'>) {
  async function credentialsOf(identityId: string, tx?: Queryable): Promise<CredentialRow[]> {
    return repository.listCredentials([identityId], tx);
  }

  async function identityView(
    identity: IdentityRow,
    ctx: Pick<RequestContext, 'baseUrl'>,
    admin = false,
    tx?: Queryable,
  ): Promise<IdentityJson> {
    const [verifiable, recovery, credentials] = await Promise.all([
      repository.listVerifiableAddresses([identity.id], tx),
      repository.listRecoveryAddresses([identity.id], tx),
      admin ? repository.listCredentials([identity.id], tx) : Promise.resolve([]),
    ]);
    return identityJson(identity, { baseUrl: ctx.baseUrl, verifiable, recovery, credentials, admin });
  }

  async function sessionView(
    session: SessionRow,
    identity: IdentityRow,
    ctx: Pick<RequestContext, 'baseUrl'>,
  ): Promise<SessionJson> {
    const [identityBody, devices] = await Promise.all([
      identityView(identity, ctx),
      repository.listDevices([session.id]),
    ]);
    return sessionJson(session, { identity: identityBody, devices, now: now() });
  }

  /** The request's session when it is active and unexpired; no AAL check. */
  async function currentSession(ctx: Pick<RequestContext, 'sessionToken'>): Promise<ResolvedSession | undefined> {
    if (!ctx.sessionToken || ctx.sessionToken.length > 500) return undefined;
    const session = await repository.findSessionByTokenHash(hashToken(ctx.sessionToken));
    if (!session || !session.active || session.expires_at <= now()) return undefined;
    const identity = await repository.findIdentity(session.identity_id);
    if (!identity || identity.state !== 'active') return undefined;
    return { session, identity, token: ctx.sessionToken };
  }

  async function highestAal(identityId: string): Promise<Aal> {
    return highestAvailableAal(secondFactorsOf(await credentialsOf(identityId)));
  }

  function aal2LoginUrl(ctx: RequestContext, returnTo?: string) {
    const params = new URLSearchParams({ aal: 'aal2' });
    if (returnTo) params.set('return_to', returnTo);
    return `${ctx.baseUrl}/self-service/login/browser?${params.toString()}`;
  }

  /** The session must reach the identity's highest available AAL (Kratos `highest_available`). */
  async function assertAal(resolved: ResolvedSession, ctx: RequestContext, returnTo?: string) {
    if (resolved.session.aal === 'aal2') return;
    if ((await highestAal(resolved.identity.id)) === 'aal2')
      throw errors.sessionAal2Required(aal2LoginUrl(ctx, returnTo));
  }

  async function createSession(
    identity: IdentityRow,
    methods: AuthenticationMethod[],
    ctx: RequestContext,
    tx?: Queryable,
  ): Promise<{ session: SessionRow; token: string }> {
    const token = randomToken('ory_st_');
    const aal = methods.some((m) => m.aal === 'aal2') ? 'aal2' : 'aal1';
    const session = await repository.insertSession(
      {
        identityId: identity.id,
        tokenHash: hashToken(token),
        aal,
        methods,
        expiresAt: new Date(now().getTime() + settings.sessionLifetimeMs),
      },
      { ...(ctx.ip ? { ipAddress: ctx.ip } : {}), ...(ctx.userAgent ? { userAgent: ctx.userAgent } : {}) },
      tx,
    );
    return { session, token };
  }

  /** An entry of a session's `authentication_methods`, completed now. */
  const method = (name: string, aal: 'aal1' | 'aal2', provider?: string): AuthenticationMethod => ({
    method: name,
    aal,
    completed_at: now().toISOString(),
    ...(provider ? { provider } : {}),
  });

  // ---------------------------------------------------------------- logout and sessions

  async function createBrowserLogoutFlow(ctx: RequestContext, query: { return_to?: string }): Promise<Outcome> {
    const returnTo = returnToOf(ctx, query.return_to);
    const resolved = await currentSession(ctx);
    if (!resolved) throw errors.sessionInactive();
    const logoutToken = randomToken('ory_lo_');
    await repository.setLogoutTokenHash(resolved.session.id, hashToken(logoutToken));
    const params = new URLSearchParams({ token: logoutToken });
    if (returnTo) params.set('return_to', returnTo);
    return {
      status: 200,
      body: { logout_token: logoutToken, logout_url: `${ctx.baseUrl}/self-service/logout?${params.toString()}` },
    };
  }

  async function updateLogoutFlow(
    ctx: RequestContext,
    query: { token?: string; return_to?: string },
  ): Promise<Outcome> {
    const returnTo = returnToOf(ctx, query.return_to);
    const token = query.token ?? '';
    const session =
      token && token.length < 200 ? await repository.findSessionByLogoutTokenHash(hashToken(token)) : undefined;
    const cookieSession = await currentSession(ctx);
    if (!session || !session.active || (cookieSession && cookieSession.session.id !== session.id))
      throw errors.logoutTokenInvalid();
    await repository.deactivateSession(session.id);
    if (ctx.json) return { status: 204, clearSession: true };
    return { status: 303, redirect: absolute(ctx, returnTo ?? UI_URLS.login), clearSession: true };
  }

  async function performNativeLogout(body: FlowBody): Promise<Outcome> {
    const token = typeof body.session_token === 'string' ? body.session_token : '';
    if (!token) throw errors.badRequest('The session_token is missing from the request body.');
    const session = token.length < 500 ? await repository.findSessionByTokenHash(hashToken(token)) : undefined;
    if (!session || !session.active)
      throw errors.forbidden('The provided Ory Session Token could not be found, is invalid, or otherwise malformed.');
    await repository.deactivateSession(session.id);
    return { status: 204 };
  }

  async function whoami(ctx: RequestContext): Promise<Outcome> {
    const resolved = await currentSession(ctx);
    if (!resolved) throw errors.sessionInactive();
    await assertAal(resolved, ctx);
    return { status: 200, body: await sessionView(resolved.session, resolved.identity, ctx) };
  }

  async function listMySessions(ctx: RequestContext): Promise<Outcome> {
    const resolved = await currentSession(ctx);
    if (!resolved) throw errors.sessionInactive();
    await assertAal(resolved, ctx);
    const sessions = (await repository.listActiveSessions(resolved.identity.id)).filter(
      (s) => s.id !== resolved.session.id,
    );
    const devices = await repository.listDevices(sessions.map((s) => s.id));
    return {
      status: 200,
      body: sessions.map((session) =>
        sessionJson(session, { devices: devices.filter((d) => d.session_id === session.id), now: now() }),
      ),
    };
  }

  async function revokeMyOtherSessions(ctx: RequestContext): Promise<Outcome> {
    const resolved = await currentSession(ctx);
    if (!resolved) throw errors.sessionInactive();
    await assertAal(resolved, ctx);
    const count = await repository.deactivateSessionsOf(resolved.identity.id, resolved.session.id);
    return { status: 200, body: { count } };
  }

  async function revokeMySession(ctx: RequestContext, sessionId: string): Promise<Outcome> {
    const resolved = await currentSession(ctx);
    if (!resolved) throw errors.sessionInactive();
    await assertAal(resolved, ctx);
    if (sessionId === resolved.session.id)
      throw errors.badRequest('You can not revoke the session you are using; use logout instead.');
    const session = /^[0-9a-f-]{36}$/i.test(sessionId) ? await repository.findSession(sessionId) : undefined;
    if (!session || session.identity_id !== resolved.identity.id)
      throw errors.notFound(`No session with id '${sessionId}' belongs to you.`);
    await repository.deactivateSession(session.id);
    return { status: 204 };
  }

  return {
    credentialsOf,
    identityView,
    sessionView,
    currentSession,
    highestAal,
    aal2LoginUrl,
    assertAal,
    createSession,
    method,
    createBrowserLogoutFlow,
    updateLogoutFlow,
    performNativeLogout,
    whoami,
    listMySessions,
    revokeMyOtherSessions,
    revokeMySession,
  };
}
