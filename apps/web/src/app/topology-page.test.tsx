import { EditorView } from '@codemirror/view';
import {
  SETTINGS_RESOURCE_TEXTS,
  SETTINGS_RESOURCE_TOASTS,
  TOPOLOGY_SETTINGS_TEXTS,
  TOPOLOGY_STORAGE_KEYS,
  TOPOLOGY_TEXTS,
} from '@lookout/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { signedInHandlers } from '@/test/identity-handlers';
import { TOPOLOGY_IDS, cacheComponent, shopComponent, topologyBackend } from '@/test/topology-backend';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 30_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const backend = topologyBackend();
const server = setupServer(about, ...signedInHandlers(), ...backend.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  backend.requests.length = 0;
  backend.setTopLevel([]);
  window.localStorage.clear();
});
afterAll(() => server.close());

const open = (path: string) => renderApp({ path, navigation });
const cards = async () => within(await screen.findByRole('list', { name: TOPOLOGY_TEXTS.title }, { timeout: 15_000 }));
const card = (name: string) => screen.findByRole('article', { name }, { timeout: 15_000 });
const fetches = () => backend.requests.filter((r) => r.path.endsWith('/api/canary/api/topology'));

describe('/topology (spec 3 section 2.2)', () => {
  it('is where / leads, with Dashboard first in the sidebar', async () => {
    resetTree();
    const { router } = open('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/topology'));
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links[0]).toBe(TOPOLOGY_TEXTS.menu);
  });

  it('shows cards unhealthy first with red and orange top borders', async () => {
    resetTree();
    open('/topology');
    const list = await cards();
    const names = list.getAllByRole('article').map((article) => article.getAttribute('aria-label'));
    expect(names).toEqual(['shop', 'cache']);
    expect(await card('shop')).toHaveClass('border-t-red-300');
    expect(await card('cache')).toHaveClass('border-t-orange-300');
    // The fetch asks for the health sort and no filter.
    expect(Object.fromEntries(fetches()[0]!.params)).toEqual({ sortBy: 'status', sortOrder: 'asc' });
  });

  it('shows the check summary and the children unhealthy first', async () => {
    resetTree();
    open('/topology');
    const shop = within(await card('shop'));
    const checks = shop.getByLabelText(TOPOLOGY_TEXTS.summary.checks);
    expect(checks).toHaveTextContent('42');
    const children = shop.getAllByRole('link').map((link) => link.textContent);
    expect(children.indexOf('orders-db')).toBeLessThan(children.indexOf('orders-api'));
  });

  it('says when no component matches', async () => {
    open('/topology');
    expect(await screen.findByText(TOPOLOGY_TEXTS.empty, undefined, { timeout: 15_000 })).toBeInTheDocument();
  });

  it("says 'Unable to load components!' when the fetch fails", async () => {
    server.use(http.get('*/api/canary/api/topology', () => HttpResponse.json({ error: 'down' }, { status: 500 })));
    open('/topology');
    expect(await screen.findByText(TOPOLOGY_TEXTS.loadError, undefined, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('keeps filters in the address and flattens when a type is chosen', async () => {
    resetTree();
    const { router } = open('/topology');
    await cards();
    fireEvent.change(screen.getByLabelText(`${TOPOLOGY_TEXTS.filters.type}:`), { target: { value: 'Database' } });
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('type')).toBe('Database'));
    await waitFor(() => expect(fetches().at(-1)?.params.get('flatten')).toBe('true'));
    fireEvent.change(screen.getByLabelText(`${TOPOLOGY_TEXTS.filters.labels}:`), {
      target: { value: 'team=payments' },
    });
    await waitFor(() => expect(fetches().at(-1)?.params.get('labels')).toBe('team=payments'));
  });

  it('keeps the card width from the slider in local storage', async () => {
    resetTree();
    open('/topology');
    await cards();
    const slider = screen.getByLabelText(`${TOPOLOGY_TEXTS.cardWidth}:`);
    expect(slider).toHaveAttribute('min', '250');
    expect(slider).toHaveAttribute('max', '768');
    fireEvent.change(slider, { target: { value: '300' } });
    expect(window.localStorage.getItem(TOPOLOGY_STORAGE_KEYS.cardWidth)).toBe('300px');
    expect(await card('shop')).toHaveStyle({ width: '300px' });
  });
});

