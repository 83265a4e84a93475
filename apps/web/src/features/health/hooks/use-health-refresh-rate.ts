import { REFRESH_RATE_NONE, type HealthRefreshRate } from '@lookout/contracts';
import { useCallback, useState } from 'react';
import { HEALTH_REFRESH_STORAGE_KEY, toHealthRefreshRate } from '../lib/health-refresh-fns';

function readStoredRate(): HealthRefreshRate {
  try {
    return toHealthRefreshRate(window.localStorage.getItem(HEALTH_REFRESH_STORAGE_KEY));
  } catch {
    // Storage can be unavailable (privacy modes); the default applies then.
    return REFRESH_RATE_NONE;
  }
}

/**
 * The dashboard's refresh rate, kept in local storage (spec 2 section 4): it survives reloads
 * and new tabs; choosing None clears it.
 */
export function useHealthRefreshRate(): [HealthRefreshRate, (rate: HealthRefreshRate) => void] {
  const [rate, setRateState] = useState<HealthRefreshRate>(readStoredRate);
  const setRate = useCallback((next: HealthRefreshRate) => {
    setRateState(next);
    try {
      if (next === REFRESH_RATE_NONE) window.localStorage.removeItem(HEALTH_REFRESH_STORAGE_KEY);
      else window.localStorage.setItem(HEALTH_REFRESH_STORAGE_KEY, next);
    } catch {
      // Without storage the choice lasts for this page only.
    }
  }, []);
  return [rate, setRate];
}
