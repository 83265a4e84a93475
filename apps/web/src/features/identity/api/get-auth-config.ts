import { authConfigResponseSchema } from '@lookout/contracts';
import type { AuthConfigResponse } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { authApi } from '@/lib/api-client';
import { identityKeys } from './identity-keys';

/** What the sign-in pages need before any flow: whether sign-up is open, the OIDC providers. */
export type AuthConfig = AuthConfigResponse;

/** `GET /api/auth/config` (public): read without a session, once per page load. */
export const getAuthConfig = async (): Promise<AuthConfig> => {
  const { data } = await authApi.get<unknown>('/config');
  return authConfigResponseSchema.parse(data);
};

export const authConfigQueryOptions = () =>
  queryOptions({
    queryKey: identityKeys.config(),
    queryFn: getAuthConfig,
    // A server setting: it changes only with a restart of the server.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  });

export const useAuthConfig = (options: { enabled?: boolean } = {}) =>
  useQuery({ ...authConfigQueryOptions(), enabled: options.enabled ?? true });
