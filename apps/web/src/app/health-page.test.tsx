import { HEALTH_PAGE_TEXTS, VIEW_MESSAGES } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { checkSummaryFixture, healthHandlers } from '@/test/health-fixtures';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const home = checkSummaryFixture({
  name: 'home',
  canary_name: 'web',
  labels: { env: 'prod', team: 'sre', critical: 'true' },
});
const api = checkSummaryFixture({
  name: 'api',
  canary_name: 'web',
  status: 'unhealthy',
  labels: { env: 'prod', team: 'payments' },
  uptime: { passed: 30, failed: 30, last_pass: null, last_fail: null },
});
const db = checkSummaryFixture({
  name: 'db',
  type: 'tcp',
  canary_name: 'data',
  canary_namespace: 'storage',
  namespace: 'storage',
  status: 'unhealthy',
  endpoint: 'db.internal:5432',
  labels: { env: 'staging', critical: 'true' },
});
const cache = checkSummaryFixture({
  name: 'cache',
  type: 'redis',
  canary_name: 'data',
  namespace: '',
  status: 'healthy',
  endpoint: 'cache.internal:6379',
});
const CHECKS = [home, api, db, cache];

const openHealth = (query = '') => {
  const backend = healthHandlers({ checks: CHECKS });
  server.use(...backend.handlers);
  const view = renderApp({ path: `/health${query}`, navigation });
  return { ...view, calls: backend.calls };
};

const table = () => screen.findByRole('table', { name: HEALTH_PAGE_TEXTS.checksTable });
const bodyRows = async () =>
  within(await table())
    .getAllByRole('row')
    .slice(1);
const rowTexts = async () => (await bodyRows()).map((row) => row.textContent ?? '');
const search = (router: { state: { location: { search: string } } }) =>
  new URLSearchParams(router.state.location.search);

