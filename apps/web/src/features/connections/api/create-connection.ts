import type { ConnectionWriteBody } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { connectionKeys } from './connection-keys';
import { expectWrittenRow } from './written-row';

export type CreateConnectionBody = ConnectionWriteBody & {
  /** The signed-in user's id. */
  created_by: string;
};

/** `POST /api/db/connections` with the converted form and its author (ui-calls 3.12). */
export const createConnection = async (body: CreateConnectionBody): Promise<void> => {
  const { data } = await dbApi.post<unknown>('/connections', body);
  expectWrittenRow(data, body.name);
};

export const useCreateConnection = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createConnection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectionKeys.all }),
  });
};
