import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { FlowRow } from './flows-repository.js';
import { burnPasswordCheck, safeEqual, verifyPassword } from './identity-crypto.js';
import { isOutcome, type FlowKernel } from './identity-flow-kernel.js';
import { flowMethodOf, IDENTITY_LIMITS, UI_URLS, type Aal } from './identity-fns.js';
import type { OidcSignIn } from './identity-oidc.js';
import { fromClient, type RateLimit } from './identity-rate-limits.js';
import {
  newChallenge,
  parseCeremony,
  rpIdOf,
  type LookupSecret,
  type SecondFactors,
  type StoredWebAuthn,
} from './identity-second-factors.js';
import type { IdentitySessions } from './identity-sessions.js';
import type { FlowBody, IdentityServiceContext, Outcome, RequestContext, ResolvedSession } from './identity-types.js';
import { absolute, returnToOf } from './identity-urls.js';
import { errors } from './kratos-errors-fns.js';
import { text, type UiText } from './kratos-text-fns.js';
import { keepableValues } from './ui-nodes-fns.js';

/**
 * Login: with a password (also re-authentication with `refresh=true`), with a second factor
 * to reach AAL2 (`aal=aal2`: TOTP, a backup code or a security key), or through social
 * sign-in.
 */

export function createLoginFlows({
  context: { repository, box, logger, now },
  sessions: { currentSession, highestAal, createSession, credentialsOf, method },
  secondFactors: { totpStepOf, webauthnCredentialsOf },
  flows: { insertFlow, flowCreated, flowWithMessages, openForUpdate, loginSucceeded },
  rateLimit,
  oidc: { startOidc },
}: {
  context: Pick<IdentityServiceContext, 'repository' | 'box' | 'logger' | 'now'>;
  sessions: IdentitySessions;
  secondFactors: SecondFactors;
  flows: FlowKernel;
  rateLimit: RateLimit;
  oidc: Pick<OidcSignIn, 'startOidc'>;
}) {
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
      // Backup codes issued before a key rotation were hashed under the previous key.
      const hashes = box.hmacCandidates(code);
      const match = secrets.find((secret) => hashes.some((hash) => safeEqual(secret.hash, hash)));
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

  return { createLoginFlow, updateLoginFlow };
}
