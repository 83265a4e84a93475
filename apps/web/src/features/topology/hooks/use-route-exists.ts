import { useCallback, useContext } from 'react';
import { UNSAFE_DataRouterContext, matchRoutes } from 'react-router';

/**
 * Whether an address leads to a page of this build (not the catch-all not-found route). The
 * cards link out to areas (incidents, insights, logs) that arrive in other releases; until
 * their routes exist the summaries show plain text instead of a dead link.
 */
export function useRouteExists(): (path: string) => boolean {
  const routes = useContext(UNSAFE_DataRouterContext)?.router.routes;
  return useCallback(
    (path: string) => {
      if (!routes) return false;
      const matches = matchRoutes(routes, path.split('?')[0] ?? path);
      const last = matches?.at(-1)?.route;
      return last !== undefined && last.path !== '*';
    },
    [routes],
  );
}
