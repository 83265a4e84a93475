import { CONFIG_LINK_PICKER_LIMIT, MANUAL_LINK_SELECTOR } from '@lookout/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { searchPicker } from '@/lib/resource-search';
import type { RelatedConfig } from '../lib/relationship-graph-fns';
import { relatedConfigsQuery, type RelationshipParams } from '../lib/relationship-params';
import { catalogKeys } from './catalog-api';

const relationshipKeys = {
  all: ['catalog', 'relationships'] as const,
  related: (query: object) => ['catalog', 'relationships', 'related', query] as const,
  labels: (ids: string[]) => ['catalog', 'relationships', 'labels', ids] as const,
  links: (id: string) => ['catalog', 'relationships', 'links', id] as const,
  picker: (id: string, search: string) => ['catalog', 'relationships', 'picker', id, search] as const,
};

const RELATED_SELECT = 'id,name,type,status,health,tags,deleted_at,related_ids,depth,direction';

/**
 * `GET /api/db/rpc/related_configs_recursive?config_id=&type_filter=&include_deleted_configs=
 * &max_depth=10&incoming_relation=&outgoing_relation=` (ui-calls 3.5): the item and every
 * item reachable, each with `related_ids` (the edges of the graph).
 */
export function useRelatedConfigs(configId: string, params: RelationshipParams, hideDeleted: boolean) {
  const query = relatedConfigsQuery(configId, params, hideDeleted);
  return useQuery({
    queryKey: relationshipKeys.related(query),
    queryFn: async ({ signal }) =>
      (
        await dbApi.get<RelatedConfig[]>('/rpc/related_configs_recursive', {
          params: { ...query, select: RELATED_SELECT },
          signal,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

/** The labels of the related items (the function does not return them), for the Labels filter. */
export function useRelatedLabels(ids: string[], enabled: boolean) {
  return useQuery({
    queryKey: relationshipKeys.labels(ids),
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<Array<{ id: string; labels: Record<string, string> | null }>>('/configs', {
        params: { select: 'id,labels', id: `in.(${ids.join(',')})` },
        signal,
      });
      return new Map(data.map((row) => [row.id, row.labels ?? {}]));
    },
    enabled: enabled && ids.length > 0,
  });
}

/** A manual link of the item, either way (config_relationships, selector_id 'manual'). */
export type ManualLink = { config_id: string; related_id: string; relation: string };

/** `GET /api/db/config_relationships?or=(config_id.eq.X,related_id.eq.X)&selector_id=eq.manual`. */
export function useManualLinks(configId: string) {
  return useQuery({
    queryKey: relationshipKeys.links(configId),
    queryFn: async ({ signal }) =>
      (
        await dbApi.get<ManualLink[]>('/config_relationships', {
          params: {
            or: `(config_id.eq.${configId},related_id.eq.${configId})`,
            selector_id: `eq.${MANUAL_LINK_SELECTOR}`,
            deleted_at: 'is.null',
            select: 'config_id,related_id,relation',
          },
          signal,
        })
      ).data,
  });
}

/**
 * Live items to link to, by name, at most 50 (spec 3 section 9), not the item itself: the
 * resource search every picker uses (ui-calls section 3.16). One more than shown is asked for,
 * so dropping the item itself still leaves 50.
 */
export function useLinkCandidates(configId: string, search: string, enabled: boolean) {
  return useQuery({
    queryKey: relationshipKeys.picker(configId, search),
    queryFn: async ({ signal }) => {
      const rows = await searchPicker('configs', search, { limit: CONFIG_LINK_PICKER_LIMIT + 1, signal });
      return rows
        .filter((row) => row.id !== configId)
        .slice(0, CONFIG_LINK_PICKER_LIMIT)
        .map(({ id, name, type }) => ({ id, name, type }));
    },
    enabled,
    placeholderData: keepPreviousData,
  });
}

function useInvalidateRelationships() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: relationshipKeys.all }),
      // The tab's count badge.
      queryClient.invalidateQueries({ queryKey: catalogKeys.all, predicate: (q) => q.queryKey[1] === 'detail' }),
    ]);
}

/** `POST /api/db/config_relationships` `{config_id, related_id}`: a manual link from → to. */
export function useLinkConfig() {
  const invalidate = useInvalidateRelationships();
  return useMutation({
    mutationFn: async (link: { from: string; to: string }) => {
      await dbApi.post('/config_relationships', { config_id: link.from, related_id: link.to });
    },
    onSuccess: invalidate,
  });
}

/** `DELETE /api/db/config_relationships?config_id=eq.A&related_id=eq.B&selector_id=eq.manual`. */
export function useUnlinkConfig() {
  const invalidate = useInvalidateRelationships();
  return useMutation({
    mutationFn: async (link: { from: string; to: string }) => {
      await dbApi.delete('/config_relationships', {
        params: {
          config_id: `eq.${link.from}`,
          related_id: `eq.${link.to}`,
          selector_id: `eq.${MANUAL_LINK_SELECTOR}`,
        },
      });
    },
    onSuccess: invalidate,
  });
}

/** A component the item is linked to (config_component_relationships; topology area). */
export type LinkedComponent = {
  component_id: string;
  selector_id: string | null;
  component: { id: string; name: string | null; type: string | null } | null;
};

const componentKeys = {
  all: ['catalog', 'components'] as const,
  of: (configId: string) => ['catalog', 'components', configId] as const,
};

/**
 * `GET /api/db/config_component_relationships?config_id=eq.X&deleted_at=is.null` with each
 * component embedded: the components the item stands behind, by a topology's selector or a
 * manual link. Only for those who read topologies.
 */
export function useLinkedComponents(configId: string, enabled: boolean) {
  return useQuery({
    queryKey: componentKeys.of(configId),
    queryFn: async ({ signal }) =>
      (
        await dbApi.get<LinkedComponent[]>('/config_component_relationships', {
          params: {
            config_id: `eq.${configId}`,
            deleted_at: 'is.null',
            select:
              'component_id,selector_id,component:components!config_component_relationships_component_id_fkey(id,name,type)',
          },
          signal,
        })
      ).data,
    enabled,
  });
}

/** `DELETE /api/db/config_component_relationships?component_id=eq.C&config_id=eq.X&selector_id=eq.manual`. */
export function useUnlinkComponent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (link: { componentId: string; configId: string }) => {
      await dbApi.delete('/config_component_relationships', {
        params: {
          component_id: `eq.${link.componentId}`,
          config_id: `eq.${link.configId}`,
          selector_id: `eq.${MANUAL_LINK_SELECTOR}`,
        },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: componentKeys.all }),
  });
}
