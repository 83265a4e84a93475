import { Tooltip } from 'radix-ui';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import type { NavigationRegistry } from './navigation-registry';
import { PageHeaderSlotContext } from './page-header';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

export interface LayoutProps {
  navigation: NavigationRegistry;
  /** Entries of the user menu, composed by the app. */
  userMenu: ReactNode;
}

/** The console shell around every page: sidebar, top bar and the routed page below it. */
export function Layout({ navigation, userMenu }: LayoutProps) {
  const { collapsed, toggle } = useSidebarCollapsed();
  const [headerSlot, setHeaderSlot] = useState<HTMLElement | null>(null);

  return (
    <Tooltip.Provider delayDuration={300}>
      <PageHeaderSlotContext.Provider value={headerSlot}>
        <div className="flex h-full bg-slate-50 text-slate-900">
          <a
            href="#main-content"
            className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
          >
            Skip to content
          </a>
          <Sidebar areas={navigation.areas} settings={navigation.settings} collapsed={collapsed} onToggle={toggle} />
          <div className="flex min-w-0 flex-1 flex-col">
            <TopBar onSlotChange={setHeaderSlot} notifications={navigation.notifications} userMenu={userMenu} />
            <main id="main-content" tabIndex={-1} className="min-h-0 flex-1 overflow-auto p-4 outline-none sm:p-6">
              <Outlet />
            </main>
          </div>
        </div>
      </PageHeaderSlotContext.Provider>
    </Tooltip.Provider>
  );
}
