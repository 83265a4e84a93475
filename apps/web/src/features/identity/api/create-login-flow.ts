import type { LoginFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

export interface CreateLoginFlowParams {
  /** `aal2`: the second factor (Two-Factor Authentication mode). */
  aal?: 'aal1' | 'aal2';
  /** Re-authenticate an existing session (Confirm Action mode). */
  refresh?: boolean;
  returnTo?: string;
}

/** `GET /api/.ory/self-service/login/browser`: a new login flow (and the CSRF cookie). */
export const createLoginFlow = ({ aal, refresh, returnTo }: CreateLoginFlowParams = {}): Promise<LoginFlow> =>
  callIdentity(() =>
    frontendApi.createBrowserLoginFlow({
      ...(aal ? { aal } : {}),
      ...(refresh ? { refresh: true } : {}),
      ...(returnTo ? { returnTo } : {}),
    }),
  );