describe('/topology/{id}', () => {
  it('shows the children with the sidebar panels, Details open', async () => {
    open(`/topology/${TOPOLOGY_IDS.shop}`);
    const list = await cards();
    expect(list.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['orders-db', 'orders-api']);
    const details = await screen.findByRole('region', { name: TOPOLOGY_TEXTS.panels.details });
    expect(within(details).getByText('prod')).toBeInTheDocument();
    expect(await within(details).findByRole('link', { name: 'shop-topology' })).toHaveAttribute(
      'href',
      `/settings/topologies/${TOPOLOGY_IDS.topology}`,
    );
    for (const title of ['details', 'catalog', 'incidents', 'changes', 'checks', 'teams', 'insights'] as const) {
      expect(screen.getByRole('button', { name: TOPOLOGY_TEXTS.panels[title] })).toBeInTheDocument();
    }
  });

  it('hides and shows the sidebar, remembering the choice', async () => {
    const { user } = open(`/topology/${TOPOLOGY_IDS.shop}`);
    await cards();
    await user.click(screen.getByRole('button', { name: TOPOLOGY_TEXTS.hideSidebar }));
    expect(screen.queryByRole('button', { name: TOPOLOGY_TEXTS.panels.details })).toBeNull();
    expect(window.localStorage.getItem(TOPOLOGY_STORAGE_KEYS.sidebarOpen)).toBe('false');
    await user.click(screen.getByRole('button', { name: TOPOLOGY_TEXTS.showSidebar }));
    expect(screen.getByRole('button', { name: TOPOLOGY_TEXTS.panels.details })).toBeInTheDocument();
  });

  it('opens the Checks panel and asks for the component checks', async () => {
    const { user } = open(`/topology/${TOPOLOGY_IDS.shop}`);
    await cards();
    await user.click(screen.getByRole('button', { name: TOPOLOGY_TEXTS.panels.checks }));
    const checks = await screen.findByRole('region', { name: TOPOLOGY_TEXTS.panels.checks });
    expect(await within(checks).findByRole('link', { name: 'orders-db-ping' })).toHaveAttribute(
      'href',
      '/health?checkId=c1',
    );
  });

  it('links children to their page with the referer when it is not the parent', async () => {
    open(`/topology/${TOPOLOGY_IDS.shop}?status=unhealthy`);
    const db = within(await card('orders-db'));
    expect(db.getByRole('link', { name: 'orders-db' })).toHaveAttribute(
      'href',
      `/topology/${TOPOLOGY_IDS.db}?status=unhealthy`,
    );
  });

  it('formats headline and usage properties on a large card', async () => {
    window.localStorage.setItem(TOPOLOGY_STORAGE_KEYS.cardWidth, '554px');
    open(`/topology/${TOPOLOGY_IDS.shop}`);
    const db = within(await card('orders-db'));
    expect(db.getByText('1.5k')).toBeInTheDocument();
    expect(db.getByText('88% of 1GB')).toHaveAttribute('data-usage', 'high');
    const api = within(await card('orders-api'));
    expect(api.getByRole('button', { name: `${TOPOLOGY_TEXTS.showMore} (2)` })).toBeInTheDocument();
  });

  it('downloads a snapshot as <name>-snapshot.zip with the first time range', async () => {
    const createObjectURL = vi.fn(() => 'blob:snapshot');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { user } = open(`/topology/${TOPOLOGY_IDS.shop}`);
    await cards();
    await user.click(screen.getByRole('button', { name: TOPOLOGY_TEXTS.actions.snapshot }));
    const dialog = await screen.findByRole('dialog', { name: TOPOLOGY_TEXTS.snapshot.title('shop') });
    expect(within(dialog).getByLabelText(TOPOLOGY_TEXTS.snapshot.timeRange)).toHaveValue('15m');
    await user.click(within(dialog).getByRole('switch', { name: TOPOLOGY_TEXTS.snapshot.related }));
    await user.click(within(dialog).getByRole('button', { name: TOPOLOGY_TEXTS.snapshot.download }));
    await waitFor(() => expect(names).toEqual(['shop-snapshot.zip']));
    const asked = backend.requests.find((r) => r.path.includes('/api/snapshot/topology/'));
    expect(asked?.path).toBe(`/api/snapshot/topology/${TOPOLOGY_IDS.shop}`);
    expect(Object.fromEntries(asked!.params)).toEqual({ start: '15m', related: 'true' });
    click.mockRestore();
  });

  it("says 'Error downloading file' when the snapshot fails", async () => {
    server.use(http.get('*/api/snapshot/topology/:id', () => HttpResponse.json({ error: 'no' }, { status: 500 })));
    const { user } = open(`/topology/${TOPOLOGY_IDS.shop}`);
    await cards();
    await user.click(screen.getByRole('button', { name: TOPOLOGY_TEXTS.actions.snapshot }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: TOPOLOGY_TEXTS.snapshot.download }));
    expect(await screen.findByText(TOPOLOGY_TEXTS.snapshot.error)).toBeInTheDocument();
  });

  it('links a catalog item: one must be chosen, then config link successful', async () => {
    const { user } = open(`/topology/${TOPOLOGY_IDS.shop}`);
    await cards();
    await user.click(screen.getByRole('button', { name: TOPOLOGY_TEXTS.actions.linkToCatalog }));
    const dialog = await screen.findByRole('dialog', { name: TOPOLOGY_TEXTS.link.title });
    await user.click(within(dialog).getByRole('button', { name: TOPOLOGY_TEXTS.link.submit }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(TOPOLOGY_TEXTS.link.required);
    await user.click(await within(dialog).findByRole('option', { name: /orders-rds/ }));
    await user.click(within(dialog).getByRole('button', { name: TOPOLOGY_TEXTS.link.submit }));
    expect(await screen.findByText(TOPOLOGY_TEXTS.link.success)).toBeInTheDocument();
    const post = backend.requests.find((r) => r.path.endsWith('/api/db/config_component_relationships'));
    expect(post?.body).toEqual({
      component_id: TOPOLOGY_IDS.shop,
      config_id: TOPOLOGY_IDS.config,
      selector_id: 'manual',
    });
    const search = backend.requests.find((r) => r.path.endsWith('/api/resources/search'));
    expect(search?.body).toEqual({ configs: [{ limit: 50 }] });
  });

  it('offers no Link to catalog to a viewer', async () => {
    server.use(...consoleStartupHandlers({ roles: ['viewer'] }));
    open(`/topology/${TOPOLOGY_IDS.shop}`);
    await cards();
    expect(screen.getByRole('button', { name: TOPOLOGY_TEXTS.actions.snapshot })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: TOPOLOGY_TEXTS.actions.linkToCatalog })).toBeNull();
  });

  it('leaves the Incidents panel out while the incidents feature is disabled, and lists them otherwise', async () => {
    server.use(
      ...consoleStartupHandlers({ properties: [propertyFixture({ name: 'incidents.disable', value: 'true' })] }),
    );
    const first = open(`/topology/${TOPOLOGY_IDS.shop}`);
    await cards();
    expect(screen.getByRole('button', { name: TOPOLOGY_TEXTS.panels.details })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: TOPOLOGY_TEXTS.panels.incidents })).toBeNull();
    first.unmount();

    server.use(...consoleStartupHandlers());
    const { user } = open(`/topology/${TOPOLOGY_IDS.shop}`);
    await cards();
    await user.click(screen.getByRole('button', { name: TOPOLOGY_TEXTS.panels.incidents }));
    const panel = await screen.findByRole('region', { name: TOPOLOGY_TEXTS.panels.incidents });
    expect(await within(panel).findByText('Orders lag')).toBeInTheDocument();
    // The incidents page exists: the title leads to the incident.
    expect(within(panel).getByRole('link', { name: 'Orders lag' })).toHaveAttribute('href', '/incidents/i1');
  });

  it('is gone while the topology feature is disabled', async () => {
    server.use(
      ...consoleStartupHandlers({ properties: [propertyFixture({ name: 'topology.disable', value: 'true' })] }),
    );
    open('/topology');
    expect(await screen.findByRole('heading', { name: 'Page not found' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: TOPOLOGY_TEXTS.menu }),
    ).toBeNull();
  });
});

