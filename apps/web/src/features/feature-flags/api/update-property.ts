import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { featureFlagKeys } from './feature-flag-keys';
import { expectWrittenRow } from './written-row';

export interface UpdatePropertyInput {
  /** The flag to change; names are not changed here (delete and add instead). */
  name: string;
  changes: { value: string; description: string | null };
}

/** `PATCH /api/db/properties?name=eq.<name>` with the new value and description. */
export const updateProperty = async ({ name, changes }: UpdatePropertyInput): Promise<void> => {
  const { data } = await dbApi.patch<unknown>('/properties', changes, { params: { name: `eq.${name}` } });
  expectWrittenRow(data, name);
};

export const useUpdateProperty = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProperty,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: featureFlagKeys.all }),
  });
};
