import type { LoginFlow } from '@ory/client-fetch';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { flowQueryDefaults } from './flow-query-defaults';
import { identityKeys } from './identity-keys';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/login/flows?id=`. */
export const getLoginFlow = (id: string): Promise<LoginFlow> => callIdentity(() => frontendApi.getLoginFlow({ id }));

export const loginFlowQueryOptions = (id: string) =>
  queryOptions({ queryKey: identityKeys.flow('login', id), queryFn: () => getLoginFlow(id), ...flowQueryDefaults });

export const useLoginFlow = (id: string) => useQuery(loginFlowQueryOptions(id));
