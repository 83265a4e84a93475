import type { SettingsResourceDefinition, SettingsResourceTable } from '@lookout/contracts';
import { settingsResourceApi } from '@/lib/settings-resource-api';

/** A row of a settings list (ui-calls 3.10): the columns the generic list reads. */
export interface SettingsListRow {
  id: string;
  name: string;
  namespace?: string | null;
  labels?: Record<string, string> | null;
  source?: string | null;
  schedule?: string | null;
  interval?: number | string | null;
  job_status?: string | null;
  last_runtime?: string | null;
  job_last_failed?: string | null;
  created_at: string;
  updated_at?: string | null;
  created_by?: { id: string; name: string; avatar?: string | null } | null;
  agent?: { id: string | null; name: string | null } | null;
}

/** A raw row of a settings table as its form edits it. */
export interface SettingsResourceRow {
  id: string;
  name: string;
  namespace?: string | null;
  labels?: Record<string, string> | null;
  spec?: unknown;
  source: string;
  created_at?: string;
  updated_at?: string | null;
  deleted_at: string | null;
}

/** What the generic form writes. */
export interface SettingsResourceFields {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  spec: Record<string, unknown>;
}

function apiFor(definition: SettingsResourceDefinition) {
  return settingsResourceApi<SettingsListRow, SettingsResourceRow, SettingsResourceFields>({
    key: `settings-resource:${definition.table}`,
    table: definition.table,
    listRelation: definition.listRelation,
    listSelect: definition.listSelect,
    label: definition.name,
  });
}

// One set of hooks per table for the life of the page, so their query keys stay stable.
const apis = new Map<SettingsResourceTable, ReturnType<typeof apiFor>>();

/** The generic calls (list, one, save, soft delete) of one settings resource. */
export function settingsResourceHooks(definition: SettingsResourceDefinition) {
  let api = apis.get(definition.table);
  if (!api) {
    api = apiFor(definition);
    apis.set(definition.table, api);
  }
  return api;
}
