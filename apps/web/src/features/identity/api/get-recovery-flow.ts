import type { RecoveryFlow } from '@ory/client-fetch';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { flowQueryDefaults } from './flow-query-defaults';
import { identityKeys } from './identity-keys';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/recovery/flows?id=`. */
export const getRecoveryFlow = (id: string): Promise<RecoveryFlow> =>
  callIdentity(() => frontendApi.getRecoveryFlow({ id }));

export const recoveryFlowQueryOptions = (id: string) =>
  queryOptions({
    queryKey: identityKeys.flow('recovery', id),
    queryFn: () => getRecoveryFlow(id),
    ...flowQueryDefaults,
  });

export const useRecoveryFlow = (id: string) => useQuery(recoveryFlowQueryOptions(id));
