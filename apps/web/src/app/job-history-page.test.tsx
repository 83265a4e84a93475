import { JOB_HISTORY_TEXTS, VIEW_MESSAGES } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, delay, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { signedInHandlers } from '@/test/identity-handlers';
import { jobFixture, jobHistoryHandlers } from '@/test/job-history-backend';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const CANARY_ID = '0192a5d4-1111-7000-8000-000000000001';
const SCRAPER_ID = '0192a5d4-1111-7000-8000-000000000002';

const canarySync = jobFixture({
  id: '0192a5d4-2222-7000-8000-000000000001',
  name: 'SyncCanary',
  status: 'FAILED',
  error_count: 1,
  success_count: 0,
  resource_type: 'canary',
  resource_id: CANARY_ID,
  resource_name: 'web-probe',
  duration_millis: 40,
  details: { errors: 'spec.http[0].url: is required' },
});
const scrape = jobFixture({
  id: '0192a5d4-2222-7000-8000-000000000002',
  name: 'ScrapeConfig',
  status: 'WARNING',
  success_count: 3,
  error_count: 2,
  resource_type: 'config_scraper',
  resource_id: SCRAPER_ID,
  resource_name: 'kubernetes',
  duration_millis: 7200,
  agent_id: '0192a5d4-3333-7000-8000-000000000001',
  agent: { id: '0192a5d4-3333-7000-8000-000000000001', name: 'eu-west' },
  details: {
    errors: { 'pod/a': { error: 'forbidden' }, 'pod/b': { error: 'not found' } },
    scrape_summary: { pods: 3 },
  },
});
const reconcile = jobFixture({
  id: '0192a5d4-2222-7000-8000-000000000003',
  name: 'Reconcile',
  status: 'RUNNING',
  duration_millis: null,
  details: { summary: { pushed: 5 } },
});
const stale = jobFixture({
  id: '0192a5d4-2222-7000-8000-000000000004',
  name: 'AggregateCheckStatuses1h',
  status: 'STALE',
  details: { from: '2024-10-02T09:00:00Z' },
});
const passed = jobFixture({ id: '0192a5d4-2222-7000-8000-000000000005', name: 'CleanupJobHistory', status: 'SUCCESS' });
const ROWS = [canarySync, scrape, reconcile, stale, passed];

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function backend(rows = ROWS, options: { total?: number } = {}) {
  const { handlers, requests } = jobHistoryHandlers(rows, options);
  server.use(...handlers);
  return requests;
}

const openJobs = (path = '/settings/jobs') => renderApp({ path, navigation });
// The first render loads the console's chunks, which takes a while on a busy machine.
const table = () => screen.findByRole('table', { name: JOB_HISTORY_TEXTS.table }, { timeout: 15_000 });
const dataRows = async () =>
  within(await table())
    .getAllByRole('row')
    .slice(1);
const rowOf = async (name: string) => {
  const cell = await within(await table()).findByText(name);
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
};
const lastRequest = (requests: { params: URLSearchParams }[]) => requests[requests.length - 1]!.params;

