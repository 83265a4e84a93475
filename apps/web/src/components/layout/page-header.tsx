import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { usePageTitle } from '@/lib/page-title';
import { RefreshButton } from './refresh-button';

/**
 * The top bar's element that page headers render into. A portal keeps the header's props
 * (title, callbacks, action elements) owned by the page, instead of lifting them into
 * layout state where every page render would re-render the layout.
 */
export const PageHeaderSlotContext = createContext<HTMLElement | null>(null);

export interface PageHeaderProps {
  /** Shown in the top bar and as the tab title (`{title} | Lookout`). */
  title: string;
  /** Extra controls for the page, shown before the refresh button. */
  actions?: ReactNode;
  /** When given, the top bar shows a refresh button that calls it. */
  onRefresh?: () => void;
  /** Spins the refresh button. */
  isLoading?: boolean;
}

/**
 * Every page renders one: it fills the layout's top bar with the page title, actions and
 * refresh button, and sets the document title.
 */
export function PageHeader({ title, actions, onRefresh, isLoading = false }: PageHeaderProps) {
  usePageTitle(title);
  const slot = useContext(PageHeaderSlotContext);
  // Outside the layout (or before the top bar has mounted) there is nowhere to show it yet.
  if (!slot) return null;
  return createPortal(
    <>
      <h1 className="truncate text-lg font-semibold text-slate-900">{title}</h1>
      <div className="ml-auto flex shrink-0 items-center gap-2">
        {actions}
        {onRefresh && <RefreshButton onRefresh={onRefresh} isLoading={isLoading} />}
      </div>
    </>,
    slot,
  );
}
