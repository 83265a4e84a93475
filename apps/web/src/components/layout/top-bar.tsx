import type { ReactNode } from 'react';
import { DocsMenu } from './docs-menu';
import type { NavigationItem } from './navigation-registry';
import { NotificationsBell } from './notifications-bell';
import { UserMenu } from './user-menu';

export interface TopBarProps {
  /** Receives the element pages render their header into (see `PageHeader`). */
  onSlotChange: (slot: HTMLElement | null) => void;
  /** The notifications area, when this build has one. */
  notifications?: NavigationItem;
  userMenu: ReactNode;
}

/** Page title, page actions and refresh on the left; bell, docs and user menu on the right. */
export function TopBar({ onSlotChange, notifications, userMenu }: TopBarProps) {
  return (
    <header className="flex h-14 shrink-0 items-center gap-3 border-b border-slate-200 bg-white px-4 sm:px-6">
      <div ref={onSlotChange} data-testid="page-header" className="flex min-w-0 flex-1 items-center gap-3" />
      <div className="flex shrink-0 items-center gap-1 border-l border-slate-200 pl-3">
        {notifications && <NotificationsBell path={notifications.path} label={notifications.label} />}
        <DocsMenu />
        <UserMenu>{userMenu}</UserMenu>
      </div>
    </header>
  );
}
