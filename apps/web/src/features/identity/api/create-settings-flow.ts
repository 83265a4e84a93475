import type { SettingsFlow } from '@ory/client-fetch';
import { callIdentity, frontendApi } from './ory-client';

export interface CreateSettingsFlowParams {
  returnTo?: string;
}

/** `GET /api/.ory/self-service/settings/browser`: a new settings flow for the signed-in identity. */
export const createSettingsFlow = ({ returnTo }: CreateSettingsFlowParams = {}): Promise<SettingsFlow> =>
  callIdentity(() => frontendApi.createBrowserSettingsFlow(returnTo ? { returnTo } : {}));
