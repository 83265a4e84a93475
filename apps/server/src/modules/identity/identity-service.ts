import type { AuthConfigResponse } from '@lookout/contracts';
import { createCodeFlows } from './identity-code-flows.js';
import { createFlowKernel } from './identity-flow-kernel.js';
import { createLoginFlows } from './identity-login.js';
import { createOidcSignIn } from './identity-oidc.js';
import { createRateLimit } from './identity-rate-limits.js';
import { createRegistrationFlows } from './identity-registration.js';
import { createSecondFactors } from './identity-second-factors.js';
import { createIdentitySessions } from './identity-sessions.js';
import { createSettingsFlows } from './identity-settings-flow.js';
import type { FlowBody, IdentityServiceDeps, RequestContext } from './identity-types.js';

/**
 * The built-in identity service, Kratos's self-service API: composes the parts, one file per
 * flow (see README.md), into the one service the routes, the admin service and the session
 * resolver receive.
 */

export type { IdentitySettings } from './identity-types.js';

export type IdentityService = ReturnType<typeof createIdentityService>;

export function createIdentityService({ now = () => new Date(), ...deps }: IdentityServiceDeps) {
  const context = { ...deps, now };
  const rateLimit = createRateLimit(deps.repository);
  const sessions = createIdentitySessions(context);
  const secondFactors = createSecondFactors({ now, credentialsOf: sessions.credentialsOf });
  const flows = createFlowKernel({ context, sessions, secondFactors, rateLimit });
  const oidc = createOidcSignIn({ context, sessions, flows });
  const codeFlows = createCodeFlows({ context, sessions, flows, rateLimit });
  const login = createLoginFlows({ context, sessions, secondFactors, flows, rateLimit, oidc });
  const registration = createRegistrationFlows({ context, sessions, flows, rateLimit, oidc, codeFlows });
  const settingsFlows = createSettingsFlows({ context, sessions, secondFactors, flows, rateLimit, oidc, codeFlows });

  /** `GET /api/auth/config`: the settings the sign-in pages read before any flow exists. */
  function publicConfig(): AuthConfigResponse {
    return { registration_open: deps.settings.registrationOpen, oidc_providers: flows.providers, user_admin: true };
  }

  return {
    currentSession: sessions.currentSession,
    assertAal: sessions.assertAal,
    identityView: sessions.identityView,
    createLoginFlow: login.createLoginFlow,
    updateLoginFlow: login.updateLoginFlow,
    createRegistrationFlow: registration.createRegistrationFlow,
    updateRegistrationFlow: registration.updateRegistrationFlow,
    createRecoveryFlow: (type: 'browser' | 'api', ctx: RequestContext, query: { return_to?: string }) =>
      codeFlows.createCodeFlow('recovery', type, ctx, query),
    updateRecoveryFlow: (
      flowId: string | undefined,
      body: FlowBody,
      ctx: RequestContext,
      options?: { viaLink?: boolean },
    ) => codeFlows.updateCodeFlow('recovery', flowId, body, ctx, options),
    createVerificationFlow: (type: 'browser' | 'api', ctx: RequestContext, query: { return_to?: string }) =>
      codeFlows.createCodeFlow('verification', type, ctx, query),
    updateVerificationFlow: (
      flowId: string | undefined,
      body: FlowBody,
      ctx: RequestContext,
      options?: { viaLink?: boolean },
    ) => codeFlows.updateCodeFlow('verification', flowId, body, ctx, options),
    createSettingsFlow: settingsFlows.createSettingsFlow,
    updateSettingsFlow: settingsFlows.updateSettingsFlow,
    getFlow: flows.getFlow,
    createBrowserLogoutFlow: sessions.createBrowserLogoutFlow,
    updateLogoutFlow: sessions.updateLogoutFlow,
    performNativeLogout: sessions.performNativeLogout,
    whoami: sessions.whoami,
    publicConfig,
    listMySessions: sessions.listMySessions,
    revokeMyOtherSessions: sessions.revokeMyOtherSessions,
    revokeMySession: sessions.revokeMySession,
    getFlowError: flows.getFlowError,
    storeFlowError: flows.storeFlowError,
    oidcCallback: oidc.oidcCallback,
    /** Internal: used by the admin service for recovery codes and links. */
    insertFlow: flows.insertFlow,
    issueCode: codeFlows.issueCode,
  };
}
