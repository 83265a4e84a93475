import { useQuery } from '@tanstack/react-query';
import { dbApi } from '@/lib/api-client';
import { topologyKeys } from './topology-keys';

/**
 * The right-side panels' calls (ui-calls 3.4), each asked only while its panel is open. Every
 * one reads a data API view keyed by `component_id`.
 */
function usePanelQuery<T>(panel: string, id: string, path: string, params: Record<string, string>, enabled: boolean) {
  return useQuery({
    queryKey: topologyKeys.panel(panel, id),
    queryFn: async ({ signal }) => (await dbApi.get<T[]>(path, { params, signal })).data,
    enabled: enabled && Boolean(id),
    staleTime: 0,
  });
}

/** A linked catalog item; `selector_id` 'manual' marks a link made by hand (it can be removed). */
export type ComponentConfigLink = {
  config_id: string;
  selector_id: string | null;
  configs: {
    id: string;
    name: string;
    type: string | null;
    config_class: string | null;
    deleted_at: string | null;
  } | null;
};

export const useComponentConfigs = (id: string, enabled: boolean) =>
  usePanelQuery<ComponentConfigLink>(
    'configs',
    id,
    '/config_component_relationships',
    {
      component_id: `eq.${id}`,
      'configs.order': 'name',
      select: '*,configs!config_component_relationships_config_id_fkey(id,type,name,config_class,deleted_at)',
      deleted_at: 'is.null',
    },
    enabled,
  );

/** A check of the component (checks_by_component). */
export type ComponentCheck = {
  id: string;
  name: string;
  icon: string | null;
  type: string | null;
  status: string | null;
  severity: string | null;
  last_runtime: string | null;
  last_transition_time: string | null;
};

export const useComponentChecks = (id: string, enabled: boolean) =>
  usePanelQuery<ComponentCheck>('checks', id, '/checks_by_component', { component_id: `eq.${id}` }, enabled);

/** A config change of an item linked to the component (changes_by_component). */
export type ComponentChange = {
  id: string;
  config_id: string;
  name: string | null;
  type: string | null;
  change_type: string;
  severity?: string | null;
  summary?: string | null;
  created_at: string | null;
};

export const useComponentChanges = (id: string, enabled: boolean) =>
  usePanelQuery<ComponentChange>(
    'changes',
    id,
    '/changes_by_component',
    { component_id: `eq.${id}`, order: 'created_at.desc', limit: '50' },
    enabled,
  );

/** An insight of an item linked to the component (analysis_by_component). */
export type ComponentInsight = {
  id: string;
  config_id: string;
  analyzer: string;
  analysis_type: string | null;
  severity: string | null;
  message: string | null;
  first_observed: string | null;
};

export const useComponentInsights = (id: string, enabled: boolean) =>
  usePanelQuery<ComponentInsight>(
    'insights',
    id,
    '/analysis_by_component',
    { component_id: `eq.${id}`, limit: '50' },
    enabled,
  );

/** An incident naming the component (incidents_by_component), newest first. */
export type ComponentIncident = {
  id: string;
  title: string | null;
  type: string | null;
  status: string | null;
  severity: string | null;
  created_at: string | null;
};

export const useComponentIncidents = (id: string, enabled: boolean) =>
  usePanelQuery<ComponentIncident>(
    'incidents',
    id,
    '/incidents_by_component',
    { component_id: `eq.${id}`, order: 'created_at.desc' },
    enabled,
  );

/** A playbook run on the component (playbook_runs with its playbook), newest first. */
export type ComponentPlaybookRun = {
  id: string;
  status: string;
  created_at: string | null;
  start_time: string | null;
  end_time: string | null;
  playbooks: { id: string; name: string; title: string | null; icon: string | null } | null;
};

export const useComponentPlaybookRuns = (id: string, enabled: boolean) =>
  usePanelQuery<ComponentPlaybookRun>(
    'playbook-runs',
    id,
    '/playbook_runs',
    {
      component_id: `eq.${id}`,
      select: 'id,status,created_at,start_time,end_time,playbooks(id,name,title,icon)',
      order: 'created_at.desc',
      limit: '50',
    },
    enabled,
  );

/** A team the component belongs to (team_components). */
export type ComponentTeam = {
  team_id: string;
  component_id: string;
  team: { id: string; name: string; icon: string | null } | null;
};

export const useComponentTeams = (id: string, enabled: boolean) =>
  usePanelQuery<ComponentTeam>(
    'teams',
    id,
    '/team_components',
    { component_id: `eq.${id}`, select: '*,team:teams(id,name,icon)' },
    enabled,
  );

/** The topology that produced the component (the Details panel links to its settings page). */
export type TopologyRow = { id: string; name: string; namespace: string | null; source: string | null };

export function useTopologyRow(topologyId: string | null | undefined) {
  return useQuery({
    queryKey: topologyKeys.panel('topology', topologyId ?? ''),
    queryFn: async ({ signal }) => {
      const { data } = await dbApi.get<TopologyRow[]>('/topologies', {
        params: { id: `eq.${topologyId}`, select: 'id,name,namespace,source' },
        signal,
      });
      return data[0] ?? null;
    },
    enabled: Boolean(topologyId),
  });
}
