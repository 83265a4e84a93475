import { SETTINGS_RESOURCES } from '@lookout/contracts';
import { settingsResourceApi } from '@/lib/settings-resource-api';
import type { TopologyFields } from './topology-document';

/** A `topologies` row as the form edits it. */
export type TopologySettingsRow = TopologyFields & { id: string; source: string; deleted_at: string | null };

/** Where topologies are listed (the shared settings list); `{path}/{id}` edits one. */
export const TOPOLOGY_SETTINGS_PATH = SETTINGS_RESOURCES.topologies.path;

// The list is the shared settings list (components/settings-resource); these are the form's calls.
const api = settingsResourceApi<TopologySettingsRow, TopologySettingsRow, TopologyFields>({
  key: 'topology-settings',
  table: 'topologies',
  label: 'Topology',
});

/** `GET /api/db/topologies?id=eq.<id>`: the row, or null when absent or deleted. */
export const useTopologySettings = api.useOne;
/** Creates or updates a topology; answers its id. */
export const useSaveTopology = api.useSave;
/** Soft delete; its components go with it. */
export const useDeleteTopology = api.useDelete;
