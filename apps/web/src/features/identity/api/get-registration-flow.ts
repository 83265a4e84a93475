import type { RegistrationFlow } from '@ory/client-fetch';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { flowQueryDefaults } from './flow-query-defaults';
import { identityKeys } from './identity-keys';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/registration/flows?id=`. */
export const getRegistrationFlow = (id: string): Promise<RegistrationFlow> =>
  callIdentity(() => frontendApi.getRegistrationFlow({ id }));

export const registrationFlowQueryOptions = (id: string) =>
  queryOptions({
    queryKey: identityKeys.flow('registration', id),
    queryFn: () => getRegistrationFlow(id),
    ...flowQueryDefaults,
  });

export const useRegistrationFlow = (id: string) => useQuery(registrationFlowQueryOptions(id));
