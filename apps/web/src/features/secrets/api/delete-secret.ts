import type { SecretStoreEntryParams } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { entryPath } from '../lib/secret-paths';
import { secretKeys } from './secret-keys';

/** `DELETE /api/secrets/{kind}/{namespace}/{name}`: the entry and its values are gone. */
export const deleteSecret = async (entry: SecretStoreEntryParams): Promise<void> => {
  await api.delete(entryPath(entry));
};

export const useDeleteSecret = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secretKeys.all }),
  });
};
