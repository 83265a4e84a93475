import { JOB_HISTORY_TEXTS } from '@lookout/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { jobFixture, jobHistoryHandlers } from '@/test/job-history-backend';
import { JobHistoryTable } from './job-history-table';

const TEAM_ID = '0192a5d4-4444-7000-8000-000000000001';
const OTHER_TEAM_ID = '0192a5d4-4444-7000-8000-000000000002';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The table as a team page's Job History tab composes it. */
function renderTab(path = '/settings/teams/x?tab=jobs') {
  const router = createMemoryRouter(
    [
      {
        path: '/settings/teams/:id',
        element: (
          <JobHistoryTable
            resourceType="team"
            resourceId={TEAM_ID}
            resourceHref={(type, id) => (type === 'team' ? `/settings/teams/${id}` : undefined)}
          />
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}

describe("JobHistoryTable on a resource's Job History tab", () => {
  it("asks only for that resource's runs and offers no resource type filter", async () => {
    const { handlers, requests } = jobHistoryHandlers([
      jobFixture({
        id: '0192a5d4-5555-7000-8000-000000000001',
        name: 'SyncTeam',
        status: 'FAILED',
        resource_type: 'team',
        resource_id: TEAM_ID,
        resource_name: 'Platform',
      }),
      jobFixture({
        id: '0192a5d4-5555-7000-8000-000000000002',
        name: 'SyncTeam',
        status: 'FAILED',
        resource_type: 'team',
        resource_id: OTHER_TEAM_ID,
        resource_name: 'Payments',
      }),
    ]);
    server.use(...handlers);
    const { router } = renderTab();
    const table = await screen.findByRole('table', { name: JOB_HISTORY_TEXTS.table }, { timeout: 10_000 });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(Object.fromEntries(requests[0]!.params)).toMatchObject({
      'resource_type.filter': 'team',
      resource_id: `eq.${TEAM_ID}`,
      'status.filter': '!SUCCESS',
      limit: '150',
    });
    expect(within(table).getByRole('link', { name: 'Platform' })).toHaveAttribute('href', `/settings/teams/${TEAM_ID}`);
    expect(screen.queryByLabelText(JOB_HISTORY_TEXTS.filters.resourceType)).not.toBeInTheDocument();
    // The tab's own parameters stay in the address.
    expect(router.state.location.search).toBe('?tab=jobs');
  });
});