describe('/view/topology/{id}', () => {
  it('shows one card without menu', async () => {
    open(`/view/topology/${TOPOLOGY_IDS.db}`);
    const db = await card('orders-db');
    expect(within(db).queryByRole('button', { name: TOPOLOGY_TEXTS.menuLabel })).toBeNull();
    expect(db).toHaveStyle({ width: '356px' });
  });

  it("says 'Component not found' for an unknown id", async () => {
    open('/view/topology/0193a000-0000-7000-8000-0000000000ff/small');
    expect(await screen.findByText(TOPOLOGY_TEXTS.notFound, undefined, { timeout: 15_000 })).toBeInTheDocument();
  });
});

describe('/settings/topologies', () => {
  it('lists topologies and opens the YAML form; an unknown id shows No resources found', async () => {
    server.use(
      http.get('*/api/db/topologies_with_status', () =>
        HttpResponse.json([
          {
            id: TOPOLOGY_IDS.topology,
            name: 'shop-topology',
            namespace: 'default',
            labels: { env: 'prod' },
            source: 'UI',
            created_at: '2026-01-01T00:00:00Z',
            updated_at: null,
            created_by: null,
            agent: null,
            last_runtime: null,
            job_status: 'SUCCESS',
            job_last_failed: null,
          },
        ]),
      ),
      http.get('*/api/db/topologies', () => HttpResponse.json([])),
    );
    const { user, router } = open('/settings/topologies');
    const table = await screen.findByRole('table', { name: TOPOLOGY_SETTINGS_TEXTS.title }, { timeout: 15_000 });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).not.toContain('Schedule');
    expect(headers).toContain(TOPOLOGY_SETTINGS_TEXTS.columns.jobStatus);
    await user.click(await within(table).findByText('shop-topology'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/settings/topologies/${TOPOLOGY_IDS.topology}`));
    expect(await screen.findByText(TOPOLOGY_SETTINGS_TEXTS.notFound)).toBeInTheDocument();
  });
});

describe('/settings/topologies/{id}', () => {
  it('opens a topology as YAML with its Job History tab', async () => {
    server.use(
      http.get('*/api/db/topologies', () =>
        HttpResponse.json([
          {
            id: TOPOLOGY_IDS.topology,
            name: 'shop-topology',
            namespace: 'default',
            labels: null,
            source: 'UI',
            deleted_at: null,
            spec: { components: [{ name: 'db', type: 'Database' }] },
          },
        ]),
      ),
    );
    open(`/settings/topologies/${TOPOLOGY_IDS.topology}`);
    const editor = await screen.findByRole('textbox', { name: TOPOLOGY_SETTINGS_TEXTS.spec }, { timeout: 15_000 });
    expect(editor).toHaveTextContent('name: shop-topology');
    expect(editor).toHaveTextContent('kind: Topology');
    expect(screen.getByRole('tab', { name: TOPOLOGY_SETTINGS_TEXTS.jobHistory })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: TOPOLOGY_SETTINGS_TEXTS.delete })).toBeInTheDocument();
  });

  it('refuses to save a new topology without a name, naming the field', async () => {
    const { user } = open('/settings/topologies/new');
    await screen.findByRole('textbox', { name: TOPOLOGY_SETTINGS_TEXTS.spec }, { timeout: 15_000 });
    await user.click(screen.getByRole('button', { name: TOPOLOGY_SETTINGS_TEXTS.save }));
    expect(await screen.findByRole('alert')).toHaveTextContent(TOPOLOGY_SETTINGS_TEXTS.nameRequired);
  });

  it('opens read-only for a viewer, without Save or Delete', async () => {
    server.use(
      ...consoleStartupHandlers({ roles: ['viewer'] }),
      http.get('*/api/db/topologies', () =>
        HttpResponse.json([
          {
            id: TOPOLOGY_IDS.topology,
            name: 't',
            namespace: 'default',
            labels: null,
            source: 'UI',
            deleted_at: null,
            spec: {},
          },
        ]),
      ),
    );
    open(`/settings/topologies/${TOPOLOGY_IDS.topology}`);
    await screen.findByRole('textbox', { name: TOPOLOGY_SETTINGS_TEXTS.spec }, { timeout: 15_000 });
    expect(screen.queryByRole('button', { name: TOPOLOGY_SETTINGS_TEXTS.save })).toBeNull();
    expect(screen.queryByRole('button', { name: SETTINGS_RESOURCE_TEXTS.update })).toBeNull();
    expect(screen.queryByRole('button', { name: TOPOLOGY_SETTINGS_TEXTS.delete })).toBeNull();
  });

  it('updates a topology with Update, and refuses a renamed one (name and namespace are fixed)', async () => {
    const patches: unknown[] = [];
    server.use(
      http.get('*/api/db/topologies', () =>
        HttpResponse.json([
          {
            id: TOPOLOGY_IDS.topology,
            name: 'shop-topology',
            namespace: 'default',
            labels: null,
            source: 'UI',
            deleted_at: null,
            spec: { components: [] },
          },
        ]),
      ),
      http.patch('*/api/db/topologies', async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json([{ id: TOPOLOGY_IDS.topology }]);
      }),
    );
    const { user, router } = open(`/settings/topologies/${TOPOLOGY_IDS.topology}`);
    // CodeMirror measures text with Range rectangles, which jsdom does not lay out.
    const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] } as unknown as DOMRectList;
    Range.prototype.getClientRects ??= () => empty;
    Range.prototype.getBoundingClientRect ??= () => new DOMRect();
    await screen.findByRole('textbox', { name: TOPOLOGY_SETTINGS_TEXTS.spec }, { timeout: 15_000 });
    const view = EditorView.findFromDOM(screen.getByTestId('yaml-editor'))!;
    const text = view.state.doc.toString();
    act(() =>
      view.dispatch({ changes: { from: 0, to: text.length, insert: text.replace('shop-topology', 'renamed') } }),
    );
    await user.click(screen.getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.update }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      SETTINGS_RESOURCE_TEXTS.identityChanged('name', 'shop-topology'),
    );
    expect(patches).toHaveLength(0);
    act(() =>
      view.dispatch({
        changes: {
          from: 0,
          to: view.state.doc.length,
          insert: text.replace('components: []', 'components:\n    - name: db\n      type: Database'),
        },
      }),
    );
    await user.click(screen.getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.update }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/topologies'));
    expect(patches[0]).toMatchObject({
      name: 'shop-topology',
      spec: { components: [{ name: 'db', type: 'Database' }] },
    });
    expect(await screen.findByText(SETTINGS_RESOURCE_TOASTS.updated('shop-topology'))).toBeInTheDocument();
  });
});

/** The top level of the fixture tree: the shop (unhealthy) and a cache (warning). */
function resetTree() {
  backend.setTopLevel([cacheComponent, shopComponent]);
}
