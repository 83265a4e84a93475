import { useEffect, useState } from 'react';

/**
 * The current time in ms, renewed every second while `ticking`, so the durations of running
 * steps grow; a finished run stops re-rendering.
 */
export function useTickingNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return ticking ? now : Date.now();
}
