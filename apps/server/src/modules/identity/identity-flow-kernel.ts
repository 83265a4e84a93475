import { safeEqual, randomToken } from './identity-crypto.js';
import type { FlowKind, FlowRow } from './flows-repository.js';
import { IDENTITY_LIMITS, UI_URLS } from './identity-fns.js';
import type { IdentityRow } from './identities-repository.js';
import type { Queryable } from './identity-repository.js';
import type { RateLimit } from './identity-rate-limits.js';
import { secondFactorsOf, totpEnrolment, webauthnScriptSrc, type SecondFactors } from './identity-second-factors.js';
import type { IdentitySessions } from './identity-sessions.js';
import type { FlowBody, IdentityServiceContext, Outcome, RequestContext } from './identity-types.js';
import { absolute, uiUrl } from './identity-urls.js';
import { errors } from './kratos-errors-fns.js';
import { flowExpiredText, text } from './kratos-text-fns.js';
import type { SessionRow } from './sessions-repository.js';
import {
  applyUiState,
  codeFlowNodes,
  loginNodes,
  registrationNodes,
  settingsNodes,
  type CodeFlowState,
  type UiContainer,
  type UiState,
} from './ui-nodes-fns.js';

/**
 * The flow kernel every flow is built on: a flow row rendered as Kratos's flow JSON with its
 * `ui.nodes`, flows created (with their CSRF token), loaded, checked (CSRF, expiry) and
 * answered, and the answers of a passed login and a saved settings flow, which social
 * sign-in (identity-oidc.ts) gives as well.
 */

export type FlowKernel = ReturnType<typeof createFlowKernel>;

/** A flow, or the outcome that answers the request instead (an expired flow's replacement). */
export const isOutcome = (value: FlowRow | Outcome): value is Outcome => 'status' in value && !('kind' in value);

export function createFlowKernel({
  context: { repository, box, settings, now },
  sessions,
  secondFactors,
  rateLimit,
}: {
  context: Pick<IdentityServiceContext, 'repository' | 'box' | 'settings' | 'now'>;
  sessions: IdentitySessions;
  secondFactors: SecondFactors;
  rateLimit: RateLimit;
}) {
  const { credentialsOf, currentSession, assertAal } = sessions;
  const { webauthnLoginOptions, webauthnSettings } = secondFactors;

  /** The OIDC providers as the sign-in pages offer them. */
  const providers = settings.oidcProviders.map((provider) => ({
    id: provider.id,
    label: provider.label ?? provider.id,
  }));

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
          if (flow.requested_aal === 'aal2') secondFactors = secondFactorsOf(await credentialsOf(flow.identity_id));
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
                webauthnOptions: await webauthnLoginOptions(flow.identity_id, flow.internal.webauthn_challenge, ctx),
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
        const summary = secondFactorsOf(credentials);
        let pendingTotp: { secret: string; qrDataUrl: string } | undefined;
        if (!summary.totp && flow.internal.totp_pending && identity) {
          pendingTotp = await totpEnrolment(box.decrypt(flow.internal.totp_pending), identity.traits.email);
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
      if (identity) body.identity = await sessions.identityView(identity, ctx);
    }
    return { ...body, ...extra };
  }

  // ---------------------------------------------------------------- flows: lifecycle

  function newCsrf(ctx: RequestContext): string {
    // One token per browser: reuse the cookie so flows opened in two tabs both work.
    return ctx.csrfCookie && /^[A-Za-z0-9_-]{43}$/.test(ctx.csrfCookie) ? ctx.csrfCookie : randomToken();
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

  // ---------------------------------------------------------------- flows: finished

  /** A login flow passed (password, second factor or social sign-in): the session it gives. */
  async function loginSucceeded(
    flow: FlowRow,
    ctx: RequestContext,
    identity: IdentityRow,
    result: { session: SessionRow; token: string },
    activeMethod: string,
  ): Promise<Outcome> {
    await repository.updateFlow(flow.id, { state: 'passed_challenge', active: activeMethod, ui_state: {} });
    const needsAal2 = result.session.aal === 'aal1' && (await sessions.highestAal(identity.id)) === 'aal2';
    if (flow.type === 'api') {
      const session = await sessions.sessionView(result.session, identity, ctx);
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
        ? sessions.aal2LoginUrl(ctx, flow.return_to ?? undefined)
        : absolute(ctx, flow.return_to ?? UI_URLS.defaultReturnTo);
      return { status: 303, redirect: target, setSession };
    }
    const session = await sessions.sessionView(result.session, identity, ctx);
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

  /** A settings flow saved a change (also a provider linked by social sign-in). */
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

  // ---------------------------------------------------------------- flow errors

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
    providers,
    renderFlow,
    insertFlow,
    flowCreated,
    loadFlow,
    assertCsrf,
    replaceExpired,
    flowWithMessages,
    getFlow,
    openForUpdate,
    loginSucceeded,
    settingsSaved,
    getFlowError,
    storeFlowError,
  };
}
