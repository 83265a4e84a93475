import { SettingsView } from '@/features/identity/components/settings-view';

/** /profile-settings, inside the console layout. */
export function Component() {
  return <SettingsView />;
}
