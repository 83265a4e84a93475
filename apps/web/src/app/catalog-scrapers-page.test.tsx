import { EditorView } from '@codemirror/view';
import {
  CONFIG_LINK_TOASTS,
  RELATIONSHIP_TEXTS,
  SCRAPER_TOASTS,
  SCRAPERS_PAGE_TEXTS,
  type Role,
} from '@lookout/contracts';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 30_000 });

const UI_ID = '0192a5d4-5c00-7000-8000-000000000001';
const FILE_ID = '0192a5d4-5c00-7000-8000-000000000002';
const ITEM = '0192a5d4-5c00-7000-8000-0000000000a1';
const LINKED = '0192a5d4-5c00-7000-8000-0000000000a2';
const CHILD = '0192a5d4-5c00-7000-8000-0000000000a3';
const COMPONENT = '0192a5d4-5c00-7000-8000-0000000000c1';

const scraper = (id: string, name: string, source: string, spec: Record<string, unknown>) => ({
  id,
  name,
  namespace: 'default',
  spec,
  source,
  created_at: '2026-01-01T10:00:00Z',
  updated_at: '2026-01-02T10:00:00Z',
  job_status: 'SUCCESS',
  last_runtime: '2026-01-02T10:05:00Z',
});
const SCRAPERS = [
  scraper(UI_ID, 'local-files', 'UI', { schedule: '@every 5m', file: [{ type: 'F', paths: ['/a'] }], sql: [{}] }),
  scraper(FILE_ID, 'from-git', 'ConfigFile', { http: [{ url: 'http://x' }] }),
];
const related = (id: string, name: string, type: string, depth: number, related_ids: string[] = []) => ({
  id,
  name,
  type,
  status: 'Running',
  health: 'healthy',
  tags: {},
  deleted_at: null,
  related_ids,
  depth,
  direction: depth === 0 ? 'self' : 'outgoing',
});

const requests: Array<{ method: string; path: string; params: URLSearchParams; body?: unknown }> = [];
const record = async (request: Request) => {
  const url = new URL(request.url);
  requests.push({
    method: request.method,
    path: url.pathname,
    params: url.searchParams,
    body: request.method === 'POST' || request.method === 'PATCH' ? await request.json() : undefined,
  });
};

const backend = [
  http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' })),
  http.get('*/api/db/config_scrapers_with_status', () => HttpResponse.json(SCRAPERS)),
  http.get('*/api/db/config_scrapers', ({ request }) => {
    const id = new URL(request.url).searchParams.get('id')?.replace('eq.', '');
    return HttpResponse.json(SCRAPERS.filter((row) => row.id === id));
  }),
  http.get('*/api/db/config_detail', () =>
    HttpResponse.json([
      {
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
        config: {},
        properties: [],
        last_scraped_time: null,
        summary: { changes: 0, analysis: 0, relationships: 2, playbook_runs: 0, checks: 0 },
        config_scrapers: { id: UI_ID, name: 'local-files' },
      },
    ]),
  ),
  http.get('*/api/db/rpc/related_configs_recursive', async ({ request }) => {
    await record(request);
    return HttpResponse.json([
      related(ITEM, 'shop', 'App::Service', 0, [LINKED, CHILD]),
      related(LINKED, 'orders-db', 'Database::Postgres', 1),
      related(CHILD, 'shop-secret', 'App::Secret', 1),
    ]);
  }),
  http.get('*/api/db/config_component_relationships', () =>
    HttpResponse.json([
      {
        component_id: COMPONENT,
        selector_id: 'manual',
        component: { id: COMPONENT, name: 'checkout', type: 'Service' },
      },
    ]),
  ),
  http.get('*/api/db/config_relationships', () =>
    HttpResponse.json([{ config_id: ITEM, related_id: LINKED, relation: '' }]),
  ),
];

