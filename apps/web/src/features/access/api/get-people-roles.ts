import { peopleRolesResponseSchema } from '@lookout/contracts';
import type { PeopleRolesRow } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { accessKeys } from './access-keys';

/**
 * `GET /api/db/people_roles?id=in.(<ids>)`: the roles of these people, highest rank first
 * (an empty list is a viewer). The console reads the signed-in user's row for its permission
 * checks, and the Users page the rows of everyone it lists.
 */
export const getPeopleRoles = async (ids: readonly string[]): Promise<PeopleRolesRow[]> => {
  const { data } = await dbApi.get<unknown>('/people_roles', { params: { id: `in.(${ids.join(',')})` } });
  return peopleRolesResponseSchema.parse(data);
};

/**
 * Roles are read fresh each time (spec 1, section 6): stale at once, so every new observer,
 * window focus or refresh asks again and a role change shows without a reload.
 */
export const peopleRolesQueryOptions = (ids: readonly string[]) =>
  queryOptions({
    queryKey: accessKeys.peopleRoles(ids),
    queryFn: () => getPeopleRoles(ids),
    staleTime: 0,
    enabled: ids.length > 0,
  });

export const usePeopleRoles = (ids: readonly string[]) => useQuery(peopleRolesQueryOptions(ids));
