import type { RegistrationFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

export interface CreateRegistrationFlowParams {
  returnTo?: string;
}

/** `GET /api/.ory/self-service/registration/browser`: a new registration flow. Fails with `self_service_flow_disabled` (or 403) while registration is invite-only. */
export const createRegistrationFlow = ({ returnTo }: CreateRegistrationFlowParams = {}): Promise<RegistrationFlow> =>
  callIdentity(() => frontendApi.createBrowserRegistrationFlow(returnTo ? { returnTo } : {}));
