import { CHECK_DRAWER_TEXTS, HEALTH_PAGE_TEXTS } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { checkStatusFixture, checkSummaryFixture, healthHandlers } from '@/test/health-fixtures';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const api = checkSummaryFixture({
  name: 'api',
  status: 'unhealthy',
  severity: 'high',
  labels: { team: 'payments', namespace: 'shop', account: 'prod-1' },
  uptime: { passed: 45, failed: 15, last_pass: null, last_fail: null },
  latency: { p95: 250, p97: 1500, p99: 2500 },
});
const statuses = Array.from({ length: 120 }, (_, index) =>
  checkStatusFixture(index, index % 3 === 0 ? { status: false, error: 'HTTP 503', message: '' } : {}),
);

const openDrawer = (query = '') => {
  const backend = healthHandlers({ checks: [api], statuses });
  server.use(...backend.handlers);
  const view = renderApp({ path: `/health?checkId=${api.id}${query}`, navigation });
  return { ...view, calls: backend.calls };
};
const drawer = () => screen.findByRole('dialog', { name: /api/ });
const historyTable = async () => within(await drawer()).findByRole('table', { name: CHECK_DRAWER_TEXTS.history.table });
const lastStatusCall = (calls: { statuses: URL[] }) =>
  calls.statuses.filter((url) => url.searchParams.get('limit') === '50').at(-1);

