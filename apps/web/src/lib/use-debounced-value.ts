import { useEffect, useState } from 'react';

/**
 * `value` once it has stayed unchanged for `delayMs`: the search text of a picker that asks the
 * server as the user types (the `SearchBox` debounces its own `onChange`; this is for plain inputs).
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
