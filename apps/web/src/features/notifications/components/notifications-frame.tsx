import { NOTIFICATION_TABS, type NotificationTabKey } from '@lookout/contracts';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { BellOff, Bell, Braces } from 'lucide-react';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { notificationKeys } from '../api/notification-keys';

const TAB_ICONS: Record<NotificationTabKey, typeof Bell> = { history: Bell, rules: Braces, silences: BellOff };

export interface NotificationsFrameProps {
  /** The page's title in the top bar and the tab title. */
  title: string;
  /** Page actions, such as an add button, shown before the refresh button. */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * Every notification page (spec 3 section 2.10): its header with a refresh button that reads
 * the notification data again, the tabs Notifications, Rules and Silences, and the page.
 */
export function NotificationsFrame({ title, actions, children }: NotificationsFrameProps) {
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: notificationKeys.all });
  return (
    <>
      <PageHeader
        title={title}
        actions={actions}
        onRefresh={() => void queryClient.invalidateQueries({ queryKey: notificationKeys.all })}
        isLoading={fetching > 0}
      />
      <nav aria-label="Notifications" className="mb-4 flex gap-1 border-b border-slate-200">
        {NOTIFICATION_TABS.map((tab) => {
          const Icon = TAB_ICONS[tab.key];
          return (
            <NavLink
              key={tab.key}
              to={tab.path}
              // The history tab is the area's root: only its own address marks it.
              end={tab.key === 'history'}
              className={({ isActive }) =>
                clsx(
                  '-mb-px inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-sky-600',
                  isActive
                    ? 'border-sky-600 font-medium text-slate-900'
                    : 'border-transparent text-slate-600 hover:text-slate-900',
                )
              }
            >
              <Icon aria-hidden className="size-4" />
              {tab.label}
            </NavLink>
          );
        })}
      </nav>
      {children}
    </>
  );
}
