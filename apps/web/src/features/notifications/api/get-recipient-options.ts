import { NOTIFICATION_CONNECTION_TYPES } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { notificationKeys } from './notification-keys';
import { withServerMessage } from './request-error';

/** One choice of a recipient list: a person, a team or a notification connection. */
export interface RecipientOption {
  id: string;
  label: string;
  /** For connections: the `connection://<namespace>/<name>` the rule stores. */
  reference?: string;
}

const named = z.object({ id: z.string(), name: z.string().nullable() });
const person = named.extend({ email: z.string().nullable().optional() });
const connection = named.extend({ namespace: z.string().nullable(), type: z.string() });

/** `GET /api/db/people?select=id,name,email&deleted_at=is.null&type=is.null&order=name.asc`: users. */
export const getPeopleOptions = (signal?: AbortSignal): Promise<RecipientOption[]> =>
  withServerMessage(async () => {
    const { data } = await dbApi.get<unknown>('/people', {
      params: { select: 'id,name,email', deleted_at: 'is.null', type: 'is.null', order: 'name.asc' },
      signal,
    });
    return z
      .array(person)
      .parse(data)
      .map((row) => ({ id: row.id, label: row.name ?? row.email ?? row.id }));
  });

/** `GET /api/db/teams?select=id,name&deleted_at=is.null&order=name.asc`. */
export const getTeamOptions = (signal?: AbortSignal): Promise<RecipientOption[]> =>
  withServerMessage(async () => {
    const { data } = await dbApi.get<unknown>('/teams', {
      params: { select: 'id,name', deleted_at: 'is.null', order: 'name.asc' },
      signal,
    });
    return z
      .array(named)
      .parse(data)
      .map((row) => ({ id: row.id, label: row.name ?? row.id }));
  });

/**
 * `GET /api/db/connections?select=id,name,namespace,type&order=name.asc`, keeping the
 * notification types (spec 3 section 9): the channels an "Others" recipient can use.
 */
export const getConnectionOptions = (signal?: AbortSignal): Promise<RecipientOption[]> =>
  withServerMessage(async () => {
    const { data } = await dbApi.get<unknown>('/connections', {
      params: { select: 'id,name,namespace,type', order: 'name.asc' },
      signal,
    });
    return z
      .array(connection)
      .parse(data)
      .filter((row) => (NOTIFICATION_CONNECTION_TYPES as readonly string[]).includes(row.type))
      .map((row) => {
        const name = row.name ?? row.id;
        const namespace = row.namespace ?? 'default';
        return { id: row.id, label: `${name} (${row.type})`, reference: `connection://${namespace}/${name}` };
      });
  });

const fetchers = { person: getPeopleOptions, team: getTeamOptions, connection: getConnectionOptions } as const;
export type RecipientListKind = keyof typeof fetchers;

export const recipientOptionsQueryOptions = (kind: RecipientListKind) =>
  queryOptions({
    queryKey: notificationKeys.recipients(kind),
    queryFn: ({ signal }) => fetchers[kind](signal),
    staleTime: 60_000,
  });

export const useRecipientOptions = (kind: RecipientListKind, enabled = true) =>
  useQuery({ ...recipientOptionsQueryOptions(kind), enabled });
