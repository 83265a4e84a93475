import { IDENTITY_MESSAGES } from '@lookout/contracts';
import { useCallback } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { identityErrorOf } from '../api/ory-client';
import { useRedirect } from '../hooks/use-flow-error-handler';
import { useForgetSession } from '../hooks/use-forget-session';
import { useSelfServiceFlow } from '../hooks/use-self-service-flow';
import type { FlowDone } from '../hooks/use-self-service-flow';
import { loginPath } from '../lib/browser-location';
import { FlowBodyView } from './flow-body-view';
import { identityClasses } from './flow-node';
import { IdentityCard } from './identity-card';

/** True when the server refused to start a registration: the installation is invite-only. */
function isRegistrationClosed(error: unknown): boolean {
  const detail = identityErrorOf(error);
  return detail?.id === 'self_service_flow_disabled' || detail?.status === 403;
}

/** /registration, 'Create account' (spec 1, section 2.6). */
export function RegistrationView() {
  const [searchParams] = useSearchParams();
  const returnTo = searchParams.get('return_to') || undefined;
  const navigate = useNavigate();
  const redirect = useRedirect();
  const forgetSession = useForgetSession();

  const onDone = useCallback(
    (result: FlowDone) => {
      forgetSession();
      for (const item of result.continueWith) {
        if (item.action === 'show_verification_ui') {
          void navigate(`/verification?flow=${encodeURIComponent(item.flow.id)}`);
          return;
        }
        if (item.action === 'redirect_browser_to') {
          redirect(item.redirect_browser_to);
          return;
        }
      }
      redirect(returnTo ?? '/');
    },
    [forgetSession, navigate, redirect, returnTo],
  );

  const controller = useSelfServiceFlow({
    kind: 'registration',
    params: returnTo ? { returnTo } : {},
    returnTo,
    home: returnTo ?? '/',
    onDone,
  });

  return (
    <IdentityCard
      title={IDENTITY_MESSAGES.createAccount}
      footer={
        <Link to={loginPath({ returnTo })} className={identityClasses.link}>
          {IDENTITY_MESSAGES.backToSignIn}
        </Link>
      }
    >
      {isRegistrationClosed(controller.error) ? (
        <p role="status" className="text-sm text-slate-700">
          {IDENTITY_MESSAGES.registrationClosed}
        </p>
      ) : (
        <FlowBodyView controller={controller} />
      )}
    </IdentityCard>
  );
}
