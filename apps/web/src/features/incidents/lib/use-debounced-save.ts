import { useEffect, useRef } from 'react';

/**
 * Calls `save(value)` once `value` has stayed unchanged for `delayMs` after the user changed it
 * (the autosaves of spec 3 sections 2.3 and 4). The first value is never saved: it is what the
 * server already holds.
 */
export function useDebouncedSave<T>(value: T, delayMs: number, save: (value: T) => void): void {
  const saveRef = useRef(save);
  const first = useRef(true);
  useEffect(() => {
    saveRef.current = save;
  }, [save]);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return undefined;
    }
    const timer = setTimeout(() => saveRef.current(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
}
