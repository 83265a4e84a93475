import {
  CATALOG_CHANGES_TEXTS,
  CATALOG_INSIGHTS_TEXTS,
  type CatalogChangeRow,
  type CatalogChangesRequest,
} from '@lookout/contracts';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 30_000 });

const POD = '0192a5d4-0000-7000-8000-000000000001';
const CHANGE = '0192a5d4-0000-7000-8000-0000000000c1';
const INSIGHT = '0192a5d4-0000-7000-8000-0000000000a1';
const LONG_MESSAGE = `The container runs privileged. ${'x'.repeat(600)}`;

const change: CatalogChangeRow = {
  id: CHANGE,
  config_id: POD,
  name: 'payments-7d9f',
  type: 'Kubernetes::Pod',
  config_class: 'Kubernetes',
  change_type: 'diff',
  severity: 'info',
  summary: 'spec.image: payments:1.3 → payments:1.4',
  source: 'kubernetes',
  tags: { namespace: 'prod' },
  created_at: '2026-01-01T10:00:00Z',
  first_observed: '2026-01-01T10:00:00Z',
  count: 3,
  created_by: null,
  external_created_by: 'deployer',
  deleted_at: null,
};

const changeBodies: CatalogChangesRequest[] = [];
const insightQueries: URLSearchParams[] = [];
const handlers = [
  http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' })),
  http.post('*/api/catalog/changes', async ({ request }) => {
    changeBodies.push((await request.json()) as CatalogChangesRequest);
    return HttpResponse.json({ summary: { diff: 1 }, changes: [change], total: 1 });
  }),
  http.get('*/api/db/config_changes', () =>
    HttpResponse.json([
      {
        ...change,
        diff: '--- before\n+++ after\n@@ -1,2 +1,2 @@\n spec:\n-  image: payments:1.3\n+  image: payments:1.4\n',
        patches: { spec: { image: 'payments:1.4' } },
        details: null,
        config: { id: POD, name: 'payments-7d9f', type: 'Kubernetes::Pod', config_class: 'Kubernetes' },
      },
    ]),
  ),
  http.get('*/api/db/change_types', () => HttpResponse.json([{ change_type: 'diff' }, { change_type: 'BackOff' }])),
  http.get('*/api/db/config_types', () => HttpResponse.json([{ type: 'Kubernetes::Pod' }])),
  http.get('*/api/db/config_statuses', () => HttpResponse.json([])),
  http.get('*/api/db/config_labels', () => HttpResponse.json([])),
  http.get('*/api/db/config_tags', () => HttpResponse.json([{ key: 'namespace', value: 'prod' }])),
  http.get('*/api/db/config_analysis_analyzers', () => HttpResponse.json([{ analyzer: 'privileged-container' }])),
  http.get('*/api/db/components', () => HttpResponse.json([{ id: 'c0', name: 'Checkout' }])),
  http.get('*/api/db/config_analysis_items', ({ request }) => {
    insightQueries.push(new URL(request.url).searchParams);
    return HttpResponse.json(
      [
        {
          id: INSIGHT,
          analysis_type: 'security',
          analyzer: 'privileged-container',
          severity: 'high',
          status: 'open',
          message: LONG_MESSAGE,
          first_observed: '2026-01-01T10:00:00Z',
          last_observed: '2026-01-02T10:00:00Z',
          config: { id: POD, name: 'payments-7d9f', config_class: 'Kubernetes', type: 'Kubernetes::Pod' },
        },
      ],
      { headers: { 'Content-Range': '0-0/1' } },
    );
  }),
  http.get('*/api/db/config_analysis', () =>
    HttpResponse.json([
      {
        id: INSIGHT,
        source: 'kubernetes',
        analyzer: 'privileged-container',
        analysis_type: 'security',
        message: LONG_MESSAGE,
        severity: 'high',
        status: 'open',
        analysis: { container: 'app' },
        first_observed: '2026-01-01T10:00:00Z',
        last_observed: '2026-01-02T10:00:00Z',
        config: { id: POD, name: 'payments-7d9f', config_class: 'Kubernetes', type: 'Kubernetes::Pod' },
      },
    ]),
  ),
  http.get('*/api/db/config_detail', () =>
    HttpResponse.json([
      {
        id: POD,
        name: 'payments-7d9f',
        type: 'Kubernetes::Pod',
        config_class: 'Kubernetes',
        status: 'Running',
        health: 'healthy',
        labels: {},
        tags: {},
        created_at: '2026-01-01T00:00:00Z',
        updated_at: null,
        deleted_at: null,
        cost_total_1d: null,
        cost_total_30d: null,
        changes: [],
        analysis: {},
        agent: null,
        description: null,
        config: { kind: 'Pod' },
        properties: [],
        last_scraped_time: null,
        summary: { changes: 1, analysis: 1, relationships: 0, playbook_runs: 0, checks: 0 },
        config_scrapers: null,
      },
    ]),
  ),
];
const server = setupServer(...signedInHandlers(), ...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  changeBodies.length = 0;
  insightQueries.length = 0;
  window.localStorage.clear();
});
afterAll(() => server.close());

