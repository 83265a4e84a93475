import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { readDataTableState, writeDataTableState } from '@/components/ui/data-table/data-table-storage';

/** How long scrolling must pause before the position is written. */
export const SCROLL_SAVE_DELAY_MS = 150;

/** Options of {@link useScrollPersistence}. */
export type ScrollPersistenceOptions = {
  scrollRef: RefObject<HTMLElement | null>;
  /** Session-storage key of the table; nothing is kept without one. */
  persistStateKey: string | undefined;
  /** True once the rows are on screen: a position restored into an empty box would be lost. */
  ready: boolean;
};

/**
 * Keeps a scroll box's position in session storage (spec 1, section 2.7): saved while
 * scrolling (once it pauses, and at unmount), restored once, when the rows first show.
 * Returns the handler to call on scroll.
 */
export function useScrollPersistence({ scrollRef, persistStateKey, ready }: ScrollPersistenceOptions): () => void {
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pendingScrollTop = useRef<number | undefined>(undefined);
  const restored = useRef(false);

  const flush = useCallback(() => {
    clearTimeout(saveTimer.current);
    saveTimer.current = undefined;
    if (persistStateKey && pendingScrollTop.current !== undefined) {
      writeDataTableState(persistStateKey, { scrollTop: pendingScrollTop.current });
      pendingScrollTop.current = undefined;
    }
  }, [persistStateKey]);

  // Leaving the page within the delay still keeps the last position.
  useEffect(() => flush, [flush]);

  useLayoutEffect(() => {
    if (restored.current || !persistStateKey || !ready) return;
    restored.current = true;
    const { scrollTop } = readDataTableState(persistStateKey);
    if (scrollTop !== undefined && scrollRef.current) scrollRef.current.scrollTop = scrollTop;
  }, [persistStateKey, ready, scrollRef]);

  return () => {
    const element = scrollRef.current;
    // Scrolling before the restore (an empty box) must not overwrite the saved position.
    if (!element || !persistStateKey || !restored.current) return;
    pendingScrollTop.current = element.scrollTop;
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(flush, SCROLL_SAVE_DELAY_MS);
  };
}
