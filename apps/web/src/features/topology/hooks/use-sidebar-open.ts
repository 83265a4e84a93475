import { TOPOLOGY_STORAGE_KEYS } from '@lookout/contracts';
import { useCallback, useState } from 'react';

function readStored(): boolean {
  try {
    return window.localStorage.getItem(TOPOLOGY_STORAGE_KEYS.sidebarOpen) !== 'false';
  } catch {
    return true;
  }
}

/** Whether the component page's right sidebar shows; open unless the user hid it (kept locally). */
export function useSidebarOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(readStored);
  const store = useCallback((next: boolean) => {
    setOpen(next);
    try {
      window.localStorage.setItem(TOPOLOGY_STORAGE_KEYS.sidebarOpen, String(next));
    } catch {
      // Without storage the choice lasts for this page only.
    }
  }, []);
  return [open, store];
}
