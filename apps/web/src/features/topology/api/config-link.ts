import { MANUAL_LINK_SELECTOR_ID, TOPOLOGY_LINK_PICKER_LIMIT } from '@lookout/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { searchPicker } from '@/lib/resource-search';
import { topologyKeys } from './topology-keys';

/** A catalog item the picker offers. */
export type ConfigOption = { id: string; name: string | null; type: string | null };

/**
 * The picker's options: live catalog items whose name contains the text, by name, at most 50
 * (spec 3 section 9), from the resource search every picker uses (ui-calls section 3.16).
 */
export function useConfigOptions(text: string) {
  return useQuery({
    queryKey: topologyKeys.configSearch(text),
    queryFn: async ({ signal }): Promise<ConfigOption[]> => {
      const rows = await searchPicker('configs', text, { limit: TOPOLOGY_LINK_PICKER_LIMIT, signal });
      return rows.map(({ id, name, type }) => ({ id, name, type }));
    },
    placeholderData: keepPreviousData,
  });
}

/** `POST /api/db/config_component_relationships` with selector 'manual'. */
export function useLinkConfig(componentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (configId: string) => {
      await dbApi.post('/config_component_relationships', {
        component_id: componentId,
        config_id: configId,
        selector_id: MANUAL_LINK_SELECTOR_ID,
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: topologyKeys.panel('configs', componentId) }),
  });
}

/** `DELETE /api/db/config_component_relationships` of a manual link. */
export function useUnlinkConfig(componentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (configId: string) => {
      await dbApi.delete('/config_component_relationships', {
        params: {
          component_id: `eq.${componentId}`,
          config_id: `eq.${configId}`,
          selector_id: `eq.${MANUAL_LINK_SELECTOR_ID}`,
        },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: topologyKeys.panel('configs', componentId) }),
  });
}