describe('/settings/jobs (spec 2 section 2.7)', () => {
  it('asks for the last 2 days without SUCCESS, newest first, 150 a page, counted, and lists the runs', async () => {
    const requests = backend();
    openJobs();
    expect(await rowOf('SyncCanary')).toBeInTheDocument();
    expect(document.title).toBe('Jobs History | Lookout');

    const { params, prefer } = requests[0]!;
    expect(prefer).toBe('count=exact');
    expect(params.get('select')).toBe('*');
    expect(params.get('limit')).toBe('150');
    expect(params.get('offset')).toBe('0');
    expect(params.get('status.filter')).toBe('!SUCCESS');
    expect(params.get('order')).toBe('created_at.desc');
    const window = /^\(created_at\.gt\.(.+),created_at\.lt\.(.+)\)$/.exec(params.get('and') ?? '');
    expect(window).not.toBeNull();
    const [from, to] = [Date.parse(window![1]!), Date.parse(window![2]!)];
    expect(to - from).toBe(2 * 86_400_000);
    expect(Math.abs(to - Date.now())).toBeLessThan(60_000);

    const headers = within(await table())
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(Object.values(JOB_HISTORY_TEXTS.columns));
    expect((await dataRows()).map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'SyncCanary',
      'ScrapeConfig',
      'Reconcile',
      'AggregateCheckStatuses1h',
    ]);
    // Status badges, counts, duration, host and the agent (the local one shows none).
    const scrapeRow = await rowOf('ScrapeConfig');
    expect(scrapeRow).toHaveTextContent('Warning');
    expect(scrapeRow).toHaveTextContent('7.2s');
    expect(scrapeRow).toHaveTextContent('eu-west');
    expect(await rowOf('AggregateCheckStatuses1h')).toHaveTextContent('Stale');
    expect(screen.getByRole('button', { name: 'Status: !Success' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Time range: Last 2 days' })).toBeInTheDocument();
  });

  it('links a canary to its settings page and a scraper run to the scraper page', async () => {
    backend();
    openJobs();
    const canaryLink = within(await rowOf('SyncCanary')).getByRole('link', { name: 'web-probe' });
    expect(canaryLink).toHaveAttribute('href', `/settings/canaries/${CANARY_ID}`);
    const scrapeRow = await rowOf('ScrapeConfig');
    expect(within(scrapeRow).getByRole('link', { name: 'kubernetes' })).toHaveAttribute(
      'href',
      `/catalog/scrapers/${SCRAPER_ID}`,
    );
    expect(scrapeRow).toHaveTextContent('Catalog Scraper');
  });

  it('filters by status, job name, resource type and duration, keeping each in the address', async () => {
    const requests = backend();
    const { user, router } = openJobs();
    await rowOf('SyncCanary');

    // Status: clearing the default asks for every status; the address says so.
    await user.click(screen.getByRole('button', { name: 'Status: !Success' }));
    await user.click(await screen.findByRole('button', { name: 'Clear selection' }));
    expect(await rowOf('CleanupJobHistory')).toBeInTheDocument();
    expect(lastRequest(requests).has('status.filter')).toBe(false);
    expect(router.state.location.search).toContain('status=');
    await user.keyboard('{Escape}');

    // Job name: include one.
    await user.click(screen.getByRole('button', { name: 'Job Name: All' }));
    await user.click(await screen.findByRole('button', { name: 'Include ScrapeConfig' }));
    await waitFor(() => expect(lastRequest(requests).get('name.filter')).toBe('ScrapeConfig'));
    await waitFor(async () => expect(await dataRows()).toHaveLength(1));
    expect(new URLSearchParams(router.state.location.search).get('name')).toBe('ScrapeConfig:1');
    await user.keyboard('{Escape}');

    // Resource type.
    await user.selectOptions(screen.getByLabelText(JOB_HISTORY_TEXTS.filters.resourceType), 'Catalog Scraper');
    await waitFor(() => expect(lastRequest(requests).get('resource_type.filter')).toBe('config_scraper'));
    expect(new URLSearchParams(router.state.location.search).get('resourceType')).toBe('config_scraper');

    // Run duration: a preset, then a custom value in ms.
    await user.selectOptions(screen.getByLabelText(JOB_HISTORY_TEXTS.filters.duration), '5s');
    await waitFor(() => expect(lastRequest(requests).get('duration_millis')).toBe('gte.5000'));
    await user.selectOptions(screen.getByLabelText(JOB_HISTORY_TEXTS.filters.duration), 'Custom');
    await user.type(screen.getByLabelText(JOB_HISTORY_TEXTS.filters.customDuration), '250ms');
    await waitFor(() => expect(lastRequest(requests).get('duration_millis')).toBe('gte.250'));
    expect(new URLSearchParams(router.state.location.search).get('duration')).toBe('250ms');
  });

  it("refuses a custom duration in other units with the spec's message and keeps the filter in force", async () => {
    const requests = backend();
    const { user } = openJobs('/settings/jobs?duration=2s');
    await rowOf('ScrapeConfig');
    expect(lastRequest(requests).get('duration_millis')).toBe('gte.2000');
    await user.selectOptions(screen.getByLabelText(JOB_HISTORY_TEXTS.filters.duration), 'Custom');
    const input = screen.getByLabelText(JOB_HISTORY_TEXTS.filters.customDuration);
    await user.type(input, '2m');
    expect(await screen.findByRole('alert')).toHaveTextContent(JOB_HISTORY_TEXTS.filters.durationError);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(lastRequest(requests).get('duration_millis')).toBe('gte.2000');
  });

  it('reads its state from the address: page, page size, order and filters', async () => {
    const requests = backend(ROWS, { total: 400 });
    openJobs(
      '/settings/jobs?pageIndex=2&pageSize=50&sortBy=duration_millis&sortOrder=asc&status=FAILED:1,WARNING:1&name=ScrapeConfig:-1&resourceType=canary',
    );
    await waitFor(() => expect(requests.length).toBeGreaterThan(0));
    expect(Object.fromEntries(requests[0]!.params)).toMatchObject({
      limit: '50',
      offset: '100',
      order: 'duration_millis.asc',
      'status.filter': 'FAILED,WARNING',
      'name.filter': '!ScrapeConfig',
      'resource_type.filter': 'canary',
    });
    await waitFor(() => expect(screen.getByText(/^Page /).textContent).toBe('Page 3 of 8'));
  });

  it('pages and sorts on the server, writing both to the address', async () => {
    const requests = backend(ROWS, { total: 400 });
    const { user, router } = openJobs();
    await rowOf('SyncCanary');
    await waitFor(() => expect(screen.getByText(/^Page /).textContent).toBe('Page 1 of 3'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastRequest(requests).get('offset')).toBe('150'));
    expect(new URLSearchParams(router.state.location.search).get('pageIndex')).toBe('1');

    await user.click(within(await table()).getByRole('button', { name: /^Duration/ }));
    await waitFor(() => expect(lastRequest(requests).get('order')).toMatch(/^duration_millis\.(asc|desc)$/));
    const search = new URLSearchParams(router.state.location.search);
    expect(search.get('sortBy')).toBe('duration_millis');
    // A new order starts again at the first page.
    expect(search.get('pageIndex')).toBeNull();
    expect(lastRequest(requests).get('offset')).toBe('0');

    // So does a new time range, sent as absolute times.
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastRequest(requests).get('offset')).toBe('150'));
    await user.click(screen.getByRole('button', { name: 'Time range: Last 2 days' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Time range' })).getByRole('button', { name: 'Last 1 week' }),
    );
    await waitFor(() => expect(lastRequest(requests).get('offset')).toBe('0'));
    const window = /^\(created_at\.gt\.(.+),created_at\.lt\.(.+)\)$/.exec(lastRequest(requests).get('and') ?? '');
    expect(Date.parse(window![2]!) - Date.parse(window![1]!)).toBe(7 * 86_400_000);
    const after = new URLSearchParams(router.state.location.search);
    expect(after.get('range')).toBe('now-1w');
    expect(after.get('pageIndex')).toBeNull();
    expect(after.get('sortBy')).toBe('duration_millis');
  });
});

describe('the details modal (spec 2 sections 2.7 and 3)', () => {
  it('opens on Errors, with only the tabs that have data, and lists errors keyed by item', async () => {
    backend();
    const { user } = openJobs();
    await user.click(await rowOf('ScrapeConfig'));
    const dialog = await screen.findByRole('dialog', { name: 'Details for job ScrapeConfig' });
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Errors', 'Scrape Summary']);
    expect(within(dialog).getByRole('tab', { name: 'Errors' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByText('pod/a')).toBeInTheDocument();
    expect(within(dialog).getByText('forbidden')).toBeInTheDocument();
    expect(within(dialog).getByText('not found')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('tab', { name: 'Scrape Summary' }));
    expect(within(dialog).getByText(/"pods": 3/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows an error given as a string', async () => {
    backend();
    const { user } = openJobs();
    await user.click(await rowOf('SyncCanary'));
    const dialog = await screen.findByRole('dialog', { name: 'Details for job SyncCanary' });
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Errors']);
    expect(within(dialog).getByText('spec.http[0].url: is required')).toBeInTheDocument();
  });

  it('opens on the Reconcile Summary when a run has only a summary', async () => {
    backend();
    const { user } = openJobs();
    await user.click(await rowOf('Reconcile'));
    const dialog = await screen.findByRole('dialog', { name: 'Details for job Reconcile' });
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Reconcile Summary']);
    expect(within(dialog).getByText(/"pushed": 5/)).toBeInTheDocument();
  });

  it('opens no modal for a run without errors or summaries', async () => {
    backend();
    const { user } = openJobs();
    await user.click(await rowOf('AggregateCheckStatuses1h'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Another row with details does open one.
    await user.click(await rowOf('Reconcile'));
    expect(await screen.findByRole('dialog', { name: 'Details for job Reconcile' })).toBeInTheDocument();
  });

  it('opens no modal when a resource link is followed, only the resource', async () => {
    backend();
    // The canary's page reads the canary; an empty answer is enough here.
    server.use(http.get('*/api/db/canaries', () => HttpResponse.json([])));
    const { user, router } = openJobs();
    await user.click(within(await rowOf('SyncCanary')).getByRole('link', { name: 'web-probe' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/settings/canaries/${CANARY_ID}`));
    expect(screen.queryByRole('dialog', { name: /Details for job/ })).not.toBeInTheDocument();
  });
});

describe('loading, empty and error states', () => {
  it('shows the loading skeleton until the runs arrive', async () => {
    const { handlers } = jobHistoryHandlers(ROWS);
    server.use(
      http.get('*/api/db/job_histories', async () => {
        await delay('infinite');
        return HttpResponse.json([]);
      }),
      ...handlers.slice(1),
    );
    openJobs();
    const busy = await screen.findByRole('table', { name: JOB_HISTORY_TEXTS.table });
    expect(busy).toHaveAttribute('aria-busy', 'true');
  });

  it("says 'No data available' when nothing matches", async () => {
    backend([passed]);
    openJobs();
    expect(await within(await table()).findByText(VIEW_MESSAGES.emptyTable)).toBeInTheDocument();
  });

  it('shows the error panel when the list cannot be read, and tries again', async () => {
    server.use(
      http.get('*/api/db/job_histories', () =>
        HttpResponse.json({ message: 'permission denied for view job_histories' }, { status: 500 }),
      ),
      http.get('*/api/db/job_history_names', () => HttpResponse.json([])),
    );
    const { user } = openJobs();
    const heading = await screen.findByRole('heading', { name: VIEW_MESSAGES.renderError }, { timeout: 15_000 });
    const panel = heading.closest<HTMLElement>('[role="alert"]')!;
    expect(panel).toHaveTextContent('permission denied for view job_histories');
    backend();
    await user.click(within(panel).getByRole('button', { name: 'Try again' }));
    expect(await rowOf('SyncCanary')).toBeInTheDocument();
  });
});

describe('who sees Jobs History', () => {
  it('is in the Settings menu in the spec order, after Users and before Feature Flags', async () => {
    backend();
    openJobs();
    await rowOf('SyncCanary');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const submenu = within(nav).getByRole('list', { name: 'Settings' });
    const labels = within(submenu)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(labels.indexOf('Jobs History')).toBeGreaterThan(labels.indexOf('Users'));
    expect(labels.indexOf('Jobs History')).toBeLessThan(labels.indexOf('Feature Flags'));
    expect(within(submenu).getByRole('link', { name: 'Jobs History' })).toHaveAttribute('aria-current', 'page');
  });

  it('is gone, menu item and route, while health (its parent feature) is disabled', async () => {
    server.use(...consoleStartupHandlers({ properties: [propertyFixture({ name: 'health.disable', value: 'true' })] }));
    backend();
    const { user } = openJobs();
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Settings' }),
    );
    const submenu = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('list', { name: 'Settings' });
    expect(within(submenu).queryByRole('link', { name: 'Jobs History' })).not.toBeInTheDocument();
  });

  it('hides the Settings menu from a viewer', async () => {
    server.use(...consoleStartupHandlers({ roles: ['viewer'] }));
    backend();
    openJobs();
    // A viewer may read the database resource, so the page itself answers.
    expect(await rowOf('SyncCanary')).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('button', { name: 'Settings' }),
    ).not.toBeInTheDocument();
  });
});