const changesTable = () => screen.findByRole('table', { name: CATALOG_CHANGES_TEXTS.title }, { timeout: 20_000 });
const lastBody = () => changeBodies[changeBodies.length - 1]!;

describe('/catalog/changes (spec 3 section 2.1)', () => {
  it('lists every change with the defaults, a filter as a removable chip and the change dialog with the diff', async () => {
    const { user, router } = renderApp({ path: '/catalog/changes', navigation });
    const table = await changesTable();
    await within(table).findByText('spec.image: payments:1.3 → payments:1.4');
    expect(within(table).getByText('payments-7d9f')).toBeInTheDocument();
    expect(within(table).getByText('×3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Changes' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('switch', { name: CATALOG_CHANGES_TEXTS.hideDeleted })).toBeChecked();
    expect(lastBody()).toEqual({
      from: 'now-7d',
      to: 'now',
      page: 1,
      page_size: 200,
      sort_by: '-created_at',
      include_deleted_configs: false,
      recursive: 'none',
    });

    await user.click(screen.getByRole('button', { name: /^Severity:/ }));
    await user.click(await screen.findByRole('button', { name: 'Include high' }));
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(lastBody().severity).toBe('high'));
    expect(router.state.location.search).toContain('severity=high%3A1');
    const chips = screen.getByRole('list', { name: 'Active filters' });
    expect(within(chips).getByText('high')).toBeInTheDocument();
    await user.click(within(chips).getByRole('button', { name: `${CATALOG_CHANGES_TEXTS.clearFilter} Severity` }));
    await vi.waitFor(() => expect(lastBody().severity).toBeUndefined());
    expect(router.state.location.search).not.toContain('severity');

    await user.click(screen.getByRole('switch', { name: CATALOG_CHANGES_TEXTS.hideDeleted }));
    await vi.waitFor(() => expect(lastBody().include_deleted_configs).toBe(true));
    expect(window.localStorage.getItem('catalogChangesHideDeleted')).toBe('false');

    await user.click(within(table).getByText('spec.image: payments:1.3 → payments:1.4'));
    const dialog = await screen.findByRole('dialog');
    const diff = await within(dialog).findByTestId('change-diff');
    expect(within(diff).getByText('+ image: payments:1.4').closest('tr')).toHaveAttribute('data-kind', 'add');
    expect(within(diff).getByText('- image: payments:1.3').closest('tr')).toHaveAttribute('data-kind', 'remove');
    expect(within(dialog).getByText('deployer')).toBeInTheDocument();
    expect(within(dialog).getByText('kubernetes')).toBeInTheDocument();
    expect(within(dialog).getByText(/"image": "payments:1.4"/)).toBeInTheDocument();
  });

  it('reads its filters from the address', async () => {
    renderApp({
      path: '/catalog/changes?changeType=diff:1,BackOff:-1&configTypes=Kubernetes________Pod:1&tags=namespace=prod:1&summary=image&page=2&pageSize=50&sortBy=severity&sortDirection=asc',
      navigation,
    });
    await changesTable();
    await vi.waitFor(() => expect(changeBodies.length).toBeGreaterThan(0));
    expect(lastBody()).toMatchObject({
      type: 'diff,!BackOff',
      config_type: 'Kubernetes::Pod',
      tags: 'namespace=prod',
      summary: 'image',
      page: 2,
      page_size: 50,
      sort_by: 'severity',
    });
    const chips = screen.getByRole('list', { name: 'Active filters' });
    expect(within(chips).getByText('diff, !BackOff')).toBeInTheDocument();
    expect(within(chips).getByText('image')).toBeInTheDocument();
  });

  it('shows a range other than the default 7 days as a chip that brings the default back', async () => {
    const { user, router } = renderApp({ path: '/catalog/changes?timeRange=now-1h', navigation });
    await changesTable();
    await vi.waitFor(() => expect(lastBody()).toMatchObject({ from: 'now-1h', to: 'now' }));
    const chips = screen.getByRole('list', { name: 'Active filters' });
    expect(within(chips).getByText('Last 1 hour')).toBeInTheDocument();
    await user.click(
      within(chips).getByRole('button', {
        name: `${CATALOG_CHANGES_TEXTS.clearFilter} ${CATALOG_CHANGES_TEXTS.timeRange}`,
      }),
    );
    await vi.waitFor(() => expect(lastBody().from).toBe('now-7d'));
    expect(router.state.location.search).toBe('');
    expect(screen.queryByRole('list', { name: 'Active filters' })).not.toBeInTheDocument();
  });

  it("follows an item's related items downstream by default and upstream when switched on", async () => {
    const { user } = renderApp({ path: `/catalog/${POD}/changes`, navigation });
    await changesTable();
    await vi.waitFor(() => expect(lastBody()).toMatchObject({ id: POD, recursive: 'downstream', depth: 5 }));
    expect(screen.getByRole('switch', { name: CATALOG_CHANGES_TEXTS.downstream })).toBeChecked();
    expect(screen.getByRole('switch', { name: CATALOG_CHANGES_TEXTS.upstream })).not.toBeChecked();
    await user.click(screen.getByRole('switch', { name: CATALOG_CHANGES_TEXTS.upstream }));
    await vi.waitFor(() => expect(lastBody().recursive).toBe('all'));
    await user.click(screen.getByRole('switch', { name: CATALOG_CHANGES_TEXTS.downstream }));
    await vi.waitFor(() => expect(lastBody().recursive).toBe('upstream'));
  });

  it('is left out when the config feature is off', async () => {
    server.use(...consoleStartupHandlers({ properties: [propertyFixture({ name: 'config.disable', value: 'true' })] }));
    renderApp({ path: '/catalog/changes', navigation });
    expect(await screen.findByRole('heading', { name: 'Page not found' }, { timeout: 20_000 })).toBeInTheDocument();
  });

  it('is open to a viewer', async () => {
    server.use(...consoleStartupHandlers({ roles: ['viewer'] }));
    renderApp({ path: '/catalog/changes', navigation });
    await changesTable();
  });
});

