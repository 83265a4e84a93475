import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { featureFlagKeys } from './feature-flag-keys';
import { expectWrittenRow } from './written-row';

/** `DELETE /api/db/properties?name=eq.<name>`. */
export const deleteProperty = async (name: string): Promise<void> => {
  const { data } = await dbApi.delete<unknown>('/properties', { params: { name: `eq.${name}` } });
  expectWrittenRow(data, name);
};

export const useDeleteProperty = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProperty,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: featureFlagKeys.all }),
  });
};
