import { verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FlowRow } from './flows-repository.js';
import type { CodeFlows } from './identity-code-flows.js';
import { hashPassword, randomLookupCode } from './identity-crypto.js';
import type { FlowKernel } from './identity-flow-kernel.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { flowMethodOf, IDENTITY_LIMITS, isTruthy, validateTraits } from './identity-fns.js';
import type { IdentityRow } from './identities-repository.js';
import type { OidcSignIn } from './identity-oidc.js';
import type { RateLimit } from './identity-rate-limits.js';
import {
  newChallenge,
  newTotpSecret,
  parseCeremony,
  rpIdOf,
  type SecondFactors,
  type StoredWebAuthn,
} from './identity-second-factors.js';
import type { IdentitySessions } from './identity-sessions.js';
import type { FlowBody, IdentityServiceContext, Outcome, RequestContext, ResolvedSession } from './identity-types.js';
import { returnToOf, uiUrl } from './identity-urls.js';
import { errors, KratosError } from './kratos-errors-fns.js';
import { text } from './kratos-text-fns.js';
import { passwordPolicyViolation } from './password-policy.js';
import { keepableValues } from './ui-nodes-fns.js';

/**
 * The settings flow: profile (a new email is verified again), password (the password
 * policy; other sessions end), TOTP, backup codes, security keys and social sign-in links.
 * Changing credentials or the email needs a session authenticated in the last 15 minutes.
 */

export function createSettingsFlows({
  context: { repository, box, logger, settings, now },
  sessions: { currentSession, assertAal, credentialsOf },
  secondFactors: { totpStepOf, webauthnCredentialsOf },
  flows: { renderFlow, insertFlow, flowCreated, loadFlow, assertCsrf, replaceExpired, flowWithMessages, settingsSaved },
  rateLimit,
  oidc: { startOidc, unlinkOidc },
  codeFlows: { startVerification },
}: {
  context: Pick<IdentityServiceContext, 'repository' | 'box' | 'logger' | 'settings' | 'now'>;
  sessions: IdentitySessions;
  secondFactors: SecondFactors;
  flows: FlowKernel;
  rateLimit: RateLimit;
  oidc: Pick<OidcSignIn, 'startOidc' | 'unlinkOidc'>;
  codeFlows: Pick<CodeFlows, 'startVerification'>;
}) {
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
      ...(hasTotp ? {} : { totp_pending: box.encrypt(newTotpSecret()) }),
    };
  }

  function assertPrivileged(resolved: ResolvedSession, flow: FlowRow, ctx: RequestContext) {
    if (now().getTime() - resolved.session.authenticated_at.getTime() <= IDENTITY_LIMITS.privilegedSessionMaxAgeMs)
      return;
    const params = new URLSearchParams({ refresh: 'true', return_to: uiUrl(ctx, 'settings', flow.id) });
    throw errors.sessionRefreshRequired(`${ctx.baseUrl}/self-service/login/browser?${params.toString()}`);
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

  return { createSettingsFlow, updateSettingsFlow };
}
