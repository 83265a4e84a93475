import { secretStoreEntrySchema, type CreateSecretStoreEntry, type SecretStoreEntry } from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { secretKeys } from './secret-keys';

/** `POST /api/secrets` with `{kind, namespace, name, data}`. */
export const createSecret = async (body: CreateSecretStoreEntry): Promise<SecretStoreEntry> => {
  const { data } = await api.post<unknown>('/secrets', body);
  return secretStoreEntrySchema.parse(data);
};

export const useCreateSecret = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secretKeys.all }),
  });
};
