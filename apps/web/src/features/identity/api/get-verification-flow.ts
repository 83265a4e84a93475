import type { VerificationFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/verification/flows?id=`. */
export const getVerificationFlow = (id: string): Promise<VerificationFlow> =>
  callIdentity(() => frontendApi.getVerificationFlow({ id }));
