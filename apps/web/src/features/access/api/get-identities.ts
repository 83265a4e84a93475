import { identitiesResponseSchema } from '@lookout/contracts';
import type { IdentityRow } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { accessKeys } from './access-keys';

/** The identity columns the Users page shows (spec 1, section 3); no credentials live here anyway. */
const IDENTITY_COLUMNS = 'id,state,traits,created_at,state_changed_at,updated_at';

/** `GET /api/db/identities`: every user of the built-in identity service, oldest first. */
export const getIdentities = async (): Promise<IdentityRow[]> => {
  const { data } = await dbApi.get<unknown>('/identities', {
    params: { select: IDENTITY_COLUMNS, order: 'created_at.asc' },
  });
  return identitiesResponseSchema.parse(data);
};

/** Administration lists are read fresh on every visit, like the original's settings queries. */
export const identitiesQueryOptions = () =>
  queryOptions({ queryKey: accessKeys.identities(), queryFn: getIdentities, staleTime: 0 });

export const useIdentities = (options: { enabled?: boolean } = {}) =>
  useQuery({ ...identitiesQueryOptions(), enabled: options.enabled ?? true });