const server = setupServer(...signedInHandlers(), ...backend);
beforeAll(() => {
  configure({ asyncUtilTimeout: 10_000 });
  server.listen({ onUnhandledRequest: 'error' });
  // CodeMirror measures text with Range rectangles, which jsdom does not lay out.
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] } as unknown as DOMRectList;
  Range.prototype.getClientRects ??= () => empty;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
  window.localStorage.clear();
});
afterAll(() => server.close());

const open = (path: string, roles: Role[] = ['admin']) => {
  server.use(...consoleStartupHandlers({ roles }));
  return renderApp({ path, navigation });
};

const replaceSpec = async (text: string) => {
  const view = EditorView.findFromDOM(await screen.findByTestId('yaml-editor'));
  if (!view) throw new Error('no editor');
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
};

describe('/catalog/scrapers (spec 3 section 2.1)', () => {
  it('lists scrapers with the generic columns less Schedule and Namespace, and offers Add Scraper to writers', async () => {
    const { user, router } = open('/catalog/scrapers');
    const table = await screen.findByRole('table', { name: SCRAPERS_PAGE_TEXTS.title });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Source', 'Job Status', 'Last Run', 'Last Failed', 'Tags', 'Created', 'Updated', 'Created By']);
    const row = (await within(table).findByText('local-files')).closest('tr')!;
    expect(within(row).getByText('Success')).toBeInTheDocument();
    const fromGit = within(table).getByText('from-git').closest('tr')!;
    expect(within(fromGit).getByText('ConfigFile')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: SCRAPERS_PAGE_TEXTS.add })).toHaveAttribute(
      'href',
      '/catalog/scrapers/new',
    );
    // The catalog's tabs sit above the list, and a row opens the scraper under /catalog.
    expect(screen.getByRole('navigation', { name: 'Catalog pages' })).toBeInTheDocument();
    await user.click(row);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/catalog/scrapers/${UI_ID}`));
  });

  it('hides Add Scraper from those who only read scrapers', async () => {
    open('/catalog/scrapers', ['viewer']);
    await screen.findByRole('table', { name: SCRAPERS_PAGE_TEXTS.title });
    await screen.findByText('local-files');
    expect(screen.queryByRole('link', { name: SCRAPERS_PAGE_TEXTS.add })).not.toBeInTheDocument();
  });

  it('creates a scraper: the server refusal names each field under the editor, then it saves', async () => {
    let refuse = true;
    server.use(
      http.post('*/api/db/config_scrapers', async ({ request }) => {
        await record(request);
        if (refuse) {
          refuse = false;
          return HttpResponse.json(
            {
              code: '23514',
              message: 'Invalid scraper: spec.file[0].paths: must list at least one path or glob',
              details: 'spec.file[0].paths: must list at least one path or glob\nspec.s3: unknown field',
              hint: null,
            },
            { status: 400 },
          );
        }
        return HttpResponse.json([{ ...SCRAPERS[0], id: 'new-id', name: 'docs' }], { status: 201 });
      }),
    );
    open('/catalog/scrapers/new');
    const form = await screen.findByRole('form', { name: 'Scraper' });
    await userEvent.type(within(form).getByRole('textbox', { name: /^Name\b(?!space)/ }), 'docs');
    await replaceSpec('{"file": [{"type": "F", "paths": []}], "s3": []}');
    within(form).getByRole('button', { name: SCRAPERS_PAGE_TEXTS.save }).click();
    const alert = await within(form).findByRole('alert');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['spec.file[0].paths: must list at least one path or glob', 'spec.s3: unknown field']);
    expect(requests[0]?.body).toEqual({
      name: 'docs',
      namespace: 'default',
      spec: { file: [{ type: 'F', paths: [] }], s3: [] },
      source: 'UI',
      created_by: expect.any(String),
    });

    await replaceSpec('file:\n  - type: F\n    paths: [/docs/*.yaml]\n');
    within(form).getByRole('button', { name: SCRAPERS_PAGE_TEXTS.save }).click();
    await screen.findByText(SCRAPER_TOASTS.created('docs'));
    await screen.findByRole('table', { name: SCRAPERS_PAGE_TEXTS.title });
  });

  it('opens a scraper of another source read-only', async () => {
    open(`/catalog/scrapers/${FILE_ID}`);
    await screen.findByText(SCRAPERS_PAGE_TEXTS.readOnly('ConfigFile'));
    expect(screen.getByRole('tab', { name: SCRAPERS_PAGE_TEXTS.tabs.jobHistory })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: SCRAPERS_PAGE_TEXTS.update })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: SCRAPERS_PAGE_TEXTS.delete })).not.toBeInTheDocument();
  });

  it('lets a writer delete a UI scraper (soft)', async () => {
    server.use(
      http.patch('*/api/db/config_scrapers', async ({ request }) => {
        await record(request);
        return HttpResponse.json([SCRAPERS[0]]);
      }),
    );
    open(`/catalog/scrapers/${UI_ID}`);
    (await screen.findByRole('button', { name: SCRAPERS_PAGE_TEXTS.delete })).click();
    const confirm = await screen.findByRole('alertdialog');
    within(confirm).getByRole('button', { name: 'Delete' }).click();
    await screen.findByText(SCRAPER_TOASTS.deleted('local-files'));
    expect(requests.find((r) => r.method === 'PATCH')).toMatchObject({ body: { deleted_at: 'now()' } });
  });
});

describe('/catalog/{id}/relationships', () => {
  it('asks for outgoing hard relationships, groups the table by type and links the scraper', async () => {
    open(`/catalog/${ITEM}/relationships`, ['viewer']);
    const table = await screen.findByRole('table', { name: RELATIONSHIP_TEXTS.tab });
    expect(within(table).getByRole('rowheader', { name: /Database::Postgres/ })).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: /App::Secret/ })).toBeInTheDocument();
    const call = requests.find((r) => r.path.endsWith('/rpc/related_configs_recursive'))!;
    expect(Object.fromEntries(call.params)).toMatchObject({
      config_id: ITEM,
      type_filter: 'outgoing',
      max_depth: '10',
      outgoing_relation: 'hard',
      include_deleted_configs: 'false',
    });
    expect(screen.getByRole('link', { name: 'local-files' })).toHaveAttribute('href', `/catalog/scrapers/${UI_ID}`);
    // Readers see the manual link but may not change links.
    expect(within(table).getByText(RELATIONSHIP_TEXTS.manual)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: RELATIONSHIP_TEXTS.link })).not.toBeInTheDocument();
    expect(await screen.findByRole('region', { name: RELATIONSHIP_TEXTS.components })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Unlink/ })).not.toBeInTheDocument();
  });

  it('lets an editor remove a manual link', async () => {
    server.use(
      http.delete('*/api/db/config_relationships', async ({ request }) => {
        await record(request);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    open(`/catalog/${ITEM}/relationships`, ['editor']);
    expect(await screen.findByRole('button', { name: RELATIONSHIP_TEXTS.link })).toBeInTheDocument();
    (await screen.findByRole('button', { name: `${RELATIONSHIP_TEXTS.unlink} orders-db` })).click();
    const confirm = await screen.findByRole('alertdialog');
    within(confirm).getByRole('button', { name: RELATIONSHIP_TEXTS.unlink }).click();
    await screen.findByText(CONFIG_LINK_TOASTS.unlinked);
    const call = requests.find((r) => r.method === 'DELETE')!;
    expect(Object.fromEntries(call.params)).toEqual({
      config_id: `eq.${ITEM}`,
      related_id: `eq.${LINKED}`,
      selector_id: 'eq.manual',
    });
  });

  it('links the item to another chosen from at most 50, in the chosen direction', async () => {
    server.use(
      // The picker asks the resource search (ui-calls 3.16); the item itself comes back and is left out.
      http.post('*/api/resources/search', async ({ request }) => {
        await record(request);
        const row = { namespace: null, agent: 'local', labels: null, icon: null, tags: null };
        return HttpResponse.json({
          checks: [],
          components: [],
          configs: [
            { ...row, id: ITEM, name: 'shop', type: 'App::Service' },
            { ...row, id: CHILD, name: 'shop-secret', type: 'App::Secret' },
          ],
        });
      }),
      http.post('*/api/db/config_relationships', async ({ request }) => {
        await record(request);
        return HttpResponse.json([], { status: 201 });
      }),
    );
    const user = userEvent.setup();
    open(`/catalog/${ITEM}/relationships`, ['editor']);
    await user.click(await screen.findByRole('button', { name: RELATIONSHIP_TEXTS.link }));
    const dialog = await screen.findByRole('dialog', { name: RELATIONSHIP_TEXTS.linkTitle });
    await user.click(within(dialog).getByRole('button', { name: RELATIONSHIP_TEXTS.linkSubmit }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(RELATIONSHIP_TEXTS.linkRequired);
    const picker = within(dialog).getByRole('listbox', { name: RELATIONSHIP_TEXTS.linkTarget });
    await within(picker).findByRole('option', { name: 'shop-secret (App::Secret)' });
    await user.selectOptions(picker, CHILD);
    await user.click(within(dialog).getByRole('radio', { name: RELATIONSHIP_TEXTS.linkDirections.incoming }));
    await user.click(within(dialog).getByRole('button', { name: RELATIONSHIP_TEXTS.linkSubmit }));
    await screen.findByText(CONFIG_LINK_TOASTS.linked);
    expect(within(picker).queryByRole('option', { name: /^shop \(/ })).toBeNull();
    expect(requests.find((r) => r.path.endsWith('/api/db/config_relationships'))?.body).toEqual({
      config_id: CHILD,
      related_id: ITEM,
    });
    // Manual links are soft edges: the tab now asks for soft and incoming ones.
    await waitFor(() =>
      expect(
        Object.fromEntries(requests.filter((r) => r.path.endsWith('related_configs_recursive')).at(-1)!.params),
      ).toMatchObject({
        type_filter: 'all',
        incoming_relation: 'both',
      }),
    );
    const lookup = requests.find((r) => r.path.endsWith('/api/resources/search'))!;
    expect(lookup.body).toEqual({ configs: [{ limit: 51 }] });
  });

  it('lists the components the item is linked to, and lets a topology writer unlink a manual one', async () => {
    server.use(
      http.delete('*/api/db/config_component_relationships', async ({ request }) => {
        await record(request);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    open(`/catalog/${ITEM}/relationships`, ['editor']);
    const section = await screen.findByRole('region', { name: RELATIONSHIP_TEXTS.components });
    expect(within(section).getByRole('link', { name: 'checkout' })).toHaveAttribute('href', `/topology/${COMPONENT}`);
    await user.click(within(section).getByRole('button', { name: `${RELATIONSHIP_TEXTS.unlink} checkout` }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: RELATIONSHIP_TEXTS.unlink }),
    );
    await screen.findByText(CONFIG_LINK_TOASTS.unlinked);
    const call = requests.find((r) => r.method === 'DELETE')!;
    expect(call.path).toMatch(/config_component_relationships$/);
    expect(Object.fromEntries(call.params)).toEqual({
      component_id: `eq.${COMPONENT}`,
      config_id: `eq.${ITEM}`,
      selector_id: 'eq.manual',
    });
  });

  it('draws the graph with the item and its related items', async () => {
    open(`/catalog/${ITEM}/relationships?view=graph`);
    const graph = await screen.findByRole('img', { name: RELATIONSHIP_TEXTS.graph });
    await waitFor(() => expect(within(graph).getAllByTestId('graph-node')).toHaveLength(3));
    expect(within(graph).getByRole('link', { name: 'orders-db' })).toHaveAttribute(
      'href',
      `/catalog/${LINKED}/relationships`,
    );
  });
});
