import * as oidcClient from 'openid-client';
import type { FlowRow } from './flows-repository.js';
import { safeEqual } from './identity-crypto.js';
import type { FlowKernel } from './identity-flow-kernel.js';
import { validateTraits } from './identity-fns.js';
import type { IdentityRow } from './identities-repository.js';
import type { Queryable } from './identity-repository.js';
import type { IdentitySessions } from './identity-sessions.js';
import type { IdentityServiceContext, Outcome, RequestContext } from './identity-types.js';
import { errors } from './kratos-errors-fns.js';
import { text } from './kratos-text-fns.js';

/**
 * Social sign-in over OpenID Connect: a login or registration flow (or a settings flow, to
 * link a provider) sends the browser to the provider, whose callback signs in, signs up or
 * links; unlinking a provider from the settings.
 */

export type OidcSignIn = ReturnType<typeof createOidcSignIn>;

export function createOidcSignIn({
  context: { repository, box, logger, settings, now },
  sessions: { credentialsOf, currentSession, createSession, method },
  flows: { flowWithMessages, replaceExpired, loginSucceeded, settingsSaved },
}: {
  context: Pick<IdentityServiceContext, 'repository' | 'box' | 'logger' | 'settings' | 'now'>;
  sessions: IdentitySessions;
  flows: FlowKernel;
}) {
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

  return { startOidc, unlinkOidc, oidcCallback };
}
