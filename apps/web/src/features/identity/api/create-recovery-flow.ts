import type { RecoveryFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

export interface CreateRecoveryFlowParams {
  returnTo?: string;
}

/** `GET /api/.ory/self-service/recovery/browser`: a new account recovery flow (code by email). */
export const createRecoveryFlow = ({ returnTo }: CreateRecoveryFlowParams = {}): Promise<RecoveryFlow> =>
  callIdentity(() => frontendApi.createBrowserRecoveryFlow(returnTo ? { returnTo } : {}));
