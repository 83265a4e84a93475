import type { RouteObject } from 'react-router';

/**
 * Pages for developing the console itself, served by the dev server only. `vite build` sets
 * `import.meta.env.DEV` to false, so the router's branch that calls this is dropped, this module
 * is tree-shaken away, and the lazy page modules are never bundled. Import it from nowhere else.
 */
export function devRoutes(): RouteObject[] {
  if (!import.meta.env.DEV) return [];
  return [{ path: 'dev/gallery', lazy: () => import('./gallery-page') }];
}
