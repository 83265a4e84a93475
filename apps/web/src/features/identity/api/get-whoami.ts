import { authWhoamiResponseSchema } from '@lookout/contracts';
import type { AuthWhoamiResponse } from '@lookout/contracts';
import { queryOptions } from '@tanstack/react-query';
import { authApi } from '@/lib/api-client';
import { identityKeys } from './identity-keys';

/** The signed-in user as the console shows it. */
export type CurrentUser = AuthWhoamiResponse['payload']['user'];

/** `GET /api/auth/whoami`: the signed-in user (`payload.user`), read once at start. */
export const getWhoami = async (): Promise<CurrentUser> => {
  const { data } = await authApi.get<unknown>('/whoami');
  return authWhoamiResponseSchema.parse(data).payload.user;
};

export const whoamiQueryOptions = () =>
  queryOptions({ queryKey: identityKeys.whoami(), queryFn: getWhoami, refetchOnWindowFocus: false });
