import { EVENT_QUEUE_PAGE_TEXTS, VIEW_MESSAGES, type EventQueueSummaryRow } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const failing: EventQueueSummaryRow = {
  name: 'check.failed',
  pending: 2,
  failed: 3,
  average_attempts: 2.33,
  first_failure: '2024-10-02T08:00:00Z',
  last_failure: '2024-10-02T10:30:00Z',
  most_common_error: 'notification.send: connect ECONNREFUSED 127.0.0.1:25',
};
const quiet: EventQueueSummaryRow = {
  name: 'check.passed',
  pending: 7,
  failed: 0,
  average_attempts: null,
  first_failure: null,
  last_failure: null,
  most_common_error: null,
};

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** `GET /api/db/event_queue_summary`, recording the parameters the page sends. */
function summaryBackend(rows: EventQueueSummaryRow[]) {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get('*/api/db/event_queue_summary', ({ request }) => {
      seen.push(new URL(request.url).searchParams);
      return HttpResponse.json(rows);
    }),
  );
  return seen;
}

const openQueue = () => renderApp({ path: '/settings/event-queue-status', navigation });
const table = () => screen.findByRole('table', { name: EVENT_QUEUE_PAGE_TEXTS.table }, { timeout: 15_000 });
const rowOf = async (name: string) => {
  const cell = await within(await table()).findByText(name);
  return cell.closest('tr')!;
};

describe('/settings/event-queue-status (spec 3 section 2.9)', () => {
  it('lists the queue per event name, latest failure first, with counts, attempts and failure times', async () => {
    const seen = summaryBackend([quiet, failing]);
    openQueue();
    await rowOf('check.failed');
    expect(document.title).toBe('Event Queue | Lookout');
    expect(Object.fromEntries(seen[0]!)).toEqual({ order: 'last_failure.desc' });
    const rows = within(await table()).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(Object.values(EVENT_QUEUE_PAGE_TEXTS.columns));
    // The server's order is kept.
    expect(rows.slice(1).map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'check.passed',
      'check.failed',
    ]);
    const cells = within(await rowOf('check.failed'))
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 4)).toEqual(['check.failed', '2', '3', '2.33']);
    expect(cells[4]).toMatch(/^2024-10-02 \d\d:00$/);
    expect(
      within(await rowOf('check.passed'))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['check.passed', '7', '0', '-', '-', '-']);
  });

  it('shows the most common error of a row with failures, and nothing for one without', async () => {
    summaryBackend([failing, quiet]);
    const { user } = openQueue();
    await user.click(await rowOf('check.passed'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(await rowOf('check.failed'));
    const dialog = await screen.findByRole('dialog', { name: EVENT_QUEUE_PAGE_TEXTS.error.title });
    expect(dialog).toHaveTextContent('notification.send: connect ECONNREFUSED 127.0.0.1:25');
    expect(dialog).toHaveTextContent(EVENT_QUEUE_PAGE_TEXTS.error.description('check.failed'));
    await user.click(within(dialog).getByRole('button', { name: EVENT_QUEUE_PAGE_TEXTS.error.close }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("says 'No data available' for an empty queue", async () => {
    summaryBackend([]);
    openQueue();
    expect(await within(await table()).findByText(VIEW_MESSAGES.emptyTable)).toBeInTheDocument();
  });

  it('shows the error panel with what the server said when the summary cannot be read', async () => {
    server.use(
      http.get('*/api/db/event_queue_summary', () =>
        HttpResponse.json({ message: 'relation "event_queue_summary" does not exist' }, { status: 404 }),
      ),
    );
    openQueue();
    const heading = await screen.findByRole('heading', { name: VIEW_MESSAGES.renderError }, { timeout: 15_000 });
    expect(heading.closest('[role="alert"]')).toHaveTextContent('relation "event_queue_summary" does not exist');
  });

  it('is in the Settings menu after Feature Flags and Log Backends, and gone while its feature is disabled', async () => {
    summaryBackend([quiet]);
    const first = openQueue();
    await rowOf('check.passed');
    const labels = within(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('list', { name: 'Settings' }),
    )
      .getAllByRole('link')
      .map((link) => link.textContent);
    // Spec 1 section 2: ... Jobs History, Feature Flags, Log Backends, Event Queue, Agents, ...
    expect(labels.indexOf('Log Backends')).toBe(labels.indexOf('Feature Flags') + 1);
    expect(labels.indexOf('Event Queue')).toBe(labels.indexOf('Log Backends') + 1);
    first.unmount();

    server.use(
      ...consoleStartupHandlers({
        properties: [propertyFixture({ name: 'settings.event_queue_status.disable', value: 'true' })],
      }),
    );
    const { user } = openQueue();
    expect(await screen.findByRole('heading', { name: 'Page not found' }, { timeout: 15_000 })).toBeInTheDocument();
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Settings' }),
    );
    const submenu = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('list', { name: 'Settings' });
    expect(within(submenu).queryByRole('link', { name: 'Event Queue' })).not.toBeInTheDocument();
  });
});
