import { clsx } from 'clsx';
import { RefreshCw } from 'lucide-react';
import { layoutClasses } from './layout-classes';

export interface RefreshButtonProps {
  onRefresh: () => void;
  isLoading: boolean;
}

/** Reloads the page's data; the icon spins while a load is in flight. */
export function RefreshButton({ onRefresh, isLoading }: RefreshButtonProps) {
  return (
    <button
      type="button"
      onClick={onRefresh}
      aria-label="Refresh"
      aria-busy={isLoading}
      title="Refresh"
      className={layoutClasses.iconButton}
    >
      <RefreshCw aria-hidden className={clsx('size-5', isLoading && 'animate-spin')} />
    </button>
  );
}
