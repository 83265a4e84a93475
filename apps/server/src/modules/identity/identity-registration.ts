import { hashPassword } from './identity-crypto.js';
import type { CodeFlows } from './identity-code-flows.js';
import { isOutcome, type FlowKernel } from './identity-flow-kernel.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { flowMethodOf, UI_URLS, validateTraits } from './identity-fns.js';
import type { IdentityRow } from './identities-repository.js';
import type { OidcSignIn } from './identity-oidc.js';
import type { RateLimit } from './identity-rate-limits.js';
import type { IdentitySessions } from './identity-sessions.js';
import type { FlowBody, IdentityServiceContext, Outcome, RequestContext } from './identity-types.js';
import { absolute, returnToOf, uiUrl } from './identity-urls.js';
import { errors } from './kratos-errors-fns.js';
import { text } from './kratos-text-fns.js';
import { passwordPolicyViolation } from './password-policy.js';
import type { SessionRow } from './sessions-repository.js';
import { keepableValues } from './ui-nodes-fns.js';

/**
 * Registration with a password (or social sign-in): open only with LOOKOUT_REGISTRATION_OPEN;
 * a new identity is signed in at once and sent a verification code.
 */

export function createRegistrationFlows({
  context: { repository, settings },
  sessions: { identityView, sessionView, currentSession, createSession, method },
  flows: { insertFlow, flowCreated, flowWithMessages, openForUpdate },
  rateLimit,
  oidc: { startOidc },
  codeFlows: { startVerification },
}: {
  context: Pick<IdentityServiceContext, 'repository' | 'settings'>;
  sessions: IdentitySessions;
  flows: FlowKernel;
  rateLimit: RateLimit;
  oidc: Pick<OidcSignIn, 'startOidc'>;
  codeFlows: Pick<CodeFlows, 'startVerification'>;
}) {
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

  return { createRegistrationFlow, updateRegistrationFlow };
}
