import { IDENTITY_MESSAGES } from '@lookout/contracts';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/components/ui/toast';
import type { IdentityError } from '../api/ory-client';
import { appPathOf, browserLocation, loginPath } from '../lib/browser-location';

/** What the page should do after the handler has looked at an error. */
export type FlowErrorOutcome =
  /** Start the flow anew (expired, CSRF, 410); `withoutReturnTo` drops a refused return_to. */
  | { action: 'restart'; withoutReturnTo?: boolean; useFlowId?: string }
  /** The handler navigated away. */
  | { action: 'navigated' }
  /** Nothing the spec routes: the page shows the error. */
  | { action: 'show' };

export interface FlowErrorHandlerOptions {
  /** Where sign-in should come back to (the page's own address, or its return_to). */
  returnTo: string | undefined;
  /** Where "go home" leads: the page's return_to, else `/`. */
  home: string;
}

/** Follows a `redirect_browser_to`: inside the app when it can, else a full page load. */
export function useRedirect() {
  const navigate = useNavigate();
  return useCallback(
    (url: string) => {
      const path = appPathOf(url);
      if (path === undefined) browserLocation.assign(url);
      else void navigate(path);
    },
    [navigate],
  );
}

/**
 * Kratos's error ids as spec 1, section 4 routes them: second factor, home, refresh, login,
 * and a restart (with the spec's section 8 message) for expiry, CSRF and a refused return_to.
 */
export function useFlowErrorHandler({ returnTo, home }: FlowErrorHandlerOptions) {
  const navigate = useNavigate();
  const redirect = useRedirect();
  return useCallback(
    (error: IdentityError): FlowErrorOutcome => {
      const go = (path: string): FlowErrorOutcome => {
        void navigate(path);
        return { action: 'navigated' };
      };
      switch (error.id) {
        case 'session_aal2_required':
          return go(loginPath({ aal2: true, returnTo }));
        case 'session_already_available':
        case 'session_aal_already_fulfilled':
          redirect(home);
          return { action: 'navigated' };
        case 'session_refresh_required':
          return go(loginPath({ refresh: true, returnTo }));
        case 'session_inactive':
        case 'session_aal1_required':
          return go(loginPath({ returnTo }));
        case 'self_service_flow_return_to_forbidden':
          toast.error(IDENTITY_MESSAGES.returnToForbidden);
          return { action: 'restart', withoutReturnTo: true };
        case 'self_service_flow_expired':
          toast.error(IDENTITY_MESSAGES.flowExpired);
          return { action: 'restart', ...(error.useFlowId ? { useFlowId: error.useFlowId } : {}) };
        case 'security_csrf_violation':
          toast.error(IDENTITY_MESSAGES.csrfViolation);
          return { action: 'restart' };
        case 'security_identity_mismatch':
          return { action: 'restart' };
        case 'browser_location_change_required':
          if (error.redirectBrowserTo) {
            redirect(error.redirectBrowserTo);
            return { action: 'navigated' };
          }
          break;
        default:
          break;
      }
      if (error.status === 410) return { action: 'restart' };
      if (error.status === 422 && error.redirectBrowserTo) {
        redirect(error.redirectBrowserTo);
        return { action: 'navigated' };
      }
      // A flow id that no longer exists (an old link, a reset database): a fresh flow serves.
      if (error.status === 404) return { action: 'restart' };
      return { action: 'show' };
    },
    [navigate, redirect, returnTo, home],
  );
}
