import type { RecoveryFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/recovery/flows?id=`. */
export const getRecoveryFlow = (id: string): Promise<RecoveryFlow> =>
  callIdentity(() => frontendApi.getRecoveryFlow({ id }));
