import { TOPOLOGY_TEXTS } from '@lookout/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { PlaybookRunsPanel } from './list-panels';

vi.setConfig({ testTimeout: 30_000 });

const ID = '0193a000-0000-7000-8000-000000000002';
const RUN = '0193a000-0000-7000-8000-0000000000a1';
const server = setupServer();
const requests: URL[] = [];
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

const runs = (rows: unknown[]) =>
  http.get('*/api/db/playbook_runs', ({ request }) => {
    requests.push(new URL(request.url));
    return HttpResponse.json(rows);
  });

function renderPanel(withRunPage: boolean) {
  const routes: RouteObject[] = [{ path: '*', element: <PlaybookRunsPanel id={ID} /> }];
  if (withRunPage) routes.unshift({ path: '/playbooks/runs/:id', element: <p>run page</p> });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/topology/x'] })} />
    </QueryClientProvider>,
  );
}

const row = {
  id: RUN,
  status: 'completed',
  created_at: '2026-01-01T10:00:00Z',
  start_time: '2026-01-01T10:00:01Z',
  end_time: '2026-01-01T10:00:05Z',
  playbooks: { id: 'p1', name: 'restart-db', title: 'Restart database', icon: null },
};

describe('PlaybookRunsPanel', () => {
  it("lists the component's runs newest first, each to its run page", async () => {
    server.use(runs([row]));
    renderPanel(true);
    const link = await screen.findByRole('link', { name: 'Restart database' });
    expect(link).toHaveAttribute('href', `/playbooks/runs/${RUN}`);
    expect(screen.getByText(/^completed · /)).toBeInTheDocument();
    const params = requests[0]!.searchParams;
    expect(params.get('component_id')).toBe(`eq.${ID}`);
    expect(params.get('order')).toBe('created_at.desc');
    expect(params.get('select')).toContain('playbooks(');
  });

  it('shows the name without a link while the run page does not exist, and the empty text', async () => {
    server.use(runs([row]));
    renderPanel(false);
    expect(await screen.findByText('Restart database')).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('says when there are no runs', async () => {
    server.use(runs([]));
    renderPanel(true);
    expect(await screen.findByText(TOPOLOGY_TEXTS.panelEmpty.playbookRuns)).toBeInTheDocument();
  });
});
