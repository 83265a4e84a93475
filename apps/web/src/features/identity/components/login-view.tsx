import { IDENTITY_MESSAGES } from '@lookout/contracts';
import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAuthConfig } from '../api/get-auth-config';
import { useRedirect } from '../hooks/use-flow-error-handler';
import { useForgetSession } from '../hooks/use-forget-session';
import { useSelfServiceFlow } from '../hooks/use-self-service-flow';
import type { FlowDone } from '../hooks/use-self-service-flow';
import { useSignOutAndGo } from '../hooks/use-sign-out-and-go';
import { FlowBodyView } from './flow-body-view';
import { identityClasses } from './flow-node';
import { IdentityCard } from './identity-card';

type LoginMode = 'signIn' | 'twoFactor' | 'confirm';

const TITLES: Record<LoginMode, string> = {
  signIn: IDENTITY_MESSAGES.signInTitle,
  twoFactor: IDENTITY_MESSAGES.twoFactorTitle,
  confirm: IDENTITY_MESSAGES.confirmActionTitle,
};

/** `/registration?return_to=...`: carries the page's return_to over to a sibling page. */
const withReturnTo = (path: string, returnTo: string | undefined) =>
  returnTo ? `${path}?${new URLSearchParams({ return_to: returnTo }).toString()}` : path;

/**
 * /login in its three modes (spec 1, section 2.6): Sign In; Two-Factor Authentication
 * (`?aal=aal2`); Confirm Action (`?refresh=true`). After success the browser goes to
 * `return_to`, else `/`.
 */
export function LoginView() {
  const [searchParams] = useSearchParams();
  const aal2 = searchParams.get('aal') === 'aal2';
  const refresh = searchParams.get('refresh') === 'true';
  const returnTo = searchParams.get('return_to') || undefined;
  const mode: LoginMode = aal2 ? 'twoFactor' : refresh ? 'confirm' : 'signIn';
  const redirect = useRedirect();
  const forgetSession = useForgetSession();

  const onDone = useCallback(
    (result: FlowDone) => {
      forgetSession();
      const next = result.continueWith.find((item) => item.action === 'redirect_browser_to');
      redirect(next?.action === 'redirect_browser_to' ? next.redirect_browser_to : (returnTo ?? '/'));
    },
    [forgetSession, redirect, returnTo],
  );

  const controller = useSelfServiceFlow({
    kind: 'login',
    params: {
      ...(aal2 ? { aal: 'aal2' } : {}),
      ...(refresh ? { refresh: true } : {}),
      ...(returnTo ? { returnTo } : {}),
    },
    returnTo,
    home: returnTo ?? '/',
    onDone,
  });
  const authConfig = useAuthConfig({ enabled: mode === 'signIn' });

  const footer =
    mode === 'signIn' ? (
      <>
        {authConfig.data?.registration_open === true && (
          <Link to={withReturnTo('/registration', returnTo)} className={identityClasses.link}>
            {IDENTITY_MESSAGES.createAccount}
          </Link>
        )}
        <Link to={withReturnTo('/recovery', returnTo)} className={identityClasses.link}>
          {IDENTITY_MESSAGES.recoverAccount}
        </Link>
      </>
    ) : (
      <SignOutLink />
    );

  return (
    <IdentityCard title={TITLES[mode]} footer={footer}>
      <FlowBodyView controller={controller} />
    </IdentityCard>
  );
}

/**
 * On the second-factor and confirm pages a session exists already: signing out is the way
 * back for someone who cannot complete them (a lost authenticator, the wrong account).
 */
function SignOutLink() {
  const signOut = useSignOutAndGo('/login');
  return (
    <button
      type="button"
      className={identityClasses.link}
      disabled={signOut.isPending}
      onClick={() => signOut.mutate()}
    >
      {IDENTITY_MESSAGES.signOut}
    </button>
  );
}
