import { randomBytes } from 'node:crypto';
import type { AuthConfigResponse } from '@lookout/contracts';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { Secret, TOTP } from 'otpauth';
import * as oidcClient from 'openid-client';
import QRCode from 'qrcode';
import type { Logger } from 'pino';
import type { OidcProviderConfig } from '../../config/config.js';
import type { Courier } from './identity-courier.js';
import {
  burnPasswordCheck,
  hashPassword,
  hashToken,
  randomDigits,
  randomLookupCode,
  randomToken,
  safeEqual,
  verifyPassword,
  type SecretBox,
} from './identity-crypto.js';
import {
  codeLinkUrl,
  displayName,
  flowMethodOf,
  highestAvailableAal,
  IDENTITY_LIMITS,
  isEmail,
  isTruthy,
  resolveReturnTo,
  UI_URLS,
  validateTraits,
  type Aal,
  type CredentialSummary,
} from './identity-fns.js';
import type {
  AuthenticationMethod,
  CredentialRow,
  FlowKind,
  FlowRow,
  IdentityRepository,
  IdentityRow,
  Queryable,
  SessionRow,
} from './identity-repository.js';
import { identityJson, sessionJson, type IdentityJson, type SessionJson } from './identity-views.js';
import { passwordPolicyViolation } from './password-policy.js';
import { errors, KratosError } from './kratos-errors-fns.js';
import { flowExpiredText, text, type UiText } from './kratos-text-fns.js';
import {
  applyUiState,
  codeFlowNodes,
  keepableValues,
  loginNodes,
  registrationNodes,
  settingsNodes,
  type CodeFlowState,
  type Traits,
  type UiContainer,
  type UiState,
} from './ui-nodes-fns.js';

/**
 * Everything the identity service needs to know about the HTTP request it serves. Its URLs
 * are for the requester only (LOOKOUT_PUBLIC_URL, else the request's host): links for anyone
 * else come from `linkOrigin` (see http/public-url.ts).
 */
export type RequestContext = {
  /** `https://lookout.example.com` as the client sees it. */
  origin: string;
  /** Where the Kratos API is mounted: origin + `/api/.ory`. */
  baseUrl: string;
  /** The full URL of this request. */
  requestUrl: string;
  sessionToken?: string;
  csrfCookie?: string;
  ip?: string;
  userAgent?: string;
  /** The client asked for JSON (Accept or Content-Type); browsers otherwise get redirects. */
  json: boolean;
};

/** What a route sends back: a status with a body, or a 303 redirect, plus cookies. */
export type Outcome = {
  status: number;
  body?: unknown;
  redirect?: string;
  setSession?: { token: string; expiresAt: Date };
  clearSession?: boolean;
  setCsrf?: string;
};

export type IdentitySettings = {
  secretKey: string;
  registrationOpen: boolean;
  sessionLifetimeMs: number;
  /**
   * LOOKOUT_REVOKE_SESSIONS_ON_PASSWORD_CHANGE (default true): a password change in the
   * settings ends the identity's other sessions, as Kratos's `revoke_active_sessions` hook.
   */
  revokeSessionsOnPasswordChange: boolean;
  smtpUrl?: string;
  smtpFrom: string;
  oidcProviders: OidcProviderConfig[];
  /** KRATOS_PUBLIC_URL: identities live in that Ory Kratos; /api/.ory is a proxy to it. */
  kratosPublicUrl?: string;
  /** KRATOS_ADMIN_URL: its admin API, for user administration (only with kratosPublicUrl). */
  kratosAdminUrl?: string;
  /**
   * How often the copies of that Kratos's identities are refreshed (default
   * KRATOS_IDENTITY_SYNC_INTERVAL_MS, kratos-identity-sync.ts); tests shorten it.
   */
  kratosSyncIntervalMs?: number;
};

export type IdentityServiceDeps = {
  repository: IdentityRepository;
  box: SecretBox;
  courier: Pick<Courier, 'queue'>;
  /**
   * The origin of the links in emails (LOOKOUT_PUBLIC_URL, or http://localhost:<PORT>): never
   * the request's, which anyone asking for someone else's recovery code could set.
   */
  linkOrigin: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  settings: Pick<
    IdentitySettings,
    'registrationOpen' | 'sessionLifetimeMs' | 'oidcProviders' | 'revokeSessionsOnPasswordChange'
  >;
  now?: () => Date;
};

export type ResolvedSession = { session: SessionRow; identity: IdentityRow; token: string };

export type IdentityService = ReturnType<typeof createIdentityService>;

type FlowBody = Record<string, unknown>;

/**
 * Fixed-window limits, counted in the database so every replica shares them. The client is
 * the address that connects, or the one a trusted proxy names (LOOKOUT_TRUST_PROXY). Attempts
 * at one account are counted per client too: attempts from elsewhere can not lock its owner
 * out, and each client still gets only a handful of guesses.
 */
const RATE_LIMITS = {
  /** Password attempts at one identifier from one client. */
  loginPerIdentifierAndClient: { windowMs: 15 * 60_000, max: 10 },
  /** Password attempts from one client, whatever the identifier. */
  loginPerClient: { windowMs: 15 * 60_000, max: 100 },
  /** Second-factor codes (TOTP, backup codes) for one identity from one client. */
  secondFactorPerIdentityAndClient: { windowMs: 15 * 60_000, max: 10 },
  codeSendPerAddress: { windowMs: 15 * 60_000, max: 5 },
  codeSendPerIp: { windowMs: 15 * 60_000, max: 30 },
  /** New flows of any kind, browser or API, from one client: each one is a row. */
  flowsPerClient: { windowMs: 15 * 60_000, max: 300 },
} as const;

const TOTP_ISSUER = 'Lookout';

