import type { FlowError } from '@ory/client-fetch';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { identityKeys } from './identity-keys';
import { callIdentity, frontendApi } from './ory-client';

/** `GET /api/.ory/self-service/errors?id=`: the error a browser flow was redirected with. */
export const getFlowError = (id: string): Promise<FlowError> => callIdentity(() => frontendApi.getFlowError({ id }));

export const flowErrorQueryOptions = (id: string) =>
  queryOptions({ queryKey: identityKeys.flowError(id), queryFn: () => getFlowError(id), retry: false });

export const useFlowError = (id: string) => useQuery({ ...flowErrorQueryOptions(id), enabled: id !== '' });
