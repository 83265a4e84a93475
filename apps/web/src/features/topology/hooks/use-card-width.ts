import { TOPOLOGY_STORAGE_KEYS } from '@lookout/contracts';
import { useCallback, useState } from 'react';
import { clampCardWidth } from '../lib/card-size';

function readStored(): number {
  try {
    return clampCardWidth(window.localStorage.getItem(TOPOLOGY_STORAGE_KEYS.cardWidth));
  } catch {
    return clampCardWidth(undefined);
  }
}

/** The card width slider's value, kept in local storage (spec 3 section 2.2). */
export function useCardWidth(): [number, (width: number) => void] {
  const [width, setWidth] = useState(readStored);
  const store = useCallback((next: number) => {
    const clamped = clampCardWidth(next);
    setWidth(clamped);
    try {
      window.localStorage.setItem(TOPOLOGY_STORAGE_KEYS.cardWidth, `${clamped}px`);
    } catch {
      // Without storage the width lasts for this page only.
    }
  }, []);
  return [width, store];
}
