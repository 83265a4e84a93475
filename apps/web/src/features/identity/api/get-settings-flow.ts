import type { SettingsFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/settings/flows?id=`. */
export const getSettingsFlow = (id: string): Promise<SettingsFlow> =>
  callIdentity(() => frontendApi.getSettingsFlow({ id }));
