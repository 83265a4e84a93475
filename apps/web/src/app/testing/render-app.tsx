import { render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { NavigationRegistry } from '@/components/layout/navigation-registry';
import { createQueryClient } from '@/lib/query-client';
import { AppProvider } from '../provider';
import { createAppRoutes } from '../router';

export interface RenderAppOptions {
  /** The address the app opens at. */
  path?: string;
  /** The console areas; tests inject their own to exercise navigation. */
  navigation?: NavigationRegistry;
}

/**
 * Renders the whole console (providers, layout, routes) in memory at `path`, the way
 * route-level tests see it. Mock the HTTP calls it makes with msw.
 */
export function renderApp({ path = '/', navigation = { areas: [], settings: [] } }: RenderAppOptions = {}) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(createAppRoutes(navigation), { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, user, queryClient };
}