export function createIdentityService({
  repository,
  box,
  courier,
  linkOrigin,
  logger,
  settings,
  now = () => new Date(),
}: IdentityServiceDeps) {
  const providers = settings.oidcProviders.map((provider) => ({
    id: provider.id,
    label: provider.label ?? provider.id,
  }));

  /** `GET /api/auth/config`: the settings the sign-in pages read before any flow exists. */
  function publicConfig(): AuthConfigResponse {
    return { registration_open: settings.registrationOpen, oidc_providers: providers, user_admin: true };
  }

  // ---------------------------------------------------------------- helpers

  const uiUrl = (ctx: RequestContext, kind: FlowKind, flowId: string) =>
    `${ctx.origin}${UI_URLS[kind === 'settings' ? 'settings' : kind]}?flow=${flowId}`;
  const absolute = (ctx: RequestContext, target: string) =>
    target.startsWith('/') ? `${ctx.origin}${target}` : target;

  async function rateLimit(bucket: keyof typeof RATE_LIMITS, key: string | undefined) {
    if (!key) return;
    const limit = RATE_LIMITS[bucket];
    const { hits, retryAfterSeconds } = await repository.hitRateLimit(bucket, key, limit.windowMs);
    if (hits > limit.max) throw errors.rateLimited(retryAfterSeconds);
  }

  /** A counter key for something done from the request's client (the client first, so it survives truncation). */
  const fromClient = (ctx: Pick<RequestContext, 'ip'>, what: string) => `${ctx.ip ?? 'unknown'}|${what}`;

  async function credentialsOf(identityId: string, tx?: Queryable): Promise<CredentialRow[]> {
    return repository.listCredentials([identityId], tx);
  }

  function summarize(credentials: CredentialRow[]): CredentialSummary {
    const lookup = credentials.find((c) => c.type === 'lookup_secret');
    const webauthn = credentials.find((c) => c.type === 'webauthn');
    return {
      totp: credentials.some((c) => c.type === 'totp'),
      lookupSecret: Boolean(
        lookup && Array.isArray(lookup.config.lookup_secrets) && lookup.config.lookup_secrets.length > 0,
      ),
      webauthn: Boolean(
        webauthn && Array.isArray(webauthn.config.credentials) && webauthn.config.credentials.length > 0,
      ),
    };
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
    return highestAvailableAal(summarize(await credentialsOf(identityId)));
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

  const method = (name: string, aal: 'aal1' | 'aal2', provider?: string): AuthenticationMethod => ({
    method: name,
    aal,
    completed_at: now().toISOString(),
    ...(provider ? { provider } : {}),
  });

  // ---------------------------------------------------------------- WebAuthn

  type StoredWebAuthn = {
    id: string;
    public_key: string;
    counter: number;
    transports?: string[];
    display_name: string;
    added_at: string;
  };

  /** The relying party is this installation's host name, as the browser sees it. */
  const rpIdOf = (ctx: RequestContext) => new URL(ctx.origin).hostname;
  const webauthnScriptSrc = (ctx: RequestContext) => `${ctx.baseUrl}/.well-known/ory/webauthn.js`;
  const newChallenge = () => randomBytes(32).toString('base64url');

  async function webauthnCredentialsOf(identityId: string, tx?: Queryable): Promise<StoredWebAuthn[]> {
    const credential = (await credentialsOf(identityId, tx)).find((c) => c.type === 'webauthn');
    return (credential?.config.credentials as StoredWebAuthn[] | undefined) ?? [];
  }

  async function webauthnSettings(identity: IdentityRow, challenge: string, ctx: RequestContext) {
    const existing = await webauthnCredentialsOf(identity.id);
    const options = await generateRegistrationOptions({
      rpName: 'Lookout',
      rpID: rpIdOf(ctx),
      userName: identity.traits.email,
      userDisplayName: displayName(identity.traits),
      userID: Buffer.from(identity.id, 'utf8'),
      challenge: Buffer.from(challenge, 'base64url'),
      attestationType: 'none',
      excludeCredentials: existing.map((c) => ({ id: c.id, ...(c.transports ? { transports: c.transports } : {}) })),
      authenticatorSelection: { residentKey: 'discouraged', userVerification: 'discouraged' },
    });
    return {
      scriptSrc: webauthnScriptSrc(ctx),
      registerOptions: JSON.stringify({ publicKey: options }),
      credentials: existing.map((c) => ({ id: c.id, displayName: c.display_name, addedAt: new Date(c.added_at) })),
    };
  }

  function parseCeremony<T>(value: unknown): T | undefined {
    if (typeof value !== 'string' || value.length === 0 || value.length > 20_000) return undefined;
    try {
      const parsed = JSON.parse(value) as unknown;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as T) : undefined;
    } catch {
      return undefined;
    }
  }

  // ---------------------------------------------------------------- flows: rendering

  function flowAction(ctx: RequestContext, flow: FlowRow) {
    return `${ctx.baseUrl}/self-service/${flow.kind}?flow=${flow.id}`;
  }

  async function buildNodes(flow: FlowRow, ctx: RequestContext) {
    const csrf = flow.type === 'browser' ? (flow.csrf_token ?? undefined) : undefined;
    switch (flow.kind) {
      case 'login': {
        let secondFactors = { totp: false, lookupSecret: false, webauthn: false };
        let refreshIdentifier: string | undefined;
        if (flow.identity_id) {
          const identity = await repository.findIdentity(flow.identity_id);
          refreshIdentifier = identity?.traits.email;
          if (flow.requested_aal === 'aal2') secondFactors = summarize(await credentialsOf(flow.identity_id));
        }
        return loginNodes({
          ...(csrf ? { csrfToken: csrf } : {}),
          requestedAal: flow.requested_aal,
          refresh: flow.refresh,
          ...(refreshIdentifier ? { refreshIdentifier } : {}),
          providers,
          secondFactors,
          ...(secondFactors.webauthn && flow.identity_id && flow.internal.webauthn_challenge
            ? {
                webauthnOptions: JSON.stringify({
                  publicKey: await generateAuthenticationOptions({
                    rpID: rpIdOf(ctx),
                    allowCredentials: (await webauthnCredentialsOf(flow.identity_id)).map((c) => ({
                      id: c.id,
                      ...(c.transports ? { transports: c.transports } : {}),
                    })),
                    challenge: Buffer.from(flow.internal.webauthn_challenge, 'base64url'),
                    userVerification: 'discouraged',
                  }),
                }),
                webauthnScriptSrc: webauthnScriptSrc(ctx),
              }
            : {}),
        });
      }
      case 'registration':
        return registrationNodes({ ...(csrf ? { csrfToken: csrf } : {}), providers });
      case 'recovery':
      case 'verification':
        return codeFlowNodes(flow.kind, {
          ...(csrf ? { csrfToken: csrf } : {}),
          state: flow.state as CodeFlowState,
          ...(flow.internal.email ? { email: flow.internal.email } : {}),
          continueHref: absolute(ctx, flow.return_to ?? UI_URLS.defaultReturnTo),
        });
      case 'settings': {
        const identity = flow.identity_id ? await repository.findIdentity(flow.identity_id) : undefined;
        const credentials = identity ? await credentialsOf(identity.id) : [];
        const summary = summarize(credentials);
        let pendingTotp: { secret: string; qrDataUrl: string } | undefined;
        if (!summary.totp && flow.internal.totp_pending && identity) {
          const secret = box.decrypt(flow.internal.totp_pending);
          const uri = totpFor(secret, identity.traits.email).toString();
          pendingTotp = { secret, qrDataUrl: await QRCode.toDataURL(uri, { width: 256, margin: 1 }) };
        }
        const pendingCodes = flow.internal.lookup_pending
          ? (JSON.parse(box.decrypt(flow.internal.lookup_pending)) as string[])
          : undefined;
        const oidc = credentials.find((c) => c.type === 'oidc');
        const linked = new Set(
          ((oidc?.config.providers as { provider: string }[] | undefined) ?? []).map((p) => p.provider),
        );
        const hasPassword = credentials.some((c) => c.type === 'password');
        return settingsNodes({
          ...(csrf ? { csrfToken: csrf } : {}),
          traits: identity?.traits ?? { email: '' },
          providers: providers.map((p) => ({ ...p, linked: linked.has(p.id) })),
          canUnlinkOidc: hasPassword || linked.size > 1,
          totp: { linked: summary.totp, ...(pendingTotp ? { pending: pendingTotp } : {}) },
          lookup: { exists: summary.lookupSecret, ...(pendingCodes ? { pendingCodes } : {}) },
          ...(identity && flow.internal.webauthn_challenge
            ? { webauthn: await webauthnSettings(identity, flow.internal.webauthn_challenge, ctx) }
            : {}),
        });
      }
    }
  }

  async function renderFlow(
    flow: FlowRow,
    ctx: RequestContext,
    extra: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const nodes = applyUiState(await buildNodes(flow, ctx), flow.ui_state);
    const ui: UiContainer = { action: flowAction(ctx, flow), method: 'POST', nodes };
    if (flow.ui_state.messages && flow.ui_state.messages.length > 0) ui.messages = flow.ui_state.messages;
    const body: Record<string, unknown> = {
      id: flow.id,
      type: flow.type,
      expires_at: flow.expires_at.toISOString(),
      issued_at: flow.issued_at.toISOString(),
      request_url: flow.request_url,
      ...(flow.return_to ? { return_to: flow.return_to } : {}),
      ...(flow.active ? { active: flow.active } : {}),
      ui,
      state: flow.state,
    };
    if (flow.kind === 'login') {
      Object.assign(body, {
        organization_id: null,
        created_at: flow.created_at.toISOString(),
        updated_at: flow.updated_at.toISOString(),
        refresh: flow.refresh,
        requested_aal: flow.requested_aal,
      });
    }
    if (flow.kind === 'registration') body.organization_id = null;
    if (flow.kind === 'settings' && flow.identity_id) {
      const identity = await repository.findIdentity(flow.identity_id);
      if (identity) body.identity = await identityView(identity, ctx);
    }
    return { ...body, ...extra };
  }

  // ---------------------------------------------------------------- flows: lifecycle

  function newCsrf(ctx: RequestContext): string {
    // One token per browser: reuse the cookie so flows opened in two tabs both work.
    return ctx.csrfCookie && /^[A-Za-z0-9_-]{43}$/.test(ctx.csrfCookie) ? ctx.csrfCookie : randomToken();
  }

  function returnToOf(ctx: RequestContext, returnTo: string | undefined): string | undefined {
    const resolved = resolveReturnTo(returnTo, ctx.origin);
    if (!resolved.ok) throw errors.returnToForbidden(returnTo ?? '');
    return resolved.value;
  }

  async function insertFlow(
    kind: FlowKind,
    type: 'browser' | 'api',
    ctx: RequestContext,
    fields: Partial<
      Pick<
        FlowRow,
        | 'state'
        | 'return_to'
        | 'refresh'
        | 'requested_aal'
        | 'identity_id'
        | 'session_id'
        | 'ui_state'
        | 'internal'
        | 'active'
        | 'csrf_token'
      >
    > & {
      lifespanMs?: number;
    } = {},
    tx?: Queryable,
  ): Promise<FlowRow> {
    const { lifespanMs, ...rest } = fields;
    const state = rest.state ?? (kind === 'settings' ? 'show_form' : 'choose_method');
    return repository.insertFlow(
      {
        kind,
        type,
        state,
        request_url: ctx.requestUrl,
        expires_at: new Date(now().getTime() + (lifespanMs ?? IDENTITY_LIMITS.flowLifespanMs)),
        csrf_token: type === 'browser' ? newCsrf(ctx) : null,
        ...(kind === 'recovery' || kind === 'verification' ? { active: 'code' } : {}),
        ...rest,
      },
      tx,
    );
  }

  /** JSON for JSON clients, a redirect to the web page of the flow for browsers. */
  async function flowCreated(flow: FlowRow, ctx: RequestContext): Promise<Outcome> {
    const setCsrf = flow.type === 'browser' && flow.csrf_token ? flow.csrf_token : undefined;
    if (flow.type === 'browser' && !ctx.json) {
      return { status: 303, redirect: uiUrl(ctx, flow.kind, flow.id), ...(setCsrf ? { setCsrf } : {}) };
    }
    return { status: 200, body: await renderFlow(flow, ctx), ...(setCsrf ? { setCsrf } : {}) };
  }

  async function loadFlow(kind: FlowKind, id: string | undefined): Promise<FlowRow> {
    if (!id || !/^[0-9a-f-]{36}$/i.test(id))
      throw errors.notFound(`Unable to locate the ${kind} flow: the id is missing or malformed.`);
    const flow = await repository.findFlow(id);
    if (!flow || flow.kind !== kind)
      throw errors.notFound(`Unable to locate the resource: no ${kind} flow with id '${id}'.`);
    return flow;
  }

  function assertCsrf(flow: FlowRow, ctx: RequestContext, submitted: unknown) {
    if (flow.type !== 'browser') return;
    const expected = flow.csrf_token ?? '';
    if (!ctx.csrfCookie) throw errors.csrfViolation('The CSRF cookie is missing from the request.');
    if (!safeEqual(ctx.csrfCookie, expected))
      throw errors.csrfViolation('The CSRF cookie does not belong to this flow.');
    if (typeof submitted !== 'string' || !submitted)
      throw errors.csrfViolation('The CSRF token is missing from the request body.');
    if (!safeEqual(submitted, expected))
      throw errors.csrfViolation('The CSRF token in the request body does not match the CSRF cookie.');
  }

  /** A fresh flow replacing an expired one, as Kratos answers an update of an expired flow. */
  async function replaceExpired(flow: FlowRow, ctx: RequestContext): Promise<never | Outcome> {
    // Submitting an expired flow again and again would otherwise add a flow each time.
    await rateLimit('flowsPerClient', ctx.ip);
    const replacement = await insertFlow(flow.kind, flow.type, ctx, {
      ...(flow.return_to ? { return_to: flow.return_to } : {}),
      refresh: flow.refresh,
      requested_aal: flow.requested_aal,
      ...(flow.identity_id ? { identity_id: flow.identity_id } : {}),
      ...(flow.session_id ? { session_id: flow.session_id } : {}),
      ui_state: { messages: [flowExpiredText(flow.kind, flow.expires_at, now())] },
    });
    if (flow.type === 'browser' && !ctx.json) {
      return {
        status: 303,
        redirect: uiUrl(ctx, flow.kind, replacement.id),
        ...(replacement.csrf_token ? { setCsrf: replacement.csrf_token } : {}),
      };
    }
    throw errors.flowExpired(flow.expires_at, replacement.id, now());
  }

  /** Stores the messages and answers 400 with the flow (or a redirect back to its page). */
  async function flowWithMessages(flow: FlowRow, ctx: RequestContext, ui: UiState, status = 400): Promise<Outcome> {
    const updated = await repository.updateFlow(flow.id, { ui_state: ui });
    if (flow.type === 'browser' && !ctx.json) return { status: 303, redirect: uiUrl(ctx, flow.kind, flow.id) };
    return { status, body: await renderFlow(updated, ctx) };
  }

  async function getFlow(kind: FlowKind, id: string | undefined, ctx: RequestContext): Promise<Outcome> {
    let flow = await loadFlow(kind, id);
    let setCsrf: string | undefined;
    if (flow.type === 'browser' && flow.csrf_token === null) {
      // A flow made through the admin API (an invite's recovery code) belongs to whichever
      // browser opens it first; from then on the usual CSRF check applies.
      setCsrf = newCsrf(ctx);
      flow = (await repository.adoptFlow(flow.id, setCsrf)) ?? flow;
    }
    if (flow.type === 'browser') {
      if (!ctx.csrfCookie && setCsrf === undefined) {
        throw errors.csrfViolation('The flow was fetched without the CSRF cookie it was created with.');
      }
      const presented = setCsrf ?? ctx.csrfCookie ?? '';
      if (!flow.csrf_token || !safeEqual(presented, flow.csrf_token)) {
        throw errors.csrfViolation('The flow was fetched without the CSRF cookie it was created with.');
      }
    }
    if (flow.expires_at <= now()) throw errors.flowExpired(flow.expires_at, undefined, now());
    if (kind === 'settings') {
      const resolved = await currentSession(ctx);
      if (!resolved) throw errors.sessionInactive();
      if (resolved.identity.id !== flow.identity_id) throw errors.identityMismatch();
      await assertAal(resolved, ctx, uiUrl(ctx, 'settings', flow.id));
    }
    return { status: 200, body: await renderFlow(flow, ctx), ...(setCsrf ? { setCsrf } : {}) };
  }

  /** Checks every update shares: the flow exists, is the right kind, is fresh, and CSRF. */
  async function openForUpdate(
    kind: FlowKind,
    id: string | undefined,
    ctx: RequestContext,
    body: FlowBody,
  ): Promise<FlowRow | Outcome> {
    const flow = await loadFlow(kind, id);
    if (flow.expires_at <= now()) return replaceExpired(flow, ctx);
    assertCsrf(flow, ctx, body.csrf_token);
    return flow;
  }

  const isOutcome = (value: FlowRow | Outcome): value is Outcome => 'status' in value && !('kind' in value);

  // ---------------------------------------------------------------- login

  async function createLoginFlow(
    type: 'browser' | 'api',
    ctx: RequestContext,
    query: { refresh?: boolean; aal?: string; return_to?: string },
  ): Promise<Outcome> {
    await rateLimit('flowsPerClient', ctx.ip);
    const returnTo = returnToOf(ctx, query.return_to);
    if (query.aal && query.aal !== 'aal1' && query.aal !== 'aal2') {
      throw errors.badRequest(
        `Unable to parse AuthenticationMethod Assurance Level (AAL): expected one of [aal1, aal2] but got ${query.aal}`,
      );
    }
    const requestedAal: Aal = query.aal === 'aal2' ? 'aal2' : 'aal1';
    const resolved = await currentSession(ctx);
    const refresh = Boolean(query.refresh);
    if (requestedAal === 'aal2') {
      if (!resolved) throw errors.sessionAal1Required();
      if (resolved.session.aal === 'aal2' && !refresh) {
        if (type === 'browser' && !ctx.json)
          return { status: 303, redirect: absolute(ctx, returnTo ?? UI_URLS.defaultReturnTo) };
        throw errors.sessionHasAalAlready();
      }
      if ((await highestAal(resolved.identity.id)) !== 'aal2') {
        throw errors.badRequest(
          'This account has no second factor (TOTP, backup codes or security key) to sign in with.',
        );
      }
    } else if (resolved && !refresh) {
      if (type === 'browser' && !ctx.json)
        return { status: 303, redirect: absolute(ctx, returnTo ?? UI_URLS.defaultReturnTo) };
      throw errors.sessionAlreadyAvailable();
    }
    const messages: UiText[] = [];
    if (requestedAal === 'aal2') messages.push(text.loginMfa());
    else if (refresh && resolved) messages.push(text.loginReAuth());
    const flow = await insertFlow('login', type, ctx, {
      ...(returnTo ? { return_to: returnTo } : {}),
      refresh: refresh && Boolean(resolved),
      requested_aal: requestedAal,
      ...(resolved && (refresh || requestedAal === 'aal2')
        ? { identity_id: resolved.identity.id, session_id: resolved.session.id }
        : {}),
      ui_state: messages.length > 0 ? { messages } : {},
      ...(requestedAal === 'aal2' ? { internal: { webauthn_challenge: newChallenge() } } : {}),
    });
    return flowCreated(flow, ctx);
  }

  async function loginSucceeded(
    flow: FlowRow,
    ctx: RequestContext,
    identity: IdentityRow,
    result: { session: SessionRow; token: string },
    activeMethod: string,
  ): Promise<Outcome> {
    await repository.updateFlow(flow.id, { state: 'passed_challenge', active: activeMethod, ui_state: {} });
    const needsAal2 = result.session.aal === 'aal1' && (await highestAal(identity.id)) === 'aal2';
    if (flow.type === 'api') {
      const session = await sessionView(result.session, identity, ctx);
      return {
        status: 200,
        body: {
          session_token: result.token,
          session,
          continue_with: [{ action: 'set_ory_session_token', ory_session_token: result.token }],
        },
      };
    }
    const setSession = { token: result.token, expiresAt: result.session.expires_at };
    if (!ctx.json) {
      const target = needsAal2
        ? aal2LoginUrl(ctx, flow.return_to ?? undefined)
        : absolute(ctx, flow.return_to ?? UI_URLS.defaultReturnTo);
      return { status: 303, redirect: target, setSession };
    }
    const session = await sessionView(result.session, identity, ctx);
    return {
      status: 200,
      body: {
        session,
        continue_with: flow.return_to
          ? [{ action: 'redirect_browser_to', redirect_browser_to: absolute(ctx, flow.return_to) }]
          : [],
      },
      setSession,
    };
  }

  async function updateLoginFlow(flowId: string | undefined, body: FlowBody, ctx: RequestContext): Promise<Outcome> {
    const opened = await openForUpdate('login', flowId, ctx, body);
    if (isOutcome(opened)) return opened;
    const flow = opened;
    if (flow.state === 'passed_challenge') return flowWithMessages(flow, ctx, { messages: [text.loginRetrySuccess()] });
    const resolved = await currentSession(ctx);
    if (flow.requested_aal === 'aal1' && !flow.refresh && resolved) {
      if (flow.type === 'browser' && !ctx.json)
        return { status: 303, redirect: absolute(ctx, flow.return_to ?? UI_URLS.defaultReturnTo) };
      return flowWithMessages(flow, ctx, {
        messages: [text.validationGeneric(errors.sessionAlreadyAvailable().body.error.reason ?? '')],
      });
    }
    const chosen = flowMethodOf(body, 'login');
    if (flow.requested_aal === 'aal2') {
      if (!resolved || resolved.session.id !== flow.session_id) throw errors.sessionInactive();
      if (chosen === 'totp') return loginWithTotp(flow, ctx, body, resolved);
      if (chosen === 'lookup_secret') return loginWithLookup(flow, ctx, body, resolved);
      if (chosen === 'webauthn') return loginWithWebAuthn(flow, ctx, body, resolved);
      return flowWithMessages(flow, ctx, { messages: [text.loginNoStrategy()] });
    }
    if (chosen === 'password') return loginWithPassword(flow, ctx, body, resolved);
    if (chosen === 'oidc') return startOidc(flow, ctx, body.provider, 'login');
    return flowWithMessages(flow, ctx, { messages: [text.loginNoStrategy()] });
  }

  async function loginWithPassword(
    flow: FlowRow,
    ctx: RequestContext,
    body: FlowBody,
    resolved: ResolvedSession | undefined,
  ): Promise<Outcome> {
    const identifier = typeof body.identifier === 'string' ? body.identifier.trim().toLowerCase() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const nodeMessages: Record<string, UiText[]> = {};
    if (!identifier) nodeMessages.identifier = [text.required('identifier')];
    if (!password) nodeMessages.password = [text.required('password')];
    if (Object.keys(nodeMessages).length > 0)
      return flowWithMessages(flow, ctx, { node_messages: nodeMessages, values: keepableValues(body) });

    await rateLimit('loginPerClient', ctx.ip);
    await rateLimit('loginPerIdentifierAndClient', fromClient(ctx, identifier));

    const invalid = () =>
      flowWithMessages(flow, ctx, { messages: [text.invalidCredentials()], values: { identifier } });
    if (identifier.length > IDENTITY_LIMITS.emailMaxLength || password.length > IDENTITY_LIMITS.passwordMaxLength) {
      await burnPasswordCheck('x');
      return invalid();
    }
    const credential = await repository.findCredentialByIdentifier('password', identifier);
    const hashed =
      credential && typeof credential.config.hashed_password === 'string'
        ? credential.config.hashed_password
        : undefined;
    if (!credential || !hashed) {
      await burnPasswordCheck(password);
      return invalid();
    }
    if (!(await verifyPassword(hashed, password))) return invalid();
    const identity = await repository.findIdentity(credential.identity_id);
    if (!identity || identity.state !== 'active') return invalid();

    if (flow.refresh && resolved) {
      if (resolved.identity.id !== identity.id) return invalid();
      const methods = [...resolved.session.authentication_methods, method('password', 'aal1')];
      const session = await repository.updateSessionAuthentication(resolved.session.id, {
        aal: resolved.session.aal,
        methods,
        authenticatedAt: now(),
      });
      return loginSucceeded(flow, ctx, identity, { session: session!, token: resolved.token }, 'password');
    }
    const created = await createSession(identity, [method('password', 'aal1')], ctx);
    return loginSucceeded(flow, ctx, identity, created, 'password');
  }

  function totpFor(secret: string, email: string) {
    return new TOTP({
      issuer: TOTP_ISSUER,
      label: email,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      secret: Secret.fromBase32(secret),
    });
  }

  /**
   * The time step (30-second counter) of `code` for `secret`, when the code is one of the
   * current step or a neighbouring one (clock drift, as Kratos allows), else undefined.
   */
  function totpStepOf(secret: string, email: string, code: string): number | undefined {
    if (!/^\d{6}$/.test(code)) return undefined;
    const totp = totpFor(secret, email);
    const timestamp = now().getTime();
    const delta = totp.validate({ token: code, window: 1, timestamp });
    return delta === null ? undefined : totp.counter({ timestamp }) + delta;
  }

  async function upgradeToAal2(
    flow: FlowRow,
    ctx: RequestContext,
    resolved: ResolvedSession,
    methodName: string,
  ): Promise<Outcome> {
    const methods = [...resolved.session.authentication_methods, method(methodName, 'aal2')];
    const session = await repository.updateSessionAuthentication(resolved.session.id, {
      aal: 'aal2',
      methods,
      authenticatedAt: now(),
    });
    return loginSucceeded(flow, ctx, resolved.identity, { session: session!, token: resolved.token }, methodName);
  }

  async function loginWithTotp(
    flow: FlowRow,
    ctx: RequestContext,
    body: FlowBody,
    resolved: ResolvedSession,
  ): Promise<Outcome> {
    const code = typeof body.totp_code === 'string' ? body.totp_code.trim() : '';
    if (!code)
      return flowWithMessages(flow, ctx, {
        node_messages: { totp_code: [text.required('totp_code')] },
        messages: flow.ui_state.messages ?? [],
      });
    await rateLimit('secondFactorPerIdentityAndClient', fromClient(ctx, `totp:${resolved.identity.id}`));
    const credential = (await credentialsOf(resolved.identity.id)).find((c) => c.type === 'totp');
    if (!credential || typeof credential.config.totp_secret_encrypted !== 'string') {
      return flowWithMessages(flow, ctx, { messages: [text.noTotpDevice()] });
    }
    const secret = box.decrypt(credential.config.totp_secret_encrypted);
    const step = totpStepOf(secret, resolved.identity.traits.email, code);
    // A code is accepted at most once: one whose step is not after the last accepted is a replay.
    if (step === undefined || !(await repository.acceptTotpStep(credential.id, step))) {
      return flowWithMessages(flow, ctx, { node_messages: { totp_code: [text.totpInvalid()] } });
    }
    return upgradeToAal2(flow, ctx, resolved, 'totp');
  }

  type LookupSecret = { hash: string; used_at?: string };

  async function loginWithLookup(
    flow: FlowRow,
    ctx: RequestContext,
    body: FlowBody,
    resolved: ResolvedSession,
  ): Promise<Outcome> {
    const code = typeof body.lookup_secret === 'string' ? body.lookup_secret.trim().toLowerCase() : '';
    if (!code)
      return flowWithMessages(flow, ctx, { node_messages: { lookup_secret: [text.required('lookup_secret')] } });
    await rateLimit('secondFactorPerIdentityAndClient', fromClient(ctx, `lookup:${resolved.identity.id}`));
    const result = await repository.transaction(async (tx) => {
      const credential = (await credentialsOf(resolved.identity.id, tx)).find((c) => c.type === 'lookup_secret');
      const secrets = (credential?.config.lookup_secrets as LookupSecret[] | undefined) ?? [];
      if (!credential || secrets.length === 0) return 'none' as const;
      const hash = box.hmac(code);
      const match = secrets.find((secret) => safeEqual(secret.hash, hash));
      if (!match) return 'invalid' as const;
      if (match.used_at) return 'used' as const;
      match.used_at = now().toISOString();
      await repository.updateCredentialConfig(credential.id, { ...credential.config, lookup_secrets: secrets }, tx);
      return 'ok' as const;
    });
    if (result === 'none') return flowWithMessages(flow, ctx, { messages: [text.noLookup()] });
    if (result === 'invalid')
      return flowWithMessages(flow, ctx, { node_messages: { lookup_secret: [text.lookupInvalid()] } });
    if (result === 'used')
      return flowWithMessages(flow, ctx, { node_messages: { lookup_secret: [text.lookupAlreadyUsed()] } });
    return upgradeToAal2(flow, ctx, resolved, 'lookup_secret');
  }

  async function loginWithWebAuthn(
    flow: FlowRow,
    ctx: RequestContext,
    body: FlowBody,
    resolved: ResolvedSession,
  ): Promise<Outcome> {
    const response = parseCeremony<AuthenticationResponseJSON>(body.webauthn_login);
    const credentials = await webauthnCredentialsOf(resolved.identity.id);
    if (credentials.length === 0) return flowWithMessages(flow, ctx, { messages: [text.noWebAuthnDevice()] });
    const stored = response ? credentials.find((c) => c.id === response.id) : undefined;
    if (!response || !stored || !flow.internal.webauthn_challenge) {
      return flowWithMessages(flow, ctx, { messages: [text.noSuchWebAuthnUser()] });
    }
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: flow.internal.webauthn_challenge,
        expectedOrigin: ctx.origin,
        expectedRPID: rpIdOf(ctx),
        credential: {
          id: stored.id,
          publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
          counter: stored.counter,
          ...(stored.transports ? { transports: stored.transports as never } : {}),
        },
        requireUserVerification: false,
      });
    } catch (error) {
      logger.debug({ reason: error instanceof Error ? error.message : String(error) }, 'WebAuthn assertion refused');
      return flowWithMessages(flow, ctx, { messages: [text.noSuchWebAuthnUser()] });
    }
    if (!verification.verified) return flowWithMessages(flow, ctx, { messages: [text.noSuchWebAuthnUser()] });
    await repository.transaction(async (tx) => {
      const credential = (await credentialsOf(resolved.identity.id, tx)).find((c) => c.type === 'webauthn')!;
      const list = ((credential.config.credentials as StoredWebAuthn[]) ?? []).map((c) =>
        c.id === stored.id ? { ...c, counter: verification.authenticationInfo.newCounter } : c,
      );
      await repository.updateCredentialConfig(credential.id, { ...credential.config, credentials: list }, tx);
    });
    // A challenge is good for one ceremony.
    await repository.updateFlow(flow.id, { internal: { ...flow.internal, webauthn_challenge: newChallenge() } });
    return upgradeToAal2(flow, ctx, resolved, 'webauthn');
  }

  // ---------------------------------------------------------------- registration

  async function createRegistrationFlow(
    type: 'browser' | 'api',
    ctx: RequestContext,
    query: { return_to?: string },
  ): Promise<Outcome> {
    await rateLimit('flowsPerClient', ctx.ip);
    if (!settings.registrationOpen) throw errors.registrationDisabled();
    const returnTo = returnToOf(ctx, query.return_to);
    if (await currentSession(ctx)) {
      if (type === 'browser' && !ctx.json)
        return { status: 303, redirect: absolute(ctx, returnTo ?? UI_URLS.defaultReturnTo) };
      throw errors.sessionAlreadyAvailable();
    }
    const flow = await insertFlow('registration', type, ctx, returnTo ? { return_to: returnTo } : {});
    return flowCreated(flow, ctx);
  }

  async function updateRegistrationFlow(
    flowId: string | undefined,
    body: FlowBody,
    ctx: RequestContext,
  ): Promise<Outcome> {
    if (!settings.registrationOpen) throw errors.registrationDisabled();
    const opened = await openForUpdate('registration', flowId, ctx, body);
    if (isOutcome(opened)) return opened;
    const flow = opened;
    if (flow.state === 'passed_challenge')
      return flowWithMessages(flow, ctx, { messages: [text.registrationRetrySuccess()] });
    if (await currentSession(ctx)) {
      if (flow.type === 'browser' && !ctx.json)
        return { status: 303, redirect: absolute(ctx, flow.return_to ?? UI_URLS.defaultReturnTo) };
      throw errors.sessionAlreadyAvailable();
    }
    const chosen = flowMethodOf(body, 'registration');
    if (chosen === 'oidc') return startOidc(flow, ctx, body.provider, 'registration');
    if (chosen !== 'password')
      return flowWithMessages(flow, ctx, { messages: [text.registrationNoStrategy()], values: keepableValues(body) });

    const { traits, messages } = validateTraits(body.traits);
    const password = typeof body.password === 'string' ? body.password : '';
    const passwordProblem = password ? await passwordPolicyViolation(password, traits) : text.required('password');
    if (passwordProblem) messages.password = [passwordProblem];
    if (Object.keys(messages).length > 0)
      return flowWithMessages(flow, ctx, { node_messages: messages, values: keepableValues(body) });

    const hashed = await hashPassword(password);
    let created: { identity: IdentityRow; session: SessionRow; token: string };
    try {
      created = await repository.transaction(async (tx) => {
        const identity = await repository.insertIdentity({ traits, schemaId: 'default', state: 'active' }, tx);
        await repository.syncAddresses(identity.id, traits.email, {}, tx);
        await repository.upsertCredential(identity.id, 'password', { hashed_password: hashed }, [traits.email], tx);
        const session = await createSession(identity, [method('password', 'aal1')], ctx, tx);
        await repository.updateFlow(flow.id, { state: 'passed_challenge', active: 'password', ui_state: {} }, tx);
        return { identity, ...session };
      });
    } catch (error) {
      if (isUniqueViolation(error))
        return flowWithMessages(flow, ctx, { messages: [text.duplicateCredentials()], values: keepableValues(body) });
      throw error;
    }
    const verification = await startVerification(
      flow.type,
      ctx,
      created.identity,
      traits.email,
      flow.return_to ?? undefined,
    );
    const verificationContinue = {
      action: 'show_verification_ui',
      flow: { id: verification.id, verifiable_address: traits.email, url: uiUrl(ctx, 'verification', verification.id) },
    };
    if (flow.type === 'api') {
      return {
        status: 200,
        body: {
          identity: await identityView(created.identity, ctx),
          session: await sessionView(created.session, created.identity, ctx),
          session_token: created.token,
          continue_with: [{ action: 'set_ory_session_token', ory_session_token: created.token }, verificationContinue],
        },
      };
    }
    const setSession = { token: created.token, expiresAt: created.session.expires_at };
    if (!ctx.json)
      return {
        status: 303,
        redirect: uiUrl(ctx, 'verification', verification.id),
        setSession,
        ...(verification.csrf_token ? { setCsrf: verification.csrf_token } : {}),
      };
    return {
      status: 200,
      body: {
        identity: await identityView(created.identity, ctx),
        session: await sessionView(created.session, created.identity, ctx),
        continue_with: [verificationContinue],
      },
      setSession,
    };
  }

  // ---------------------------------------------------------------- recovery and verification

  /** The link of a recovery or verification email: it carries the code, so it is on linkOrigin. */
  function codeLink(kind: 'recovery' | 'verification', flowId: string, code: string) {
    return codeLinkUrl(linkOrigin, kind, { flow: flowId, code });
  }

  async function issueCode(
    kind: 'recovery' | 'verification',
    flow: FlowRow,
    ctx: RequestContext,
    email: string,
    identityId: string,
    lifespanMs = IDENTITY_LIMITS.codeLifespanMs,
    tx?: Queryable,
  ) {
    const code = randomDigits(6);
    await repository.insertCode(
      {
        kind,
        flowId: flow.id,
        identityId,
        address: email,
        codeHash: box.hmac(`${flow.id}:${code}`),
        expiresAt: new Date(now().getTime() + lifespanMs),
      },
      tx,
    );
    if (kind === 'verification') await repository.setAddressStatus(email, 'sent', tx);
    return code;
  }

  /**
   * Issues a code and queues the email that carries it, in one transaction: the code is
   * never valid without its email in the outbox, nor the email sent with a code that was
   * not stored.
   */
  async function issueAndMailCode(
    kind: 'recovery' | 'verification',
    flow: FlowRow,
    ctx: RequestContext,
    email: string,
    identityId: string,
  ): Promise<void> {
    await repository.transaction(async (tx) => {
      const code = await issueCode(kind, flow, ctx, email, identityId, undefined, tx);
      await courier.queue(
        {
          template: kind === 'recovery' ? 'recovery_code_valid' : 'verification_code_valid',
          to: email,
          code,
          link: codeLink(kind, flow.id, code),
        },
        tx,
      );
    });
  }

  /** Creates a verification flow that has already sent its code (after registration). */
  async function startVerification(
    type: 'browser' | 'api',
    ctx: RequestContext,
    identity: IdentityRow,
    email: string,
    returnTo?: string,
  ): Promise<FlowRow> {
    const flow = await insertFlow('verification', type, ctx, {
      state: 'sent_email',
      ...(returnTo ? { return_to: returnTo } : {}),
      internal: { email, attempts: 0 },
      ui_state: { messages: [text.verificationEmailWithCodeSent()] },
    });
    await issueAndMailCode('verification', flow, ctx, email, identity.id);
    return flow;
  }

  async function createCodeFlow(
    kind: 'recovery' | 'verification',
    type: 'browser' | 'api',
    ctx: RequestContext,
    query: { return_to?: string },
  ): Promise<Outcome> {
    await rateLimit('flowsPerClient', ctx.ip);
    const returnTo = returnToOf(ctx, query.return_to);
    if (kind === 'recovery' && (await currentSession(ctx))) {
      if (type === 'browser' && !ctx.json)
        return { status: 303, redirect: absolute(ctx, returnTo ?? UI_URLS.defaultReturnTo) };
      throw errors.sessionAlreadyAvailable();
    }
    const flow = await insertFlow(kind, type, ctx, returnTo ? { return_to: returnTo } : {});
    return flowCreated(flow, ctx);
  }

  async function updateCodeFlow(
    kind: 'recovery' | 'verification',
    flowId: string | undefined,
    body: FlowBody,
    ctx: RequestContext,
    options: { viaLink?: boolean } = {},
  ): Promise<Outcome> {
    let flow: FlowRow;
    if (options.viaLink) {
      // A link from an email carries the code, which is the proof; the browser opening it
      // may not hold the CSRF cookie of the flow.
      flow = await loadFlow(kind, flowId);
      if (flow.expires_at <= now()) {
        const outcome = await replaceExpired(flow, { ...ctx, json: false });
        return outcome;
      }
    } else {
      const opened = await openForUpdate(kind, flowId, ctx, body);
      if (isOutcome(opened)) return opened;
      flow = opened;
    }
    const texts =
      kind === 'recovery'
        ? {
            retry: text.recoveryRetrySuccess(),
            none: text.recoveryNoStrategy(),
            sent: text.recoveryEmailWithCodeSent(),
            invalid: text.recoveryCodeInvalid(),
            failure: text.recoveryStateFailure(),
          }
        : {
            retry: text.verificationRetrySuccess(),
            none: text.verificationNoStrategy(),
            sent: text.verificationEmailWithCodeSent(),
            invalid: text.verificationCodeInvalid(),
            failure: text.verificationStateFailure(),
          };
    if (flow.state === 'passed_challenge') return flowWithMessages(flow, ctx, { messages: [texts.retry] });
    if (body.method !== undefined && body.method !== 'code')
      return flowWithMessages(flow, ctx, { messages: [texts.none] });

    const code = typeof body.code === 'string' ? body.code.trim() : '';
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';

    if (code && flow.state === 'sent_email' && !email) {
      const attempts = flow.internal.attempts ?? 0;
      if (attempts >= IDENTITY_LIMITS.codeMaxAttempts)
        return flowWithMessages(flow, ctx, { messages: [texts.failure] });
      const used = /^\d{1,12}$/.test(code)
        ? await repository.useCode(flow.id, box.hmac(`${flow.id}:${code}`))
        : undefined;
      if (!used || !used.identity_id) {
        await repository.updateFlow(flow.id, { internal: { ...flow.internal, attempts: attempts + 1 } });
        return flowWithMessages({ ...flow, internal: { ...flow.internal, attempts: attempts + 1 } }, ctx, {
          messages: [texts.invalid],
        });
      }
      if (kind === 'verification') return verificationSucceeded(flow, ctx, used.address);
      return recoverySucceeded(flow, ctx, used.identity_id, used.address);
    }

    if (!email) {
      return flowWithMessages(flow, ctx, {
        node_messages: {
          [flow.state === 'sent_email' ? 'code' : 'email']: [
            text.required(flow.state === 'sent_email' ? 'code' : 'email'),
          ],
        },
      });
    }
    if (!isEmail(email)) {
      return flowWithMessages(flow, ctx, {
        node_messages: { email: [text.validationGeneric(`"${email.slice(0, 320)}" is not valid "email"`)] },
        values: { email: email.slice(0, 320) },
      });
    }
    await rateLimit('codeSendPerIp', ctx.ip);
    await rateLimit('codeSendPerAddress', `${kind}:${email}`);
    const identityId =
      kind === 'recovery'
        ? await repository.findIdentityIdByRecoveryAddress(email)
        : await repository.findIdentityIdByVerifiableAddress(email);
    const updated = await repository.updateFlow(flow.id, {
      state: 'sent_email',
      internal: { ...flow.internal, email, attempts: 0 },
      ui_state: { messages: [texts.sent] },
    });
    // An unknown address gets the same answer and no email: nothing tells whether it exists.
    if (identityId) {
      const identity = await repository.findIdentity(identityId);
      if (identity && identity.state === 'active') {
        await issueAndMailCode(kind, updated, ctx, email, identityId);
      }
    } else {
      logger.debug({ flow: flow.id, kind }, 'Code requested for an address with no account; no email sent');
    }
    if (flow.type === 'browser' && !ctx.json) return { status: 303, redirect: uiUrl(ctx, kind, flow.id) };
    return { status: 200, body: await renderFlow(updated, ctx) };
  }

  async function verificationSucceeded(flow: FlowRow, ctx: RequestContext, email: string): Promise<Outcome> {
    await repository.setAddressStatus(email, 'completed');
    const updated = await repository.updateFlow(flow.id, {
      state: 'passed_challenge',
      ui_state: { messages: [text.verificationSuccessful()] },
    });
    if (flow.type === 'browser' && !ctx.json) return { status: 303, redirect: uiUrl(ctx, 'verification', flow.id) };
    return { status: 200, body: await renderFlow(updated, ctx) };
  }

  async function recoverySucceeded(
    flow: FlowRow,
    ctx: RequestContext,
    identityId: string,
    email: string,
  ): Promise<Outcome> {
    const identity = await repository.findIdentity(identityId);
    if (!identity || identity.state !== 'active')
      return flowWithMessages(flow, ctx, { messages: [text.recoveryCodeInvalid()] });
    // Proving access to the address also verifies it.
    await repository.setAddressStatus(email, 'completed');
    const created = await createSession(identity, [method('code_recovery', 'aal1')], ctx);
    const privilegedUntil = new Date(
      created.session.authenticated_at.getTime() + IDENTITY_LIMITS.privilegedSessionMaxAgeMs,
    );
    const settingsFlow = await insertFlow('settings', flow.type, ctx, {
      identity_id: identity.id,
      session_id: created.session.id,
      ...(flow.return_to ? { return_to: flow.return_to } : {}),
      ui_state: { messages: [text.recoverySuccessful(privilegedUntil, now())] },
    });
    const updated = await repository.updateFlow(flow.id, { state: 'passed_challenge', ui_state: {} });
    const settingsUrl = uiUrl(ctx, 'settings', settingsFlow.id);
    const setSession = { token: created.token, expiresAt: created.session.expires_at };
    const setCsrf = settingsFlow.csrf_token ?? undefined;
    if (flow.type === 'browser') {
      if (!ctx.json) return { status: 303, redirect: settingsUrl, setSession, ...(setCsrf ? { setCsrf } : {}) };
      const error = errors.browserLocationChangeRequired(settingsUrl);
      return { status: 422, body: error.body, setSession, ...(setCsrf ? { setCsrf } : {}) };
    }
    return {
      status: 200,
      body: await renderFlow(updated, ctx, {
        continue_with: [
          { action: 'set_ory_session_token', ory_session_token: created.token },
          { action: 'show_settings_ui', flow: { id: settingsFlow.id, url: settingsUrl } },
        ],
      }),
    };
  }

  // ---------------------------------------------------------------- settings

  async function createSettingsFlow(
    type: 'browser' | 'api',
    ctx: RequestContext,
    query: { return_to?: string },
  ): Promise<Outcome> {
    await rateLimit('flowsPerClient', ctx.ip);
    const returnTo = returnToOf(ctx, query.return_to);
    const resolved = await currentSession(ctx);
    if (!resolved) {
      if (type === 'browser' && !ctx.json) {
        const params = new URLSearchParams({ return_to: ctx.requestUrl });
        return { status: 303, redirect: `${ctx.baseUrl}/self-service/login/browser?${params.toString()}` };
      }
      throw errors.sessionInactive();
    }
    await assertAal(resolved, ctx, ctx.requestUrl);
    const flow = await insertFlow('settings', type, ctx, {
      identity_id: resolved.identity.id,
      session_id: resolved.session.id,
      ...(returnTo ? { return_to: returnTo } : {}),
      internal: await freshSettingsInternal(resolved.identity.id),
    });
    return flowCreated(flow, ctx);
  }

  /** A new TOTP seed is proposed with every settings flow of an identity without TOTP. */
  async function freshSettingsInternal(identityId: string) {
    const hasTotp = (await credentialsOf(identityId)).some((c) => c.type === 'totp');
    return {
      webauthn_challenge: newChallenge(),
      ...(hasTotp ? {} : { totp_pending: box.encrypt(new Secret({ size: 20 }).base32) }),
    };
  }

  function assertPrivileged(resolved: ResolvedSession, flow: FlowRow, ctx: RequestContext) {
    if (now().getTime() - resolved.session.authenticated_at.getTime() <= IDENTITY_LIMITS.privilegedSessionMaxAgeMs)
      return;
    const params = new URLSearchParams({ refresh: 'true', return_to: uiUrl(ctx, 'settings', flow.id) });
    throw errors.sessionRefreshRequired(`${ctx.baseUrl}/self-service/login/browser?${params.toString()}`);
  }

  async function settingsSaved(
    flow: FlowRow,
    ctx: RequestContext,
    patch: { internal?: FlowRow['internal'] } = {},
  ): Promise<Outcome> {
    const updated = await repository.updateFlow(flow.id, {
      state: 'success',
      ui_state: { messages: [text.settingsSaved()] },
      ...patch,
    });
    if (flow.type === 'browser' && !ctx.json)
      return {
        status: 303,
        redirect: flow.return_to ? absolute(ctx, flow.return_to) : uiUrl(ctx, 'settings', flow.id),
      };
    return { status: 200, body: await renderFlow(updated, ctx) };
  }

  async function updateSettingsFlow(flowId: string | undefined, body: FlowBody, ctx: RequestContext): Promise<Outcome> {
    const flow = await loadFlow('settings', flowId);
    const resolved = await currentSession(ctx);
    if (!resolved) throw errors.sessionInactive();
    if (resolved.identity.id !== flow.identity_id) throw errors.identityMismatch();
    if (flow.expires_at <= now()) return replaceExpired(flow, ctx);
    assertCsrf(flow, ctx, body.csrf_token);
    await assertAal(resolved, ctx, uiUrl(ctx, 'settings', flow.id));
    const identity = resolved.identity;
    const chosen = flowMethodOf(body, 'settings');

    try {
      switch (chosen) {
        case 'profile':
          return await updateProfile(flow, ctx, body, resolved);
        case 'password': {
          assertPrivileged(resolved, flow, ctx);
          const password = typeof body.password === 'string' ? body.password : '';
          const problem = password
            ? await passwordPolicyViolation(password, identity.traits)
            : text.required('password');
          if (problem) return flowWithMessages(flow, ctx, { node_messages: { password: [problem] } });
          const hashed = await hashPassword(password);
          await repository.transaction(async (tx) => {
            await repository.upsertCredential(
              identity.id,
              'password',
              { hashed_password: hashed },
              [identity.traits.email],
              tx,
            );
            // Kratos's revoke_active_sessions hook: whoever signed in with the old password (or
            // holds a stolen session) is signed out; the session that changed it stays.
            if (settings.revokeSessionsOnPasswordChange)
              await repository.deactivateSessionsOf(identity.id, resolved.session.id, tx);
          });
          return settingsSaved(flow, ctx);
        }
        case 'totp':
          assertPrivileged(resolved, flow, ctx);
          return await updateTotp(flow, ctx, body, identity);
        case 'lookup_secret':
          assertPrivileged(resolved, flow, ctx);
          return await updateLookup(flow, ctx, body, identity);
        case 'webauthn':
          assertPrivileged(resolved, flow, ctx);
          return await updateWebAuthn(flow, ctx, body, identity);
        case 'oidc':
          assertPrivileged(resolved, flow, ctx);
          if (typeof body.unlink === 'string' && body.unlink) return await unlinkOidc(flow, ctx, body.unlink, identity);
          return await startOidc(flow, ctx, body.link, 'link');
        default:
          return flowWithMessages(flow, ctx, { messages: [text.settingsNoStrategy()] });
      }
    } catch (error) {
      if (
        error instanceof KratosError &&
        error.id === 'session_refresh_required' &&
        flow.type === 'browser' &&
        !ctx.json
      ) {
        return { status: 303, redirect: String(error.body.redirect_browser_to) };
      }
      throw error;
    }
  }

  async function updateProfile(
    flow: FlowRow,
    ctx: RequestContext,
    body: FlowBody,
    resolved: ResolvedSession,
  ): Promise<Outcome> {
    const { traits, messages } = validateTraits(body.traits);
    if (Object.keys(messages).length > 0)
      return flowWithMessages(flow, ctx, { node_messages: messages, values: keepableValues(body) });
    const identity = resolved.identity;
    const emailChanged = traits.email !== identity.traits.email.toLowerCase();
    if (emailChanged) assertPrivileged(resolved, flow, ctx);
    try {
      await repository.transaction(async (tx) => {
        await repository.updateIdentity(identity.id, { traits }, tx);
        if (emailChanged) {
          await repository.syncAddresses(identity.id, traits.email, {}, tx);
          const password = (await credentialsOf(identity.id, tx)).find((c) => c.type === 'password');
          if (password) await repository.upsertCredential(identity.id, 'password', password.config, [traits.email], tx);
        }
      });
    } catch (error) {
      if (isUniqueViolation(error))
        return flowWithMessages(flow, ctx, { messages: [text.duplicateCredentials()], values: keepableValues(body) });
      throw error;
    }
    if (emailChanged) {
      const updatedIdentity = (await repository.findIdentity(identity.id))!;
      await startVerification(flow.type, ctx, updatedIdentity, traits.email, flow.return_to ?? undefined);
    }
    return settingsSaved(flow, ctx);
  }

  async function updateTotp(
    flow: FlowRow,
    ctx: RequestContext,
    body: FlowBody,
    identity: IdentityRow,
  ): Promise<Outcome> {
    if (isTruthy(body.totp_unlink)) {
      await repository.deleteCredential(identity.id, 'totp');
      return settingsSaved(flow, ctx, {
        internal: { ...flow.internal, ...(await freshSettingsInternal(identity.id)) },
      });
    }
    const code = typeof body.totp_code === 'string' ? body.totp_code.trim() : '';
    if (!code) return flowWithMessages(flow, ctx, { node_messages: { totp_code: [text.required('totp_code')] } });
    if (!flow.internal.totp_pending)
      return flowWithMessages(flow, ctx, { node_messages: { totp_code: [text.totpInvalid()] } });
    const secret = box.decrypt(flow.internal.totp_pending);
    const step = totpStepOf(secret, identity.traits.email, code);
    if (step === undefined) return flowWithMessages(flow, ctx, { node_messages: { totp_code: [text.totpInvalid()] } });
    // The code that enables TOTP is used up too: it can not sign in afterwards.
    await repository.transaction(async (tx) => {
      const credential = await repository.upsertCredential(
        identity.id,
        'totp',
        { totp_secret_encrypted: box.encrypt(secret) },
        [identity.id],
        tx,
      );
      await repository.acceptTotpStep(credential.id, step, tx);
    });
    const { totp_pending: _dropped, ...internal } = flow.internal;
    return settingsSaved(flow, ctx, { internal });
  }

  async function updateLookup(
    flow: FlowRow,
    ctx: RequestContext,
    body: FlowBody,
    identity: IdentityRow,
  ): Promise<Outcome> {
    if (isTruthy(body.lookup_secret_regenerate)) {
      const codes = Array.from({ length: IDENTITY_LIMITS.lookupSecretCount }, () => randomLookupCode());
      const updated = await repository.updateFlow(flow.id, {
        state: 'show_form',
        ui_state: {},
        internal: { ...flow.internal, lookup_pending: box.encrypt(JSON.stringify(codes)) },
      });
      if (flow.type === 'browser' && !ctx.json) return { status: 303, redirect: uiUrl(ctx, 'settings', flow.id) };
      return { status: 200, body: await renderFlow(updated, ctx) };
    }
    if (isTruthy(body.lookup_secret_confirm)) {
      if (!flow.internal.lookup_pending) return flowWithMessages(flow, ctx, { messages: [text.noLookup()] });
      const codes = JSON.parse(box.decrypt(flow.internal.lookup_pending)) as string[];
      await repository.upsertCredential(
        identity.id,
        'lookup_secret',
        { lookup_secrets: codes.map((code) => ({ hash: box.hmac(code) })) },
        [identity.id],
      );
      const { lookup_pending: _dropped, ...internal } = flow.internal;
      return settingsSaved(flow, ctx, { internal });
    }
    if (isTruthy(body.lookup_secret_disable)) {
      await repository.deleteCredential(identity.id, 'lookup_secret');
      const { lookup_pending: _dropped, ...internal } = flow.internal;
      return settingsSaved(flow, ctx, { internal });
    }
    if (isTruthy(body.lookup_secret_reveal)) {
      // Backup codes are stored as keyed hashes, so they can be shown only when generated.
      return flowWithMessages(flow, ctx, {
        messages: [
          text.validationGeneric(
            'Backup recovery codes are stored hashed and can not be shown again. Generate new backup recovery codes instead.',
          ),
        ],
      });
    }
    return flowWithMessages(flow, ctx, { messages: [text.settingsNoStrategy()] });
  }

  async function updateWebAuthn(
    flow: FlowRow,
    ctx: RequestContext,
    body: FlowBody,
    identity: IdentityRow,
  ): Promise<Outcome> {
    if (typeof body.webauthn_remove === 'string' && body.webauthn_remove) {
      const removed = await repository.transaction(async (tx) => {
        const credential = (await credentialsOf(identity.id, tx)).find((c) => c.type === 'webauthn');
        const list = (credential?.config.credentials as StoredWebAuthn[] | undefined) ?? [];
        const kept = list.filter((c) => c.id !== body.webauthn_remove);
        if (!credential || kept.length === list.length) return false;
        if (kept.length === 0) await repository.deleteCredential(identity.id, 'webauthn', tx);
        else
          await repository.upsertCredential(
            identity.id,
            'webauthn',
            { ...credential.config, credentials: kept },
            [identity.id],
            tx,
          );
        return true;
      });
      if (!removed) return flowWithMessages(flow, ctx, { messages: [text.noWebAuthnDevice()] });
      return settingsSaved(flow, ctx);
    }
    const response = parseCeremony<RegistrationResponseJSON>(body.webauthn_register);
    if (!response || !flow.internal.webauthn_challenge) {
      return flowWithMessages(flow, ctx, { messages: [text.settingsNoStrategy()] });
    }
    let verification;
    try {
      verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: flow.internal.webauthn_challenge,
        expectedOrigin: ctx.origin,
        expectedRPID: rpIdOf(ctx),
        requireUserVerification: false,
      });
    } catch (error) {
      logger.debug({ reason: error instanceof Error ? error.message : String(error) }, 'WebAuthn registration refused');
      verification = undefined;
    }
    if (!verification?.verified || !verification.registrationInfo) {
      return flowWithMessages(flow, ctx, {
        messages: [text.validationGeneric('The security key could not be registered. Please try again.')],
      });
    }
    const info = verification.registrationInfo.credential;
    const rawName =
      typeof body.webauthn_register_displayname === 'string' ? body.webauthn_register_displayname.trim() : '';
    const entry: StoredWebAuthn = {
      id: info.id,
      public_key: Buffer.from(info.publicKey).toString('base64url'),
      counter: info.counter,
      ...(info.transports ? { transports: info.transports } : {}),
      display_name: (rawName || 'Security key').slice(0, 100),
      added_at: now().toISOString(),
    };
    await repository.transaction(async (tx) => {
      const existing = await webauthnCredentialsOf(identity.id, tx);
      const list = [...existing.filter((c) => c.id !== entry.id), entry];
      await repository.upsertCredential(identity.id, 'webauthn', { credentials: list }, [identity.id], tx);
    });
    return settingsSaved(flow, ctx, { internal: { ...flow.internal, webauthn_challenge: newChallenge() } });
  }

  // ---------------------------------------------------------------- OIDC social sign-in

  type OidcPending = {
    provider: string;
    state: string;
    nonce: string;
    verifier: string;
    intent: 'login' | 'registration' | 'link';
  };
  type OidcLink = { provider: string; subject: string };

  const discoveries = new Map<string, Promise<oidcClient.Configuration>>();

  /** The provider's configuration, discovered once (and again after a failure). */
  function oidcConfiguration(providerId: string): Promise<oidcClient.Configuration> {
    const provider = settings.oidcProviders.find((p) => p.id === providerId)!;
    let pending = discoveries.get(providerId);
    if (!pending) {
      const issuer = new URL(provider.issuer);
      pending = oidcClient.discovery(
        issuer,
        provider.client_id,
        provider.client_secret,
        undefined,
        // An http issuer is only accepted because an administrator configured it explicitly
        // (a provider on the same machine or network, or a test).
        issuer.protocol === 'http:' ? { execute: [oidcClient.allowInsecureRequests] } : undefined,
      );
      pending.catch(() => discoveries.delete(providerId));
      discoveries.set(providerId, pending);
    }
    return pending;
  }

  const oidcCallbackUrl = (ctx: RequestContext, providerId: string) =>
    `${ctx.baseUrl}/self-service/methods/oidc/callback/${encodeURIComponent(providerId)}`;

  async function startOidc(
    flow: FlowRow,
    ctx: RequestContext,
    providerValue: unknown,
    intent: OidcPending['intent'],
  ): Promise<Outcome> {
    const provider = settings.oidcProviders.find((p) => p.id === providerValue);
    if (!provider) {
      return flowWithMessages(flow, ctx, {
        messages: [
          text.validationGeneric(
            `No social sign-in provider '${String(providerValue ?? '').slice(0, 100)}' is configured.`,
          ),
        ],
      });
    }
    if (flow.type !== 'browser') {
      return flowWithMessages(flow, ctx, {
        messages: [text.validationGeneric('Social sign-in needs a browser flow.')],
      });
    }
    let config: oidcClient.Configuration;
    try {
      config = await oidcConfiguration(provider.id);
    } catch (error) {
      logger.warn(
        { provider: provider.id, reason: error instanceof Error ? error.message : String(error) },
        'OIDC discovery failed',
      );
      return flowWithMessages(flow, ctx, {
        messages: [
          text.validationGeneric(
            `The sign-in provider '${provider.label ?? provider.id}' can not be reached right now. Try again later.`,
          ),
        ],
      });
    }
    const pending: OidcPending = {
      provider: provider.id,
      state: `${flow.id}.${oidcClient.randomState()}`,
      nonce: oidcClient.randomNonce(),
      verifier: oidcClient.randomPKCECodeVerifier(),
      intent,
    };
    const url = oidcClient.buildAuthorizationUrl(config, {
      redirect_uri: oidcCallbackUrl(ctx, provider.id),
      scope: (provider.scope ?? ['openid', 'email', 'profile']).join(' '),
      code_challenge: await oidcClient.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    await repository.updateFlow(flow.id, {
      internal: { ...flow.internal, oidc: box.encrypt(JSON.stringify(pending)) },
    });
    if (!ctx.json) return { status: 303, redirect: url.toString() };
    const error = errors.browserLocationChangeRequired(url.toString());
    return { status: 422, body: error.body };
  }

  async function oidcLinks(identityId: string, tx?: Queryable): Promise<OidcLink[]> {
    const credential = (await credentialsOf(identityId, tx)).find((c) => c.type === 'oidc');
    return (credential?.config.providers as OidcLink[] | undefined) ?? [];
  }

  async function saveOidcLinks(identityId: string, links: OidcLink[], tx?: Queryable) {
    if (links.length === 0) await repository.deleteCredential(identityId, 'oidc', tx);
    else
      await repository.upsertCredential(
        identityId,
        'oidc',
        { providers: links },
        links.map((l) => `${l.provider}:${l.subject}`),
        tx,
      );
  }

  async function unlinkOidc(
    flow: FlowRow,
    ctx: RequestContext,
    providerId: string,
    identity: IdentityRow,
  ): Promise<Outcome> {
    const links = await oidcLinks(identity.id);
    const kept = links.filter((l) => l.provider !== providerId);
    if (kept.length === links.length) return flowWithMessages(flow, ctx, { messages: [text.settingsNoStrategy()] });
    const hasPassword = (await credentialsOf(identity.id)).some((c) => c.type === 'password');
    if (!hasPassword && kept.length === 0) {
      return flowWithMessages(flow, ctx, {
        messages: [text.validationGeneric('This is your only way to sign in; set a password before unlinking it.')],
      });
    }
    await saveOidcLinks(identity.id, kept);
    return settingsSaved(flow, ctx);
  }

  /** The provider sent the browser back: finish sign-in, sign-up or linking. */
  async function oidcCallback(
    providerId: string,
    query: { state?: string; code?: string; error?: string; error_description?: string },
    ctx: RequestContext,
  ): Promise<Outcome> {
    const flowId = (query.state ?? '').split('.')[0];
    const flow = await repository.findFlow(
      /^[0-9a-f-]{36}$/i.test(flowId ?? '') ? flowId! : '00000000-0000-0000-0000-000000000000',
    );
    if (!flow || !flow.internal.oidc)
      throw errors.badRequest('The sign-in response does not belong to any sign-in in progress.');
    const pending = JSON.parse(box.decrypt(flow.internal.oidc)) as OidcPending;
    if (pending.provider !== providerId || !safeEqual(pending.state, query.state ?? '')) {
      throw errors.badRequest('The sign-in response does not belong to any sign-in in progress.');
    }
    // The browser that started the flow must be the one finishing it (no login CSRF).
    if (!ctx.csrfCookie || !flow.csrf_token || !safeEqual(ctx.csrfCookie, flow.csrf_token)) {
      throw errors.csrfViolation('The sign-in was finished in another browser than the one that started it.');
    }
    const { oidc: _used, ...internal } = flow.internal;
    await repository.updateFlow(flow.id, { internal });
    flow.internal = internal;
    if (flow.expires_at <= now()) return replaceExpired(flow, ctx);
    const providerLabel = settings.oidcProviders.find((p) => p.id === providerId)?.label ?? providerId;
    if (query.error) {
      return flowWithMessages(flow, ctx, {
        messages: [
          text.validationGeneric(
            `${providerLabel} did not sign you in: ${(query.error_description ?? query.error).slice(0, 300)}`,
          ),
        ],
      });
    }
    let claims: oidcClient.IDToken | undefined;
    try {
      const config = await oidcConfiguration(providerId);
      const tokens = await oidcClient.authorizationCodeGrant(config, new URL(ctx.requestUrl), {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
      // Providers that follow the spec strictly put profile claims only in userinfo.
      if (claims?.sub && typeof claims.email !== 'string' && tokens.access_token) {
        const userinfo = await oidcClient.fetchUserInfo(config, tokens.access_token, claims.sub);
        claims = { ...userinfo, ...claims } as oidcClient.IDToken;
      }
    } catch (error) {
      logger.warn(
        { provider: providerId, reason: error instanceof Error ? error.message : String(error) },
        'OIDC code exchange failed',
      );
    }
    if (!claims?.sub) {
      return flowWithMessages(flow, ctx, {
        messages: [text.validationGeneric(`${providerLabel} did not sign you in. Please try again.`)],
      });
    }
    const subject = String(claims.sub);
    const identifier = `${providerId}:${subject}`;
    const linked = await repository.findCredentialByIdentifier('oidc', identifier);

    if (pending.intent === 'link') {
      const resolved = await currentSession(ctx);
      if (!resolved || resolved.identity.id !== flow.identity_id) throw errors.identityMismatch();
      if (linked && linked.identity_id !== resolved.identity.id)
        return flowWithMessages(flow, ctx, { messages: [text.duplicateCredentialsOnOidcLink()] });
      const links = await oidcLinks(resolved.identity.id);
      if (!links.some((l) => l.provider === providerId))
        await saveOidcLinks(resolved.identity.id, [...links, { provider: providerId, subject }]);
      return settingsSaved(flow, ctx);
    }

    let identity = linked ? await repository.findIdentity(linked.identity_id) : undefined;
    if (!identity) {
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      const { traits, messages } = validateTraits({
        email,
        name: {
          first: typeof claims.given_name === 'string' ? claims.given_name : undefined,
          last: typeof claims.family_name === 'string' ? claims.family_name : undefined,
        },
      });
      if (Object.keys(messages).length > 0) {
        return flowWithMessages(flow, ctx, {
          messages: [text.validationGeneric(`${providerLabel} did not share a valid email address.`)],
        });
      }
      if (await repository.findIdentityByEmail(traits.email)) {
        // As Kratos: an existing account is never taken over by a social profile; its owner
        // signs in and links the provider in the settings.
        return flowWithMessages(flow, ctx, { messages: [text.duplicateCredentialsOnOidcLink()] });
      }
      if (!settings.registrationOpen) {
        return flowWithMessages(flow, ctx, {
          messages: [text.validationGeneric(errors.registrationDisabled().body.error.reason ?? '')],
        });
      }
      identity = await repository.transaction(async (tx) => {
        const created = await repository.insertIdentity({ traits, schemaId: 'default', state: 'active' }, tx);
        await repository.syncAddresses(created.id, traits.email, { verified: claims?.email_verified === true }, tx);
        await saveOidcLinks(created.id, [{ provider: providerId, subject }], tx);
        return created;
      });
    }
    if (identity.state !== 'active') return flowWithMessages(flow, ctx, { messages: [text.invalidCredentials()] });
    const created = await createSession(identity, [method('oidc', 'aal1', providerId)], ctx);
    return loginSucceeded({ ...flow, kind: 'login' }, { ...ctx, json: false }, identity, created, 'oidc');
  }

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

  async function getFlowError(id: string | undefined): Promise<Outcome> {
    if (!id || !/^[0-9a-f-]{36}$/i.test(id))
      throw errors.notFound('Unable to locate the error: the id is missing or malformed.');
    const row = await repository.findFlowError(id);
    if (!row) throw errors.notFound(`Unable to locate the error with id '${id}'.`);
    return {
      status: 200,
      body: {
        id: row.id,
        error: row.error,
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
      },
    };
  }

  async function storeFlowError(error: unknown): Promise<string> {
    return repository.insertFlowError(error);
  }

  return {
    currentSession,
    assertAal,
    highestAal,
    identityView,
    sessionView,
    createSession,
    createLoginFlow,
    updateLoginFlow,
    createRegistrationFlow,
    updateRegistrationFlow,
    createRecoveryFlow: (type: 'browser' | 'api', ctx: RequestContext, query: { return_to?: string }) =>
      createCodeFlow('recovery', type, ctx, query),
    updateRecoveryFlow: (
      flowId: string | undefined,
      body: FlowBody,
      ctx: RequestContext,
      options?: { viaLink?: boolean },
    ) => updateCodeFlow('recovery', flowId, body, ctx, options),
    createVerificationFlow: (type: 'browser' | 'api', ctx: RequestContext, query: { return_to?: string }) =>
      createCodeFlow('verification', type, ctx, query),
    updateVerificationFlow: (
      flowId: string | undefined,
      body: FlowBody,
      ctx: RequestContext,
      options?: { viaLink?: boolean },
    ) => updateCodeFlow('verification', flowId, body, ctx, options),
    createSettingsFlow,
    updateSettingsFlow,
    getFlow,
    createBrowserLogoutFlow,
    updateLogoutFlow,
    performNativeLogout,
    whoami,
    publicConfig,
    listMySessions,
    revokeMyOtherSessions,
    revokeMySession,
    getFlowError,
    storeFlowError,
    oidcCallback,
    /** Internal: used by the admin service for recovery codes and links. */
    insertFlow,
    issueCode,
    displayName,
  };
}

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

export type { Traits };