describe('the check drawer', () => {
  it('opens from a row of the dashboard and closes back to it', async () => {
    const backend = healthHandlers({ checks: [api], statuses });
    server.use(...backend.handlers);
    const { user, router } = renderApp({ path: '/health?groupBy=no-group', navigation });
    const table = await screen.findByRole('table', { name: HEALTH_PAGE_TEXTS.checksTable });
    await user.click(await within(table).findByText('api'));
    expect(await drawer()).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('checkId')).toBe(api.id);
    await user.click(within(await drawer()).getByRole('button', { name: CHECK_DRAWER_TEXTS.close }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(new URLSearchParams(router.state.location.search).get('checkId')).toBeNull();
  });

  it('shows labels, uptime with passed and failed, latency percentiles, severity and run times', async () => {
    openDrawer();
    const dialog = await drawer();
    const labels = within(dialog).getByRole('list', { name: 'Labels' });
    // account, namespace and name sort first.
    expect(
      within(labels)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['account: prod-1', 'namespace: shop', 'team: payments']);
    const stat = (title: string) => within(dialog).getByText(title).closest('div') as HTMLElement;
    await waitFor(() => expect(stat(CHECK_DRAWER_TEXTS.uptime)).toHaveTextContent('75.0%'));
    expect(stat(CHECK_DRAWER_TEXTS.uptime)).toHaveTextContent('45 passed');
    expect(stat(CHECK_DRAWER_TEXTS.uptime)).toHaveTextContent('15 failed');
    expect(stat(CHECK_DRAWER_TEXTS.latencyP95)).toHaveTextContent('250ms');
    expect(stat(CHECK_DRAWER_TEXTS.latencyP97)).toHaveTextContent('1.5s');
    expect(stat(CHECK_DRAWER_TEXTS.latencyP99)).toHaveTextContent('2.5s');
    expect(stat(CHECK_DRAWER_TEXTS.severity)).toHaveTextContent('High');
    expect(stat(CHECK_DRAWER_TEXTS.lastRun)).toHaveTextContent('1 minute ago');
    expect(stat(CHECK_DRAWER_TEXTS.transitioned)).toHaveTextContent('ago');
    expect(stat(CHECK_DRAWER_TEXTS.nextRun)).toHaveTextContent(/^Next Runin /);
    expect(within(dialog).getByText(CHECK_DRAWER_TEXTS.timeRange)).toBeInTheDocument();
  });

  it('has History, Graph, Spec and Relationships tabs', async () => {
    const { user } = openDrawer();
    const dialog = await drawer();
    const tabs = within(dialog).getByRole('tablist', { name: 'Check details' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['History', 'Graph', 'Spec', 'Relationships 0']);

    await user.click(within(tabs).getByRole('tab', { name: 'Graph' }));
    const chart = await within(dialog).findByRole('img', { name: /Health Overview: 120 points, 80 passed, 40 failed/ });
    expect(chart.querySelectorAll('rect')).toHaveLength(120);

    await user.click(within(tabs).getByRole('tab', { name: 'Spec' }));
    const spec = await within(dialog).findByLabelText('Check spec');
    expect(spec).toHaveTextContent('http:');
    expect(spec).toHaveTextContent('name: api');

    await user.click(within(tabs).getByRole('tab', { name: /Relationships/ }));
    const relationships = await within(dialog).findByRole('table', { name: CHECK_DRAWER_TEXTS.relationshipsTable });
    expect(within(relationships).getByText('No data available')).toBeInTheDocument();
  });

  it('pages the status history 50 at a time, newest first', async () => {
    const { user, calls } = openDrawer();
    const table = await historyTable();
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(51));
    const call = lastStatusCall(calls);
    expect(call?.searchParams.get('check_id')).toBe(`eq.${api.id}`);
    expect(call?.searchParams.get('order')).toBe('time.desc');
    expect(call?.searchParams.get('offset')).toBe('0');
    expect(call?.searchParams.get('time')).toMatch(/^gt\./);
    const pageText = (page: number) => (_: string, element: Element | null) =>
      element?.tagName === 'SPAN' && element.textContent === `Page ${page} of 3`;
    expect(within(await drawer()).getByText(pageText(1))).toBeInTheDocument();
    await user.click(within(await drawer()).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastStatusCall(calls)?.searchParams.get('offset')).toBe('50'));
    // Runs 50 and 51 of the fixture: every third one failed with HTTP 503.
    await waitFor(() => expect(within(table).getAllByRole('row')[2]).toHaveTextContent('HTTP 503'));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('HTTP 200');
    expect(within(await drawer()).getByText(pageText(2))).toBeInTheDocument();
  });

  it('filters the history by status and duration, and refuses a duration not in ms or s', async () => {
    const { user, calls } = openDrawer();
    const dialog = await drawer();
    await historyTable();

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Status' }), 'Unhealthy');
    await waitFor(() => expect(lastStatusCall(calls)?.searchParams.get('status')).toBe('eq.0'));
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Status' }), 'Healthy');
    await waitFor(() => expect(lastStatusCall(calls)?.searchParams.get('status')).toBe('eq.1'));

    const duration = within(dialog).getByRole('combobox', { name: 'Duration' });
    expect(
      within(duration)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All', '100ms', '500ms', '1s', '5s', '10s', '30s', 'Custom']);
    await user.selectOptions(duration, '1s');
    await waitFor(() => expect(lastStatusCall(calls)?.searchParams.get('duration')).toBe('gte.1000'));

    await user.selectOptions(duration, 'Custom');
    const custom = within(dialog).getByRole('textbox', { name: CHECK_DRAWER_TEXTS.history.customDuration });
    await user.type(custom, '2m');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('duration is allowed only in milli seconds & seconds');
    await user.clear(custom);
    await user.type(custom, '2.5s');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await waitFor(() => expect(lastStatusCall(calls)?.searchParams.get('duration')).toBe('gte.2500'));
  });

  it('runs the check now and shows the result', async () => {
    const { user, calls } = openDrawer();
    const dialog = await drawer();
    await user.click(within(dialog).getByRole('button', { name: CHECK_DRAWER_TEXTS.runNow }));
    const result = await within(dialog).findByRole('status');
    expect(result).toHaveTextContent('Check passed (42ms)');
    expect(result).toHaveTextContent('HTTP 200 OK');
    expect(calls.runs).toEqual([api.id]);
  });

  it('links Edit to the canary settings page', async () => {
    openDrawer();
    expect(await within(await drawer()).findByRole('link', { name: CHECK_DRAWER_TEXTS.edit })).toHaveAttribute(
      'href',
      `/settings/canaries/${api.canary_id}`,
    );
  });

  it('offers Run Now to responders but not to viewers', async () => {
    server.use(...consoleStartupHandlers({ roles: ['responder'] }));
    const { unmount } = openDrawer();
    expect(await within(await drawer()).findByRole('button', { name: CHECK_DRAWER_TEXTS.runNow })).toBeInTheDocument();
    unmount();

    server.use(...consoleStartupHandlers({ roles: ['viewer'] }));
    openDrawer();
    const dialog = await drawer();
    await within(dialog).findByRole('link', { name: CHECK_DRAWER_TEXTS.edit });
    expect(within(dialog).queryByRole('button', { name: CHECK_DRAWER_TEXTS.runNow })).not.toBeInTheDocument();
  });

  it('tells readers who cannot change checks that the spec shows credentials masked', async () => {
    const specTab = async ({ user }: ReturnType<typeof openDrawer>) => {
      const dialog = await drawer();
      await within(dialog).findByRole('link', { name: CHECK_DRAWER_TEXTS.edit });
      await user.click(within(dialog).getByRole('tab', { name: 'Spec' }));
      await within(dialog).findByLabelText('Check spec');
      return dialog;
    };
    server.use(...consoleStartupHandlers({ roles: ['viewer'] }));
    const viewer = openDrawer();
    expect(within(await specTab(viewer)).getByText(CHECK_DRAWER_TEXTS.secretsMasked)).toBeInTheDocument();
    viewer.unmount();

    server.use(...consoleStartupHandlers({ roles: ['editor'] }));
    const editor = openDrawer();
    expect(within(await specTab(editor)).queryByText(CHECK_DRAWER_TEXTS.secretsMasked)).not.toBeInTheDocument();
  });

  it('says so when the check no longer exists', async () => {
    const backend = healthHandlers({ checks: [], statuses: [] });
    server.use(...backend.handlers);
    renderApp({ path: `/health?checkId=${api.id}`, navigation });
    expect(await screen.findByText(CHECK_DRAWER_TEXTS.notFound)).toBeInTheDocument();
  });
});
