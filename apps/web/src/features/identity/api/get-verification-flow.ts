import type { VerificationFlow } from '@ory/client-fetch';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { flowQueryDefaults } from './flow-query-defaults';
import { identityKeys } from './identity-keys';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/verification/flows?id=`. */
export const getVerificationFlow = (id: string): Promise<VerificationFlow> =>
  callIdentity(() => frontendApi.getVerificationFlow({ id }));

export const verificationFlowQueryOptions = (id: string) =>
  queryOptions({
    queryKey: identityKeys.flow('verification', id),
    queryFn: () => getVerificationFlow(id),
    ...flowQueryDefaults,
  });

export const useVerificationFlow = (id: string) => useQuery(verificationFlowQueryOptions(id));
