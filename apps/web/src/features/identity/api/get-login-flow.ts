import type { LoginFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/login/flows?id=`. */
export const getLoginFlow = (id: string): Promise<LoginFlow> => callIdentity(() => frontendApi.getLoginFlow({ id }));
