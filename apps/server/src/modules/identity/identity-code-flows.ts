import type { FlowRow } from './flows-repository.js';
import { randomDigits } from './identity-crypto.js';
import { isOutcome, type FlowKernel } from './identity-flow-kernel.js';
import { codeLinkUrl, IDENTITY_LIMITS, isEmail, UI_URLS } from './identity-fns.js';
import type { IdentityRow } from './identities-repository.js';
import type { RateLimit } from './identity-rate-limits.js';
import type { Queryable } from './identity-repository.js';
import type { IdentitySessions } from './identity-sessions.js';
import type { FlowBody, IdentityServiceContext, Outcome, RequestContext } from './identity-types.js';
import { absolute, returnToOf, uiUrl } from './identity-urls.js';
import { errors } from './kratos-errors-fns.js';
import { text } from './kratos-text-fns.js';

/**
 * Recovery and verification by code: a flow takes an address, emails it a code (queued in the
 * courier's outbox with the code, in one transaction), and passes when the code comes back,
 * typed or through the email's link. Recovery then signs in and opens a settings flow.
 */

export type CodeFlows = ReturnType<typeof createCodeFlows>;

export function createCodeFlows({
  context: { repository, box, courier, linkOrigin, logger, now },
  sessions: { currentSession, createSession, method },
  flows: { renderFlow, insertFlow, flowCreated, loadFlow, replaceExpired, flowWithMessages, openForUpdate },
  rateLimit,
}: {
  context: Pick<IdentityServiceContext, 'repository' | 'box' | 'courier' | 'linkOrigin' | 'logger' | 'now'>;
  sessions: IdentitySessions;
  flows: FlowKernel;
  rateLimit: RateLimit;
}) {
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
        ? await repository.useCode(flow.id, box.hmacCandidates(`${flow.id}:${code}`))
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

  return { createCodeFlow, updateCodeFlow, startVerification, issueCode };
}