describe('/catalog/insights (spec 3 section 2.1)', () => {
  it('lists insights with the spec columns, cut messages, filters in the address and the detail panel', async () => {
    const { user, router } = renderApp({ path: '/catalog/insights', navigation });
    const table = await screen.findByRole('table', { name: CATALOG_INSIGHTS_TEXTS.title }, { timeout: 20_000 });
    await within(table).findByText('payments-7d9f');
    for (const header of Object.values(CATALOG_INSIGHTS_TEXTS.columns)) {
      expect(within(table).getByRole('columnheader', { name: new RegExp(`^${header}`) })).toBeInTheDocument();
    }
    expect(within(table).getByTestId('insight-message').textContent).toHaveLength(501);
    const first = insightQueries[0]!;
    expect(first.get('limit')).toBe('50');
    expect(first.get('offset')).toBe('0');
    expect(first.get('order')).toBe('first_observed.desc,id.asc');

    await user.selectOptions(screen.getByRole('combobox', { name: CATALOG_INSIGHTS_TEXTS.filters.severity }), 'high');
    await vi.waitFor(() => expect(insightQueries[insightQueries.length - 1]!.get('severity')).toBe('eq.high'));
    expect(router.state.location.search).toBe('?severity=high');
    await user.selectOptions(
      screen.getByRole('combobox', { name: CATALOG_INSIGHTS_TEXTS.filters.analyzer }),
      'privileged-container',
    );
    await vi.waitFor(() =>
      expect(insightQueries[insightQueries.length - 1]!.get('analyzer')).toBe('eq.privileged-container'),
    );

    await user.click(within(table).getByText('privileged-container'));
    const dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByTestId('insight-detail-message')).textContent).toBe(LONG_MESSAGE);
    expect(within(dialog).getByText(/"container": "app"/)).toBeInTheDocument();
  });

  it('says so when there are none', async () => {
    server.use(
      http.get('*/api/db/config_analysis_items', () => HttpResponse.json([], { headers: { 'Content-Range': '*/0' } })),
    );
    renderApp({ path: '/catalog/insights', navigation });
    expect(await screen.findByText(CATALOG_INSIGHTS_TEXTS.empty, {}, { timeout: 20_000 })).toBeInTheDocument();
  });
});
