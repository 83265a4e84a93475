import type { RecoveryFlow } from '@ory/client-fetch';
import { useMutation } from '@tanstack/react-query';
import { callIdentity, frontendApi } from './ory-client';

export interface CreateRecoveryFlowParams {
  returnTo?: string;
}

/** `GET /api/.ory/self-service/recovery/browser`: a new account recovery flow (code by email). */
export const createRecoveryFlow = ({ returnTo }: CreateRecoveryFlowParams = {}): Promise<RecoveryFlow> =>
  callIdentity(() => frontendApi.createBrowserRecoveryFlow(returnTo ? { returnTo } : {}));

export const useCreateRecoveryFlow = () => useMutation({ mutationFn: createRecoveryFlow });
