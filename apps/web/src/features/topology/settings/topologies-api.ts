import { settingsResourceApi } from '@/lib/settings-resource-api';
import type { TopologyFields } from './topology-document';

/** A row of `topologies_with_status` (ui-calls 3.10): the topology with its latest run. */
export type TopologyListRow = {
  id: string;
  name: string;
  namespace: string | null;
  labels: Record<string, string> | null;
  source: string;
  created_at: string;
  updated_at: string | null;
  created_by: { id: string; name: string; avatar: string | null } | null;
  agent: { id: string | null; name: string | null } | null;
  last_runtime: string | null;
  job_status: string | null;
  job_last_failed: string | null;
};

/** A `topologies` row as the form edits it. */
export type TopologySettingsRow = TopologyFields & { id: string; source: string; deleted_at: string | null };

const api = settingsResourceApi<TopologyListRow, TopologySettingsRow, TopologyFields>({
  key: 'topology-settings',
  table: 'topologies',
  listRelation: 'topologies_with_status',
  label: 'Topology',
});

/** The list from `topologies_with_status`, newest first, at most 100 (ui-calls 3.10). */
export const useTopologiesList = api.useList;
/** `GET /api/db/topologies?id=eq.<id>`: the row, or null when absent or deleted. */
export const useTopologySettings = api.useOne;
/** Creates or updates a topology; answers its id. */
export const useSaveTopology = api.useSave;
/** Soft delete; its components go with it. */
export const useDeleteTopology = api.useDelete;
