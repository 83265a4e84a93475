import { settingsResourceApi } from '@/lib/settings-resource-api';

/** A `logging_backends` row (spec 2 section 3: id, name, labels, spec, source). */
export type LogBackendRow = {
  id: string;
  name: string;
  labels: Record<string, string> | null;
  spec: Record<string, unknown>;
  source: string;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
  created_by: { id: string; name: string; avatar: string | null } | null;
};

export type LogBackendFields = { name: string; labels: Record<string, string>; spec: Record<string, unknown> };

// The list is the shared settings list (components/settings-resource); these are the form's calls.
const api = settingsResourceApi<LogBackendRow, LogBackendRow, LogBackendFields>({
  key: 'log-backends',
  table: 'logging_backends',
  rowSelect: '*,created_by(id,name,avatar)',
  label: 'Log backend',
});

/** One backend, or null when absent or deleted. */
export const useLogBackend = api.useOne;
/** Add or Update. */
export const useSaveLogBackend = api.useSave;
/** Soft delete. */
export const useDeleteLogBackend = api.useDelete;
