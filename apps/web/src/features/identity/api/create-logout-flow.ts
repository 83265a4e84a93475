import type { LogoutFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/logout/browser`: a logout token for the current session. */
export const createLogoutFlow = (returnTo?: string): Promise<LogoutFlow> =>
  callIdentity(() => frontendApi.createBrowserLogoutFlow(returnTo ? { returnTo } : {}));
