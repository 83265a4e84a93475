import { WHAT_CHANGED_TEXTS, type WhatChangedResponse } from '@lookout/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { HttpResponse, delay, http } from 'msw';
import { setupServer } from 'msw/node';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { WhatChangedPanel } from './what-changed-panel';

vi.setConfig({ testTimeout: 30_000 });

const ID = '0193a000-0000-7000-8000-000000000002';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const answer = (items: WhatChangedResponse['items']): WhatChangedResponse => ({
  component: { id: ID, name: 'orders-db', health: 'unhealthy' },
  unhealthySince: '2026-01-01T11:00:00Z',
  from: '2026-01-01T10:00:00Z',
  to: '2026-01-01T11:01:00Z',
  items,
});

function renderPanel() {
  const router = createMemoryRouter([{ path: '*', element: <WhatChangedPanel id={ID} /> }]);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('WhatChangedPanel', () => {
  it('shows the loading state, then the ranked entries with their links', async () => {
    const paths: string[] = [];
    server.use(
      http.get('*/api/topology/what-changed/:id', async ({ request }) => {
        paths.push(new URL(request.url).pathname);
        await delay(50);
        return HttpResponse.json(
          answer([
            {
              kind: 'config_change',
              id: 'ch1',
              at: '2026-01-01T10:10:00Z',
              severity: 'critical',
              relation: 'parent',
              component: { id: 'p', name: 'shop' },
              title: 'diff',
              summary: 'release 42',
              config: { id: 'cfg1', name: 'shop-config', type: 'Kubernetes::Deployment' },
              change_type: 'diff',
            },
            {
              kind: 'check_transition',
              id: 'k1@2026-01-01T10:57:00Z',
              at: '2026-01-01T10:57:00Z',
              severity: 'high',
              relation: 'self',
              component: { id: ID, name: 'orders-db' },
              title: 'db-port',
              summary: 'connection refused',
              check: { id: 'k1', name: 'db-port' },
              status: 'unhealthy',
            },
          ]),
        );
      }),
    );
    renderPanel();
    expect(screen.getByText(WHAT_CHANGED_TEXTS.loading)).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: WHAT_CHANGED_TEXTS.title });
    const entries = within(list).getAllByRole('listitem');
    expect(entries).toHaveLength(2);
    expect(within(entries[0]!).getByRole('link', { name: 'diff' })).toHaveAttribute('href', '/catalog/cfg1/changes');
    expect(entries[0]).toHaveTextContent('critical');
    expect(entries[0]).toHaveTextContent('shop-config');
    expect(entries[0]).toHaveTextContent('parent shop');
    expect(entries[0]).toHaveTextContent('release 42');
    expect(within(entries[1]!).getByRole('link', { name: 'db-port' })).toHaveAttribute('href', '/health?checkId=k1');
    expect(entries[1]).toHaveTextContent('failed');
    expect(entries[1]).toHaveTextContent(WHAT_CHANGED_TEXTS.relation.self);
    expect(screen.getByText(/^Unhealthy since /)).toBeInTheDocument();
    expect(paths).toEqual([`/api/topology/what-changed/${ID}`]);
  });

  it('says when nothing changed in the hour before', async () => {
    server.use(http.get('*/api/topology/what-changed/:id', () => HttpResponse.json(answer([]))));
    renderPanel();
    expect(await screen.findByText(WHAT_CHANGED_TEXTS.empty)).toBeInTheDocument();
  });

  it('says when the call failed', async () => {
    server.use(
      http.get('*/api/topology/what-changed/:id', () =>
        HttpResponse.json({ error: 'Component not found' }, { status: 404 }),
      ),
    );
    renderPanel();
    expect(await screen.findByText(WHAT_CHANGED_TEXTS.loadError, undefined, { timeout: 15_000 })).toBeInTheDocument();
  });
});
