import type { NavigationRegistry } from '@/components/layout/navigation-registry';
import { SessionGate } from '@/features/identity/components/session-gate';
import { AppLayout } from './app-layout';
import { ConsoleAccess } from './console-access';
import { LinkToIncidentProvider } from './link-to-incident-provider';
import { PageLoading } from './page-loading';

export interface ConsoleShellProps {
  navigation: NavigationRegistry;
}

/**
 * The signed-in console's frame: the session gate, then the flags, roles and settings, then
 * the layout with the routed page. The router loads it as a chunk of its own, so the sign-in
 * pages download none of the layout, its menus and their libraries.
 */
export function ConsoleShell({ navigation }: ConsoleShellProps) {
  return (
    <SessionGate fallback={<PageLoading />}>
      <ConsoleAccess fallback={<PageLoading />}>
        <LinkToIncidentProvider>
          <AppLayout navigation={navigation} />
        </LinkToIncidentProvider>
      </ConsoleAccess>
    </SessionGate>
  );
}
