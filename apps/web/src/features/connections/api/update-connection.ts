import type { ConnectionWriteBody } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { connectionKeys } from './connection-keys';
import { expectWrittenRow } from './written-row';

export interface UpdateConnectionInput {
  id: string;
  /** The converted form: columns left out keep their stored value (sealed credentials). */
  body: ConnectionWriteBody;
}

/** `PATCH /api/db/connections?id=eq.<id>` with the converted form and the id (ui-calls 3.12). */
export const updateConnection = async ({ id, body }: UpdateConnectionInput): Promise<void> => {
  const { data } = await dbApi.patch<unknown>('/connections', { ...body, id }, { params: { id: `eq.${id}` } });
  expectWrittenRow(data, body.name);
};

export const useUpdateConnection = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateConnection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectionKeys.all }),
  });
};
