import { IDENTITY_MESSAGES } from '@lookout/contracts';
import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useRedirect } from '../hooks/use-flow-error-handler';
import { useSelfServiceFlow } from '../hooks/use-self-service-flow';
import type { FlowDone } from '../hooks/use-self-service-flow';
import { loginPath } from '../lib/browser-location';
import { FlowBodyView } from './flow-body-view';
import { identityClasses } from './flow-node';
import { IdentityCard } from './identity-card';

export interface CodeFlowViewProps {
  kind: 'recovery' | 'verification';
}

/**
 * /recovery ('Recover account') and /verification: an email address, then the code sent to
 * it. A correct recovery code signs the user in and the server sends the browser on to
 * /profile-settings to set a new password (422 `browser_location_change_required`).
 */
export function CodeFlowView({ kind }: CodeFlowViewProps) {
  const [searchParams] = useSearchParams();
  const returnTo = searchParams.get('return_to') || undefined;
  const redirect = useRedirect();
  const onDone = useCallback(
    (result: FlowDone) => {
      const next = result.continueWith.find((item) => item.action === 'redirect_browser_to');
      redirect(next?.action === 'redirect_browser_to' ? next.redirect_browser_to : (returnTo ?? '/'));
    },
    [redirect, returnTo],
  );
  const controller = useSelfServiceFlow({
    kind,
    params: returnTo ? { returnTo } : {},
    returnTo,
    home: returnTo ?? '/',
    onDone,
  });
  return (
    <IdentityCard
      title={kind === 'recovery' ? IDENTITY_MESSAGES.recoverAccount : IDENTITY_MESSAGES.verifyAccount}
      footer={
        <Link to={loginPath({ returnTo })} className={identityClasses.link}>
          {IDENTITY_MESSAGES.backToSignIn}
        </Link>
      }
    >
      <FlowBodyView controller={controller} />
    </IdentityCard>
  );
}
