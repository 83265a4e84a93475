import { CATALOG_LIMITS, CATALOG_TEXTS, type CatalogSummaryRow } from '@lookout/contracts';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const summaryRow = (type: string, overrides: Partial<CatalogSummaryRow> = {}): CatalogSummaryRow => ({
  type,
  count: 3,
  health: { healthy: 2, unhealthy: 1 },
  analysis: {},
  changes: 0,
  cost_per_minute: null,
  cost_total_1d: null,
  cost_total_7d: null,
  cost_total_30d: null,
  created_at: null,
  updated_at: null,
  agent: null,
  ...overrides,
});
const ROWS = [
  summaryRow('Kubernetes::Pod', { changes: 1500, cost_total_1d: 2, cost_total_30d: 30 }),
  summaryRow('Kubernetes::Node', { changes: 500 }),
  summaryRow('AWS::EC2::Instance', { changes: 12, analysis: { security: 2 } }),
];

const requests: { path: string; body?: unknown; params: URLSearchParams }[] = [];
const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const catalog = [
  http.post('*/api/catalog/summary', async ({ request }) => {
    requests.push({ path: 'summary', body: await request.json(), params: new URL(request.url).searchParams });
    return HttpResponse.json(ROWS);
  }),
  http.get('*/api/db/configs', ({ request }) => {
    requests.push({ path: 'configs', params: new URL(request.url).searchParams });
    return HttpResponse.json([
      {
        id: '0192a5d4-0000-7000-8000-000000000001',
        name: 'payments-7d9f',
        type: 'Kubernetes::Pod',
        config_class: 'Kubernetes',
        status: 'Running',
        health: 'healthy',
        labels: {},
        tags: { namespace: 'prod' },
        created_at: '2026-01-01T00:00:00Z',
        updated_at: null,
        deleted_at: null,
        cost_total_1d: null,
        cost_total_30d: null,
        changes: [{ change_type: 'diff', severity: 'info', total: 4 }],
        analysis: {},
        agent: null,
      },
    ]);
  }),
  http.get('*/api/db/config_types', () =>
    HttpResponse.json([{ type: 'Kubernetes::Pod' }, { type: 'Kubernetes::Node' }]),
  ),
  http.get('*/api/db/config_statuses', () => HttpResponse.json([{ status: 'Running' }])),
  http.get('*/api/db/config_labels', () => HttpResponse.json([{ key: 'app', value: 'web' }])),
  http.get('*/api/db/config_tags', () => HttpResponse.json([{ key: 'namespace', value: 'prod' }])),
];
const server = setupServer(about, ...signedInHandlers(), ...catalog);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  requests.length = 0;
  window.localStorage.clear();
});
afterAll(() => server.close());

const summaryTable = () => screen.findByRole('table', { name: CATALOG_TEXTS.title }, { timeout: 15_000 });

describe('/catalog (spec 3 section 2.1)', () => {
  it('shows summary rows by class and type with Nk+ counts, red from 500 and the cost badge', async () => {
    renderApp({ path: '/catalog', navigation });
    const table = await summaryTable();
    const pod = (await within(table).findByText('Pod')).closest('tr')!;
    expect(within(pod).getByTestId('change-count')).toHaveTextContent('1k+');
    expect(within(pod).getByTestId('change-count').className).toContain('text-red-700');
    expect(within(pod).getByTestId('cost-change')).toHaveTextContent('+100%');
    const node = within(table).getByText('Node').closest('tr')!;
    expect(within(node).getByTestId('change-count')).toHaveTextContent('500');
    expect(within(node).getByTestId('change-count').className).toContain('text-red-700');
    const ec2 = within(table).getByText('EC2::Instance').closest('tr')!;
    expect(within(ec2).getByTestId('change-count').className).not.toContain('text-red-700');
    expect(within(table).getByText('Kubernetes', { exact: false })).toBeInTheDocument();
    expect(screen.getByPlaceholderText(CATALOG_TEXTS.searchPlaceholder)).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: CATALOG_TEXTS.hideDeleted })).toBeChecked();
    expect(requests.find((r) => r.path === 'summary')?.body).toMatchObject({
      deleted: false,
      changes: { since: '30d' },
      analysis: { since: '30d' },
      cost: '30d',
    });
  });

  it('pins a type as favourite (kept in localStorage) and opens a type as the item table', async () => {
    const { user, router } = renderApp({ path: '/catalog', navigation });
    const table = await summaryTable();
    await within(table).findByText('EC2::Instance');
    await user.click(within(table).getByRole('button', { name: `${CATALOG_TEXTS.pin}: AWS::EC2::Instance` }));
    expect(JSON.parse(window.localStorage.getItem('catalogFavouriteTypes') ?? '[]')).toEqual(['AWS::EC2::Instance']);
    expect(within(table).getByText(CATALOG_TEXTS.favourites)).toBeInTheDocument();

    await user.click(within(table).getByText('Pod'));
    expect(router.state.location.search).toBe('?configType=Kubernetes%3A%3APod');
    // The table is virtualised (jsdom lays nothing out, so it renders no rows): check its call.
    await vi.waitFor(() => expect(requests.some((r) => r.path === 'configs')).toBe(true), { timeout: 10_000 });
    const params = requests.filter((r) => r.path === 'configs').pop()!.params;
    expect(params.get('type')).toBe('eq.Kubernetes::Pod');
    expect(params.get('order')).toBe('type.asc,name.asc,id.asc');
    expect(params.get('limit')).toBe(String(CATALOG_LIMITS.tablePageSize));
    expect(params.get('offset')).toBe('0');
    expect(params.get('deleted_at')).toBe('is.null');
    for (const header of [
      'Name',
      'Type',
      'Status',
      'Changes',
      'Tags',
      'Analysis',
      'Cost',
      'Created',
      'Updated',
      'Deleted At',
      'Changed',
    ]) {
      expect(await screen.findByRole('columnheader', { name: new RegExp(`^${header}`) })).toBeInTheDocument();
    }
  });

  it('leads /configs to /catalog', async () => {
    const { router } = renderApp({ path: '/configs', navigation });
    await summaryTable();
    expect(router.state.location.pathname).toBe('/catalog');
  });
});