describe('/health', () => {
  it('is an area the sidebar links (after the Dashboard, where / leads)', async () => {
    const backend = healthHandlers({ checks: CHECKS });
    server.use(...backend.handlers);
    const { router } = renderApp({ path: '/health', navigation });
    await waitFor(() => expect(router.state.location.pathname).toBe('/health'));
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() =>
      expect(within(nav).getByRole('link', { name: HEALTH_PAGE_TEXTS.title })).toHaveAttribute('aria-current', 'page'),
    );
    expect(await screen.findByRole('heading', { name: HEALTH_PAGE_TEXTS.title, level: 1 })).toBeInTheDocument();
  });

  it('shows passing and failing counts, and hides passing checks by default', async () => {
    openHealth('?groupBy=no-group');
    const counts = await screen.findByLabelText('Check counts');
    await waitFor(() => expect(counts).toHaveTextContent('2 passing'));
    expect(counts).toHaveTextContent('2 failing');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    const texts = await rowTexts();
    expect(texts.some((text) => text.includes('api'))).toBe(true);
    expect(texts.some((text) => text.includes('db'))).toBe(true);
    expect(screen.getByRole('switch', { name: HEALTH_PAGE_TEXTS.hidePassing })).toBeChecked();
  });

  it('shows passing checks once Hide Passing is off, and keeps that in the address', async () => {
    const { user, router } = openHealth('?groupBy=no-group');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    await user.click(screen.getByRole('switch', { name: HEALTH_PAGE_TEXTS.hidePassing }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));
    expect(search(router).get('hidePassing')).toBe('false');
  });

  it('turns Hide Passing off and on from its label, and from the keyboard', async () => {
    const { user, router } = openHealth('?groupBy=no-group');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    const filters = screen.getByRole('complementary', { name: 'Filters' });
    await user.click(within(filters).getByText(HEALTH_PAGE_TEXTS.hidePassing));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));
    expect(search(router).get('hidePassing')).toBe('false');

    const hidePassing = screen.getByRole('switch', { name: HEALTH_PAGE_TEXTS.hidePassing });
    expect(hidePassing).not.toBeChecked();
    hidePassing.focus();
    await user.keyboard(' ');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    expect(search(router).get('hidePassing')).toBeNull();
    await user.keyboard('{Enter}');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));
  });

  it('has the table columns of the spec, with health dots in the spec colours', async () => {
    openHealth('?groupBy=no-group&hidePassing=false');
    const headers = within(await table()).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual([
      'Checks',
      'Health',
      'Uptime',
      'Latency',
      'Transition',
    ]);
    const dbRow = (await bodyRows()).find((row) => row.textContent?.includes('db'));
    expect(within(dbRow as HTMLElement).getByRole('img', { name: 'unhealthy' })).toHaveAttribute('data-colour', 'red');
    expect(dbRow).toHaveTextContent('storage');
    expect(dbRow).toHaveTextContent('98.3%');
    expect(dbRow).toHaveTextContent('120ms');
    // The Transition column: 90 minutes ago, within the 7 days it shows an age for.
    expect(dbRow).toHaveTextContent('2 hours ago');
  });

  it('searches by name, description or endpoint', async () => {
    const { user, router } = openHealth('?groupBy=no-group&hidePassing=false');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));
    await user.type(screen.getByPlaceholderText(HEALTH_PAGE_TEXTS.searchPlaceholder), '5432');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(1));
    expect((await rowTexts())[0]).toContain('db');
    expect(search(router).get('query')).toBe('5432');
  });

  it('groups by canary name by default; groups expand; No Grouping lists every check', async () => {
    const { user, router } = openHealth('?hidePassing=false');
    const groupBy = await screen.findByRole('combobox', { name: `${HEALTH_PAGE_TEXTS.groupBy}:` });
    expect(groupBy).toHaveValue('canary_name');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    const web = (await bodyRows()).find((row) => row.textContent?.includes('web')) as HTMLElement;
    // A mixed group: one healthy, one failing check; one of two passed every run.
    expect(within(web).getByRole('img', { name: 'mixed' })).toHaveAttribute('data-colour', 'orange');
    expect(web).toHaveTextContent('0/2');
    await user.click(within(web).getByRole('button', { name: 'Expand row' }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));

    await user.selectOptions(groupBy, 'no-group');
    expect(search(router).get('groupBy')).toBe('no-group');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));
    expect(within(await table()).queryByRole('button', { name: 'Expand row' })).not.toBeInTheDocument();
  });

  it('expands a group on a click anywhere on its row, or Enter and Space on it', async () => {
    const { user, router } = openHealth('?hidePassing=false');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    const groupRow = async () => (await bodyRows()).find((row) => row.textContent?.includes('web')) as HTMLElement;
    // The Uptime cell, away from the group's name and chevron.
    await user.click(within(await groupRow()).getByText('0/2'));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));
    expect(await groupRow()).toHaveAttribute('aria-expanded', 'true');
    // Expanding a group does not open a check.
    expect(search(router).has('checkId')).toBe(false);

    (await groupRow()).focus();
    await user.keyboard('{Enter}');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    await user.keyboard(' ');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));

    // A check's row still opens its drawer.
    const homeRow = (await bodyRows()).find((row) => row.textContent?.includes('home')) as HTMLElement;
    await user.click(within(homeRow).getByText('home'));
    await waitFor(() => expect(search(router).get('checkId')).toBe(home.id));
  });

  it('offers the spec Group By choices plus every label key', async () => {
    openHealth();
    const groupBy = await screen.findByRole('combobox', { name: `${HEALTH_PAGE_TEXTS.groupBy}:` });
    await waitFor(() =>
      expect(
        within(groupBy)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['No Grouping', 'Group Name', 'Name', 'Description', 'Type', 'critical', 'env', 'team']),
    );
    const tabBy = screen.getByRole('combobox', { name: `${HEALTH_PAGE_TEXTS.tabBy}:` });
    expect(tabBy).toHaveValue('namespace');
    expect(
      within(tabBy)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Namespace', 'critical', 'env', 'team', 'Agent']);
  });

  it('tabs by namespace: All first, then sorted, none for an empty namespace', async () => {
    const { user, router } = openHealth('?groupBy=no-group&hidePassing=false');
    const tabList = await screen.findByRole('tablist', { name: 'Check tabs' });
    await waitFor(() =>
      expect(
        within(tabList)
          .getAllByRole('tab')
          .map((tab) => tab.textContent),
      ).toEqual(['All', 'default', 'none', 'storage']),
    );
    await user.click(within(tabList).getByRole('tab', { name: 'storage' }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(1));
    expect(search(router).get('tab')).toBe('storage');

    await user.selectOptions(screen.getByRole('combobox', { name: `${HEALTH_PAGE_TEXTS.tabBy}:` }), 'team');
    await waitFor(() =>
      expect(
        within(tabList)
          .getAllByRole('tab')
          .map((tab) => tab.textContent),
      ).toEqual(['All', 'payments', 'sre']),
    );
    expect(search(router).get('tabBy')).toBe('team');
    expect(search(router).get('tab')).toBeNull();

    await user.selectOptions(screen.getByRole('combobox', { name: `${HEALTH_PAGE_TEXTS.tabBy}:` }), 'agent_id');
    await waitFor(() =>
      expect(
        within(tabList)
          .getAllByRole('tab')
          .map((tab) => tab.textContent),
      ).toEqual(['All', 'local']),
    );
  });

  it('filters by label: a toggle for boolean labels, a multi-select for the others', async () => {
    const { user, router } = openHealth('?groupBy=no-group&hidePassing=false');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));
    const filters = screen.getByRole('complementary', { name: 'Filters' });
    expect(within(filters).getByRole('heading', { name: HEALTH_PAGE_TEXTS.filterByLabel })).toBeInTheDocument();

    await user.click(within(filters).getByRole('button', { name: 'Include critical' }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    expect(JSON.parse(search(router).get('labels') ?? '{}')).toEqual({ 'canary:critical:true': 1 });

    await user.click(within(filters).getByRole('button', { name: 'Exclude critical' }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    expect((await rowTexts()).join()).toContain('cache');

    await user.click(within(filters).getByRole('button', { name: 'Exclude critical' }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));

    await user.click(within(filters).getByRole('button', { name: 'env: All' }));
    await user.click(await screen.findByRole('checkbox', { name: 'staging' }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(1));
    expect((await rowTexts())[0]).toContain('db');
  });

  it('restores the view from the address', async () => {
    openHealth(
      `?query=web&groupBy=no-group&hidePassing=false&sortBy=name&sortDesc=true&labels=${encodeURIComponent(
        JSON.stringify({ 'canary:env:prod': 1 }),
      )}`,
    );
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    const texts = await rowTexts();
    expect(texts[0]).toContain('home');
    expect(texts[1]).toContain('api');
    expect(screen.getByPlaceholderText(HEALTH_PAGE_TEXTS.searchPlaceholder)).toHaveValue('web');
    expect(within(await table()).getByRole('columnheader', { name: /Checks/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  it('sorts and keeps the order in the address', async () => {
    const { user, router } = openHealth('?groupBy=no-group&hidePassing=false');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(4));
    // Numbers sort highest first on the first click, so the worst uptime ends up last.
    await user.click(within(await table()).getByRole('button', { name: /Uptime/ }));
    expect(search(router).get('sortBy')).toBe('uptime');
    expect(search(router).get('sortDesc')).toBe('true');
    await waitFor(async () => expect((await rowTexts()).at(-1)).toContain('api'));
    await user.click(within(await table()).getByRole('button', { name: /Uptime/ }));
    expect(search(router).get('sortDesc')).toBeNull();
    await waitFor(async () => expect((await rowTexts())[0]).toContain('api'));
  });

  it('pivots checks by namespace or by a label, with the chosen cell', async () => {
    const { user, router } = openHealth('?pivotBy=namespace&hidePassing=false');
    const byNamespace = await screen.findByRole('table', { name: 'Health checks by namespace' });
    await waitFor(() =>
      expect(
        within(byNamespace)
          .getAllByRole('columnheader')
          .map((header) => header.textContent),
      ).toEqual(['Checks', 'default', 'none', 'storage']),
    );
    const dbRow = within(byNamespace).getByRole('row', { name: /^db/ });
    expect(dbRow).toHaveTextContent('98.3%');

    await user.selectOptions(screen.getByRole('combobox', { name: `${HEALTH_PAGE_TEXTS.pivotBy}:` }), 'labels');
    await user.selectOptions(screen.getByRole('combobox', { name: `${HEALTH_PAGE_TEXTS.pivotLabel}:` }), 'env');
    await user.selectOptions(
      screen.getByRole('combobox', { name: `${HEALTH_PAGE_TEXTS.pivotCell}:` }),
      'checkStatuses',
    );
    const byEnv = await screen.findByRole('table', { name: 'Health checks by env' });
    expect(
      within(byEnv)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Checks', 'prod', 'staging']);
    expect(
      within(within(byEnv).getByRole('row', { name: /^api/ })).getByRole('img', { name: 'unhealthy' }),
    ).toBeVisible();
    const params = search(router);
    expect([params.get('pivotBy'), params.get('pivotLabel'), params.get('pivotCellType')]).toEqual([
      'labels',
      'env',
      'checkStatuses',
    ]);

    await user.click(within(within(byEnv).getByRole('row', { name: /^db/ })).getByRole('button'));
    expect(search(router).get('checkId')).toBe(db.id);
  });

  it('shows the card layout', async () => {
    openHealth('?layout=card&hidePassing=false');
    const cards = await screen.findByRole('list', { name: 'Health check cards' });
    await waitFor(() => expect(within(cards).getAllByRole('listitem')).toHaveLength(4));
  });

  it('shows the empty state when nothing matches', async () => {
    openHealth('?query=nothing-like-this');
    expect(await within(await table()).findByText(VIEW_MESSAGES.emptyTable)).toBeInTheDocument();
  });

  it('asks the summary for the time range in the address', async () => {
    const { calls } = openHealth('?timeRange=now-6h');
    await waitFor(() => expect(calls.summary.length).toBeGreaterThan(0));
    expect(calls.summary[0]?.searchParams.get('timeRange')).toBe('now-6h');
  });
});

describe('the refresh rate', () => {
  it('offers the spec rates, disables 15s and 30s on the default 1 hour range and keeps the choice', async () => {
    const { user } = openHealth();
    const select = await screen.findByRole('combobox', { name: 'Refresh rate' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['None', '15s', '30s', '60s', '2m', '3m', '5m', '10m', '15m']);
    expect(within(select).getByRole('option', { name: '15s' })).toBeDisabled();
    expect(within(select).getByRole('option', { name: '30s' })).toBeDisabled();
    expect(within(select).getByRole('option', { name: '2m' })).toBeEnabled();
    await user.selectOptions(select, '2m');
    expect(window.localStorage.getItem('lookout.health.refresh-rate')).toBe('2m');
    await user.selectOptions(select, 'None');
    expect(window.localStorage.getItem('lookout.health.refresh-rate')).toBeNull();
  });

  it('falls back from a stored rate the range disables', async () => {
    window.localStorage.setItem('lookout.health.refresh-rate', '2m');
    openHealth('?timeRange=now-6h');
    const select = await screen.findByRole('combobox', { name: 'Refresh rate' });
    expect(select).toHaveValue('5m');
    expect(within(select).getByRole('option', { name: '3m' })).toBeDisabled();
  });
});

describe('permissions', () => {
  it('shows the add-check button to those who may write canaries', async () => {
    openHealth();
    expect(await screen.findByRole('link', { name: HEALTH_PAGE_TEXTS.addCheck })).toHaveAttribute(
      'href',
      '/settings/canaries/new',
    );
  });

  it('hides it from a viewer, who still sees the dashboard', async () => {
    server.use(...consoleStartupHandlers({ roles: ['viewer'] }));
    openHealth('?groupBy=no-group');
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    expect(screen.queryByRole('link', { name: HEALTH_PAGE_TEXTS.addCheck })).not.toBeInTheDocument();
  });

  it('answers as an unknown page while the health feature is disabled', async () => {
    server.use(
      ...consoleStartupHandlers({
        properties: [
          {
            name: 'health.disable',
            value: 'true',
            type: 'boolean',
            source: 'db',
            description: null,
            created_by: null,
            created_at: null,
            updated_at: null,
          },
        ],
      }),
    );
    openHealth();
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Health' })).toBeNull();
  });
});
