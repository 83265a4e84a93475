import { useSyncExternalStore } from 'react';

/** Below this window height the drawer moves its chart into a Graph tab (spec 2 section 2.3). */
export const SHORT_SCREEN_BELOW_PX = 992;

const subscribe = (onChange: () => void) => {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
};

/** True on short screens, where the Health Overview chart would push the tabs out of view. */
export function useShortScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.innerHeight < SHORT_SCREEN_BELOW_PX,
    () => false,
  );
}
