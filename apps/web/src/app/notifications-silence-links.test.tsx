import { SILENCE_LINK_TEXT, TOPOLOGY_TEXTS, type Role } from '@lookout/contracts';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { notificationHandlers } from '@/test/notifications-backend';
import { TOPOLOGY_IDS, topologyBackend } from '@/test/topology-backend';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

/*
 * 'Silence' on the component page, the card menu and the catalog item page (spec 3 section
 * 2.10): the add-silence page prefilled with component_id / config_id, offered only with write
 * on database and the notifications pages on, as the check drawer's link.
 */

vi.setConfig({ testTimeout: 30_000 });

const ITEM = '0192a5d4-5c00-7000-8000-0000000000a1';
const itemRow = {
  id: ITEM,
  name: 'shop',
  type: 'App::Service',
  config_class: 'App',
  status: 'Running',
  health: 'healthy',
  labels: {},
  tags: {},
  created_at: '2026-01-01T00:00:00Z',
  updated_at: null,
  deleted_at: null,
  config: { replicas: 2 },
  properties: [],
  last_scraped_time: null,
  summary: { changes: 0, analysis: 0, relationships: 0, playbook_runs: 0, checks: 0 },
  config_scrapers: null,
};

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const backend = topologyBackend();
const catalog = [
  http.get('*/api/db/config_detail', () => HttpResponse.json([itemRow])),
  // The item page's side panels: nothing linked.
  http.get('*/api/db/*', () => HttpResponse.json([])),
];
const server = setupServer(about, ...signedInHandlers(), ...backend.handlers, ...catalog);
beforeAll(() => {
  configure({ asyncUtilTimeout: 10_000 });
  server.listen({ onUnhandledRequest: 'error' });
  // CodeMirror (the item's document) measures text with Range rectangles, which jsdom does not lay out.
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] } as unknown as DOMRectList;
  Range.prototype.getClientRects ??= () => empty;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});
afterEach(() => {
  server.resetHandlers();
  window.localStorage.clear();
});
afterAll(() => server.close());

const open = (path: string, roles?: Role[]) => {
  if (roles) server.use(...consoleStartupHandlers({ userId: TEST_USER.id, roles }));
  return renderApp({ path, navigation });
};

const silenceTarget = (href: string | null) => {
  const target = new URL(href ?? '', 'http://localhost');
  return { path: target.pathname, params: Object.fromEntries(target.searchParams) };
};

describe("'Silence' on a component", () => {
  it('links the component page to the add-silence page with its component_id', async () => {
    open(`/topology/${TOPOLOGY_IDS.shop}`);
    const link = await screen.findByRole('link', { name: SILENCE_LINK_TEXT }, { timeout: 15_000 });
    expect(silenceTarget(link.getAttribute('href'))).toEqual({
      path: '/notifications/silences/add',
      params: { component_id: TOPOLOGY_IDS.shop },
    });
  });

  it("offers Silence in a card's menu, which opens the add-silence page for that component", async () => {
    const { user, router } = open(`/topology/${TOPOLOGY_IDS.shop}`);
    const db = within(await screen.findByRole('article', { name: 'orders-db' }, { timeout: 15_000 }));
    await user.click(db.getByRole('button', { name: TOPOLOGY_TEXTS.menuLabel }));
    await user.click(await screen.findByRole('menuitem', { name: SILENCE_LINK_TEXT }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/notifications/silences/add'));
    expect(router.state.location.search).toBe(`?component_id=${TOPOLOGY_IDS.db}`);
  });

  it('offers no Silence to a viewer (no write on database)', async () => {
    const { user } = open(`/topology/${TOPOLOGY_IDS.shop}`, []);
    const db = within(await screen.findByRole('article', { name: 'orders-db' }, { timeout: 15_000 }));
    await user.click(db.getByRole('button', { name: TOPOLOGY_TEXTS.menuLabel }));
    expect(await screen.findByRole('menuitem', { name: TOPOLOGY_TEXTS.actions.snapshot })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: SILENCE_LINK_TEXT })).toBeNull();
    expect(screen.queryByRole('link', { name: SILENCE_LINK_TEXT })).toBeNull();
  });

  it('offers no Silence with settings.notifications disabled', async () => {
    server.use(
      ...consoleStartupHandlers({
        userId: TEST_USER.id,
        properties: [propertyFixture({ name: 'settings.notifications.disable', value: 'true' })],
      }),
    );
    open(`/topology/${TOPOLOGY_IDS.shop}`);
    await screen.findByRole('article', { name: 'orders-db' }, { timeout: 15_000 });
    expect(screen.getByRole('button', { name: TOPOLOGY_TEXTS.actions.snapshot })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: SILENCE_LINK_TEXT })).toBeNull();
  });
});

describe("'Silence' on a catalog item", () => {
  it('links the item page to the add-silence page with its config_id', async () => {
    open(`/catalog/${ITEM}`);
    const link = await screen.findByRole('link', { name: SILENCE_LINK_TEXT }, { timeout: 15_000 });
    expect(silenceTarget(link.getAttribute('href'))).toEqual({
      path: '/notifications/silences/add',
      params: { config_id: ITEM },
    });
  });

  it('offers no Silence to a viewer (no write on database)', async () => {
    open(`/catalog/${ITEM}`, ['viewer']);
    await screen.findByText('shop', { selector: 'span' }, { timeout: 15_000 });
    expect(screen.queryByRole('link', { name: SILENCE_LINK_TEXT })).toBeNull();
  });
});

describe('the add-silence page those links open', () => {
  const cases = [
    { kind: 'Component', column: 'component_id', id: TOPOLOGY_IDS.shop, table: 'components' },
    { kind: 'Catalog', column: 'config_id', id: ITEM, table: 'config_items' },
  ] as const;
  for (const { kind, column, id, table } of cases) {
    it(`prefills the ${kind.toLowerCase()} kind from ${column} and sends it alone`, async () => {
      server.use(...notificationHandlers().handlers);
      const bodies: Record<string, unknown>[] = [];
      server.use(
        http.get(`*/api/db/${table}`, () => HttpResponse.json([{ id, name: 'shop', type: 'Service' }])),
        http.post('*/api/notification/silence', async ({ request }) => {
          bodies.push((await request.json()) as Record<string, unknown>);
          return HttpResponse.json({ id: '0192a5d4-5c00-7000-8000-0000000000f1' }, { status: 201 });
        }),
      );
      const user = userEvent.setup();
      open(`/notifications/silences/add?${column}=${id}`);
      const radio = await screen.findByRole('radio', { name: kind }, { timeout: 15_000 });
      expect(radio).toHaveAttribute('aria-checked', 'true');
      expect(await screen.findByRole('combobox', { name: kind })).toHaveValue(id);
      await user.click(screen.getByRole('button', { name: 'Submit' }));
      await waitFor(() => expect(bodies).toHaveLength(1));
      expect(bodies[0]).toMatchObject({ [column]: id, recursive: false, from: 'now' });
      expect(Object.keys(bodies[0]!).filter((key) => key.endsWith('_id'))).toEqual([column]);
    });
  }
});
