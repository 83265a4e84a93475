import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { Layout } from '@/components/layout/layout';
import type { NavigationRegistry } from '@/components/layout/navigation-registry';
import { AboutVersionLine } from '@/features/about/components/about-version-line';
import { useOptionalCurrentUser } from '@/features/identity/hooks/use-current-user';
import { ProfileMenuItem, SignOutMenuItem, UserGreeting } from '@/features/identity/components/user-menu-entries';
import { KubeconfigDialog } from '@/features/kubeconfig/components/kubeconfig-dialog';
import { KubeconfigMenuItem } from '@/features/kubeconfig/components/kubeconfig-menu-item';
import { useVisibleNavigation } from './visible-navigation';

export interface AppLayoutProps {
  navigation: NavigationRegistry;
}

const separatorClass = 'my-1 h-px bg-slate-200';

/**
 * The shell with its feature-backed parts plugged in; the layout itself stays free of features.
 * The user menu (spec 1, section 2.3): 'Hi {name}', Your Profile, Download kubeconfig (its dialog
 * lives outside the menu, which unmounts as it closes), the version line, Sign out. Outside the
 * session gate (development pages) there is no user, and only the version line shows.
 */
export function AppLayout({ navigation }: AppLayoutProps) {
  const user = useOptionalCurrentUser();
  const [kubeconfigOpen, setKubeconfigOpen] = useState(false);
  const userMenu = user ? (
    <>
      <UserGreeting />
      <DropdownMenu.Separator className={separatorClass} />
      <ProfileMenuItem />
      <KubeconfigMenuItem onOpen={() => setKubeconfigOpen(true)} />
      <DropdownMenu.Separator className={separatorClass} />
      <AboutVersionLine />
      <DropdownMenu.Separator className={separatorClass} />
      <SignOutMenuItem />
    </>
  ) : (
    <AboutVersionLine />
  );
  // Only what the user may see: enabled features, readable resources (spec 1, section 2.2).
  const visibleNavigation = useVisibleNavigation(navigation);
  return (
    <>
      <Layout navigation={visibleNavigation} userMenu={userMenu} />
      {user && <KubeconfigDialog open={kubeconfigOpen} onOpenChange={setKubeconfigOpen} />}
    </>
  );
}
