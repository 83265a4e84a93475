import {
  secretStoreEntrySchema,
  type SecretStoreEntry,
  type SecretStoreEntryParams,
  type UpdateSecretStoreEntry,
} from '@lookout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { entryPath } from '../lib/secret-paths';
import { secretKeys } from './secret-keys';

export interface UpdateSecretInput {
  entry: SecretStoreEntryParams;
  /** Every key the entry keeps: a value replaces, `null` keeps the stored one. */
  body: UpdateSecretStoreEntry;
}

/** `PUT /api/secrets/{kind}/{namespace}/{name}` with `{data}`. */
export const updateSecret = async ({ entry, body }: UpdateSecretInput): Promise<SecretStoreEntry> => {
  const { data } = await api.put<unknown>(entryPath(entry), body);
  return secretStoreEntrySchema.parse(data);
};

export const useUpdateSecret = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secretKeys.all }),
  });
};
