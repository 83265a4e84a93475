import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedInHandlers } from '@/test/identity-handlers';
import { renderApp } from '../testing/render-app';

const server = setupServer(
  http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' })),
  // Outside development /dev/gallery is an unknown console address, behind the session gate.
  ...signedInHandlers(),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
});
afterAll(() => server.close());

describe('the widget gallery', () => {
  it('shows every widget section at /dev/gallery in development', { timeout: 30_000 }, async () => {
    renderApp({ path: '/dev/gallery' });

    // The first import of the lazy layout and page compiles the date picker and friends: allow
    // for it.
    const header = within(await screen.findByTestId('page-header', {}, { timeout: 15_000 }));
    expect(await header.findByRole('heading', { name: 'Widget gallery' }, { timeout: 15_000 })).toBeInTheDocument();
    for (const section of [
      'Data table: sorting, grouping, client pagination',
      'Data table: remote pagination',
      'Data table: virtual scrolling',
      'Data table: loading and empty',
      'Filters',
      'Copy to clipboard',
      'Toasts',
      'Error views',
      'Formatting',
      'Shell: sidebar with every area',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name: section })).toBeInTheDocument();
    }
    // The sample checks arrive through React Query, as a real page's would.
    expect(await screen.findByText('api-gateway-cert-expiry', {}, { timeout: 3_000 })).toBeInTheDocument();
    expect(screen.getByText('No data available')).toBeInTheDocument();
    expect(screen.getByText('Unauthorized - You do not have permission to access this page')).toBeInTheDocument();
  });

  it('does not exist outside development', async () => {
    vi.stubEnv('DEV', false);
    renderApp({ path: '/dev/gallery' });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
