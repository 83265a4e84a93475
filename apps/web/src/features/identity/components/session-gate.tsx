import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ErrorPanel } from '@/components/ui/error-boundary';
import { onUnauthorized } from '@/lib/api-client';
import { sessionQueryOptions } from '../api/get-session';
import { whoamiQueryOptions } from '../api/get-whoami';
import { identityErrorOf } from '../api/ory-client';
import { CurrentUserContext } from '../hooks/use-current-user';
import { loginPath } from '../lib/browser-location';

export interface SessionGateProps {
  children: ReactNode;
  /** Shown while the session and the user are being read. */
  fallback: ReactNode;
}

/**
 * Lets the console render only for a signed-in user (ui-calls section 2, spec 1 section 4):
 * the Kratos session first (401 → sign in; 403 or 422 → second factor), then
 * `GET /api/auth/whoami` for the user the pages read through `useCurrentUser`. While mounted,
 * any API 401 sends the browser to sign-in with `return_to` set to where it was.
 */
export function SessionGate({ children, fallback }: SessionGateProps) {
  const location = useLocation();
  const navigate = useNavigate();
  // gcTime 0: an answer must not outlive the gate, or signing in would meet the old 401.
  const session = useQuery({ ...sessionQueryOptions(), gcTime: 0 });
  const whoami = useQuery({ ...whoamiQueryOptions(), enabled: session.isSuccess, gcTime: 0 });

  const here = useRef('/');
  useEffect(() => {
    here.current = `${location.pathname}${location.search}`;
  }, [location]);
  useEffect(
    () =>
      onUnauthorized(() => {
        void navigate(loginPath({ returnTo: here.current }), { replace: true });
      }),
    [navigate],
  );

  if (session.isPending) return fallback;
  if (session.isError) {
    const status = identityErrorOf(session.error)?.status;
    const returnTo = `${location.pathname}${location.search}`;
    if (status === 401) return <Navigate replace to={loginPath({ returnTo })} />;
    if (status === 403 || status === 422) return <Navigate replace to={loginPath({ aal2: true, returnTo })} />;
    return <ErrorPanel error={session.error} onRetry={() => void session.refetch()} />;
  }
  if (whoami.isPending) return fallback;
  // The original console shows an error page when the user cannot be read (a 401 has already
  // been sent to sign-in by the handler above).
  if (whoami.isError) return <ErrorPanel error={whoami.error} onRetry={() => void whoami.refetch()} />;
  return <CurrentUserContext value={whoami.data}>{children}</CurrentUserContext>;
}
