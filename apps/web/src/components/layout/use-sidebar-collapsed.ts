import { SIDEBAR_AUTO_COLLAPSE_BELOW_PX } from '@lookout/contracts';
import { useCallback, useState, useSyncExternalStore } from 'react';

/** localStorage key of the user's own choice, kept across reloads (spec 1, section 2.2). */
export const SIDEBAR_COLLAPSED_STORAGE_KEY = 'lookout.sidebar.collapsed';

function readPreference(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_COLLAPSED_STORAGE_KEY) === 'true';
  } catch {
    // Storage can be blocked (privacy modes); the sidebar then simply starts expanded.
    return false;
  }
}

function writePreference(collapsed: boolean): void {
  try {
    window.localStorage.setItem(SIDEBAR_COLLAPSED_STORAGE_KEY, String(collapsed));
  } catch {
    // Not persisting is acceptable; the toggle still works for this visit.
  }
}

function subscribeToResize(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

// Resize fires for every pixel, but React re-renders only when this boolean flips.
const isNarrowWindow = () => window.innerWidth < SIDEBAR_AUTO_COLLAPSE_BELOW_PX;

export interface SidebarCollapsed {
  collapsed: boolean;
  toggle: () => void;
}

/**
 * The sidebar's collapsed state. On a wide window it is the user's persisted choice. Under
 * 1024 px the sidebar collapses by itself; the user may still open it, but that stays
 * temporary so shrinking a window never overwrites the choice made on a wide one.
 */
export function useSidebarCollapsed(): SidebarCollapsed {
  const narrow = useSyncExternalStore(subscribeToResize, isNarrowWindow, () => false);
  const [preference, setPreference] = useState(readPreference);
  const [openedWhileNarrow, setOpenedWhileNarrow] = useState(false);
  const [wasNarrow, setWasNarrow] = useState(narrow);
  if (wasNarrow !== narrow) {
    // Crossing the breakpoint drops a temporary opening (state adjusted during render).
    setWasNarrow(narrow);
    setOpenedWhileNarrow(false);
  }

  const toggle = useCallback(() => {
    if (narrow) {
      setOpenedWhileNarrow((open) => !open);
      return;
    }
    const next = !preference;
    setPreference(next);
    writePreference(next);
  }, [narrow, preference]);

  return { collapsed: narrow ? !openedWhileNarrow : preference, toggle };
}
