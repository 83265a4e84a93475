import type { VerificationFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

export interface CreateVerificationFlowParams {
  returnTo?: string;
}

/** `GET /api/.ory/self-service/verification/browser`: a new email verification flow (code by email). */
export const createVerificationFlow = ({ returnTo }: CreateVerificationFlowParams = {}): Promise<VerificationFlow> =>
  callIdentity(() => frontendApi.createBrowserVerificationFlow(returnTo ? { returnTo } : {}));
