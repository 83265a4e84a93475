import { connectionRowSchema } from '@lookout/contracts';
import type { ConnectionRow } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dbApi } from '@/lib/api-client';
import { connectionKeys } from './connection-keys';

/** The list call of ui-calls 3.10/3.12, with the author's name for the Created By column. */
export const CONNECTIONS_LIST_PARAMS = {
  select: '*,created_by(id,name,email,avatar)',
  deleted_at: 'is.null',
  order: 'created_at.desc',
  limit: '100',
} as const;

/** `GET /api/db/connections`: the live connections, newest first (credentials read as '***'). */
export const getConnections = async (): Promise<ConnectionRow[]> => {
  const { data } = await dbApi.get<unknown>('/connections', { params: CONNECTIONS_LIST_PARAMS });
  return z.array(connectionRowSchema).parse(data);
};

export const connectionsQueryOptions = () => queryOptions({ queryKey: connectionKeys.list(), queryFn: getConnections });

export const useConnections = () => useQuery(connectionsQueryOptions());
