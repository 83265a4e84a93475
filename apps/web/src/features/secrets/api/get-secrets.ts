import { secretStoreListSchema, type SecretStoreEntry } from '@lookout/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { secretKeys } from './secret-keys';

/** `GET /api/secrets`: every secret and config map; a secret's keys say only that a value is set. */
export const getSecrets = async (): Promise<SecretStoreEntry[]> => {
  const { data } = await api.get<unknown>('/secrets');
  return secretStoreListSchema.parse(data).items;
};

export const secretsQueryOptions = () => queryOptions({ queryKey: secretKeys.list(), queryFn: getSecrets });

export const useSecrets = () => useQuery(secretsQueryOptions());
