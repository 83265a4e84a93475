import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { featureFlagKeys } from './feature-flag-keys';
import { expectWrittenRow } from './written-row';

/** The row `POST /api/db/properties` writes: the form (no description is null) and its author. */
export interface CreatePropertyBody {
  name: string;
  value: string;
  description: string | null;
  /** The signed-in user's id. */
  created_by: string;
}

/** `POST /api/db/properties` with `{name, value, description, created_by}`. */
export const createProperty = async (body: CreatePropertyBody): Promise<void> => {
  const { data } = await dbApi.post<unknown>('/properties', body);
  expectWrittenRow(data, body.name);
};

export const useCreateProperty = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProperty,
    // Refreshes the flags themselves, so routes and menus follow the change at once.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: featureFlagKeys.all }),
  });
};
