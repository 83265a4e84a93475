import type { Session } from '@ory/client-fetch';
import { queryOptions } from '@tanstack/react-query';
import { identityKeys } from './identity-keys';
import { callIdentity, frontendApi } from './ory-client';

/**
 * `GET /api/.ory/sessions/whoami`: the browser's session. 401 means signed out; 403 or 422
 * mean a second factor is still due (spec 1, section 4).
 */
export const getSession = (): Promise<Session> => callIdentity(() => frontendApi.toSession());

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: identityKeys.session(),
    queryFn: getSession,
    // A 4xx is an answer (sign in), not a hiccup; the gate acts on it at once.
    retry: false,
    refetchOnWindowFocus: false,
  });
