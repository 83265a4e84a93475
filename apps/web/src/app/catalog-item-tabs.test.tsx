import { CATALOG_TEXTS, CONFIG_CHECKS_TAB_TEXTS, CONFIG_PLAYBOOKS_TAB_TEXTS } from '@lookout/contracts';
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
const RUN = '0192a5d4-0000-7000-8000-0000000000c1';
const CHECK = '0192a5d4-0000-7000-8000-0000000000d1';

const runRequests: URL[] = [];
const checkRequests: URL[] = [];
const server = setupServer(
  http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' })),
  ...signedInHandlers(),
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
        config: { kind: 'Pod' },
        created_at: '2026-01-01T00:00:00Z',
        updated_at: null,
        deleted_at: null,
        last_scraped_time: null,
        config_scrapers: null,
        summary: { changes: 0, analysis: 0, relationships: 0, playbook_runs: 7, checks: 3 },
      },
    ]),
  ),
  http.get('*/api/db/playbook_runs', ({ request }) => {
    runRequests.push(new URL(request.url));
    return HttpResponse.json([
      {
        id: RUN,
        status: 'completed',
        created_at: '2026-01-02T10:00:00Z',
        start_time: '2026-01-02T10:00:00Z',
        end_time: '2026-01-02T10:00:12Z',
        playbooks: { id: 'p1', name: 'restart-pod', title: 'Restart pod', icon: null, spec: {} },
      },
    ]);
  }),
  http.get('*/api/db/check_summary_for_config', ({ request }) => {
    checkRequests.push(new URL(request.url));
    return HttpResponse.json([
      { id: CHECK, name: 'payments-http', type: 'http', status: 'unhealthy', severity: 'high', last_runtime: null },
    ]);
  }),
  http.get('*/api/db/*', () => HttpResponse.json([])),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  runRequests.length = 0;
  checkRequests.length = 0;
});
afterAll(() => server.close());

const tabs = async () => screen.findByRole('tablist', {}, { timeout: 20_000 });
const tab = (name: string) => within(screen.getByRole('tablist')).queryByRole('tab', { name: new RegExp(`^${name}`) });

describe('/catalog/{id}: Playbooks and Checks tabs (spec 3 section 2.1)', () => {
  it('shows both tabs with their count badges and addresses', async () => {
    renderApp({ path: `/catalog/${POD}`, navigation });
    await tabs();
    expect(tab(CATALOG_TEXTS.tabs.playbooks)).toHaveTextContent('7');
    expect(tab(CATALOG_TEXTS.tabs.playbooks)).toHaveAttribute('href', `/catalog/${POD}/playbooks`);
    expect(tab(CATALOG_TEXTS.tabs.checks)).toHaveTextContent('3');
    expect(tab(CATALOG_TEXTS.tabs.checks)).toHaveAttribute('href', `/catalog/${POD}/checks`);
  });

  it('lists the item runs with status, playbook, start and duration, linking to the run', async () => {
    renderApp({ path: `/catalog/${POD}/playbooks`, navigation });
    const link = await screen.findByRole('link', { name: 'Restart pod' }, { timeout: 20_000 });
    expect(link).toHaveAttribute('href', `/playbooks/runs/${RUN}`);
    const row = link.closest('tr')!;
    expect(row).toHaveTextContent('completed');
    expect(row).toHaveTextContent('12s');
    expect(tab(CATALOG_TEXTS.tabs.playbooks)).toHaveAttribute('aria-selected', 'true');
    expect(runRequests[0]!.searchParams.get('config_id')).toBe(`eq.${POD}`);
    expect(runRequests[0]!.searchParams.get('order')).toBe('created_at.desc');
    expect(runRequests[0]!.searchParams.get('select')).toContain('playbooks(id,name,title,spec,icon)');
  });

  it('shows loading, then the empty state when the item has no runs', async () => {
    // The answer waits until the loading state was seen, so no timing is assumed.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('*/api/db/playbook_runs', async () => {
        await answered;
        return HttpResponse.json([]);
      }),
    );
    renderApp({ path: `/catalog/${POD}/playbooks`, navigation });
    expect(await screen.findByText(CONFIG_PLAYBOOKS_TAB_TEXTS.loading, {}, { timeout: 20_000 })).toBeInTheDocument();
    answer();
    expect(await screen.findByText(CONFIG_PLAYBOOKS_TAB_TEXTS.empty, {}, { timeout: 20_000 })).toBeInTheDocument();
  });

  it('leaves the Playbooks tab out while the playbooks feature is off', async () => {
    server.use(
      ...consoleStartupHandlers({ properties: [propertyFixture({ name: 'playbooks.disable', value: 'true' })] }),
    );
    renderApp({ path: `/catalog/${POD}/playbooks`, navigation });
    await tabs();
    expect(tab(CATALOG_TEXTS.tabs.playbooks)).toBeNull();
    expect(tab(CATALOG_TEXTS.tabs.config)).toHaveAttribute('aria-selected', 'true');
    expect(tab(CATALOG_TEXTS.tabs.checks)).not.toBeNull();
    expect(runRequests).toHaveLength(0);
  });

  it('lists the linked checks with status, linking to the check drawer', async () => {
    renderApp({ path: `/catalog/${POD}/checks`, navigation });
    const link = await screen.findByRole('link', { name: 'payments-http' }, { timeout: 20_000 });
    expect(link).toHaveAttribute('href', `/health?checkId=${CHECK}`);
    const row = link.closest('tr')!;
    expect(within(row).getByRole('img', { name: 'unhealthy' })).toBeInTheDocument();
    expect(row).toHaveTextContent('high');
    expect(checkRequests[0]!.searchParams.get('config_id')).toBe(`eq.${POD}`);
  });

  it('shows the empty state when no checks are linked', async () => {
    server.use(http.get('*/api/db/check_summary_for_config', () => HttpResponse.json([])));
    renderApp({ path: `/catalog/${POD}/checks`, navigation });
    expect(await screen.findByText(CONFIG_CHECKS_TAB_TEXTS.empty, {}, { timeout: 20_000 })).toBeInTheDocument();
  });
});
