import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteError } from './route-error';

function Crashing(): never {
  throw new Error('Checks could not be grouped');
}

function renderRoute(route: { Component?: () => never; loader?: () => never }) {
  const router = createMemoryRouter([{ path: '/', errorElement: <RouteError />, ...route }]);
  render(<RouterProvider router={router} />);
}

describe('RouteError', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows the error panel for a page that crashed while rendering', async () => {
    renderRoute({ Component: Crashing });

    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry.. there was an error');
    expect(screen.getByText('Checks could not be grouped')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows the not-found page for a 404 thrown by a route', async () => {
    renderRoute({
      loader: () => {
        throw new Response(null, { status: 404, statusText: 'Not Found' });
      },
    });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
