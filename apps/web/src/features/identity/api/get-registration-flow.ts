import type { RegistrationFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/registration/flows?id=`. */
export const getRegistrationFlow = (id: string): Promise<RegistrationFlow> =>
  callIdentity(() => frontendApi.getRegistrationFlow({ id }));
