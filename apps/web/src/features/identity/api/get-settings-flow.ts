import type { SettingsFlow } from '@ory/client-fetch';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { flowQueryDefaults } from './flow-query-defaults';
import { identityKeys } from './identity-keys';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/settings/flows?id=`. */
export const getSettingsFlow = (id: string): Promise<SettingsFlow> =>
  callIdentity(() => frontendApi.getSettingsFlow({ id }));

export const settingsFlowQueryOptions = (id: string) =>
  queryOptions({
    queryKey: identityKeys.flow('settings', id),
    queryFn: () => getSettingsFlow(id),
    ...flowQueryDefaults,
  });

export const useSettingsFlow = (id: string) => useQuery(settingsFlowQueryOptions(id));
