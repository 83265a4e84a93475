import {
  SETTINGS_RESOURCES,
  SETTINGS_RESOURCE_TABLES,
  type SettingsResourceDefinition,
  type SettingsResourceTable,
} from '@lookout/contracts';
import { useMatches } from 'react-router';

/** The `handle` of a generic settings route: which table its page shows. */
export interface SettingsRouteHandle {
  settingsTable: SettingsResourceTable;
}

const isSettingsHandle = (handle: unknown): handle is SettingsRouteHandle =>
  typeof handle === 'object' &&
  handle !== null &&
  'settingsTable' in handle &&
  (SETTINGS_RESOURCE_TABLES as readonly unknown[]).includes(handle.settingsTable);

/** The settings resource of the deepest route that names one (`handle.settingsTable`). */
export function useSettingsResource(): SettingsResourceDefinition {
  const match = useMatches().findLast((candidate) => isSettingsHandle(candidate.handle));
  if (!match || !isSettingsHandle(match.handle)) throw new Error('This route names no settings table in its handle.');
  return SETTINGS_RESOURCES[match.handle.settingsTable];
}
