import { EditorView } from '@codemirror/view';
import {
  SCHEDULE_OPTION_SETS,
  SETTINGS_RESOURCES,
  SETTINGS_RESOURCE_TEXTS,
  SETTINGS_RESOURCE_TOASTS,
  VIEW_MESSAGES,
  type Role,
  type SettingsResourceTable,
} from '@lookout/contracts';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 30_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => {
  // A page's first render loads the console's lazy chunks, which can take seconds in jsdom.
  configure({ asyncUtilTimeout: 8_000 });
  server.listen({ onUnhandledRequest: 'error' });
  // CodeMirror measures text with Range rectangles, which jsdom does not lay out.
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] } as unknown as DOMRectList;
  Range.prototype.getClientRects ??= () => empty;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const UI_RULE = '0192a5d4-5c00-7000-8000-0000000000e1';
const FILE_RULE = '0192a5d4-5c00-7000-8000-0000000000e2';
const author = { id: TEST_USER.id, name: TEST_USER.name, avatar: null };

type Row = Record<string, unknown> & { id: string; name: string };
const rule = (id: string, name: string, source: string): Row => ({
  id,
  name,
  spec: { priority: 1, checks: [{ name: 'payments-*' }] },
  labels: { team: 'payments' },
  source,
  created_by: author,
  created_at: '2026-01-01T10:00:00Z',
  updated_at: '2026-01-02T10:00:00Z',
  deleted_at: null,
  job_status: 'FAILED',
  last_runtime: '2026-01-02T10:05:00Z',
  job_last_failed: '2026-01-02T10:05:00Z',
});

/** A row of another table's list relation, with the columns its view has. */
const listRow = (name: string, extra: Record<string, unknown> = {}): Row => ({
  id: `0192a5d4-5c00-7000-8000-${name.padStart(12, '0').slice(-12)}`,
  name,
  source: 'UI',
  created_by: author,
  created_at: '2026-01-01T10:00:00Z',
  updated_at: null,
  ...extra,
});

interface Write {
  method: string;
  params: URLSearchParams;
  body: Record<string, unknown>;
}

/** incident_rules through /api/db (ui-calls 3.10), one list per other table, recording writes. */
function backend(options: { roles?: Role[]; refuse?: string; disabled?: string[] } = {}) {
  const rules = new Map<string, Row>([
    [UI_RULE, rule(UI_RULE, 'payments-down', 'UI')],
    [FILE_RULE, rule(FILE_RULE, 'from-git', 'ConfigFile')],
  ]);
  const writes: Write[] = [];
  const listRequests: { relation: string; params: URLSearchParams }[] = [];
  const others: Partial<Record<string, Row[]>> = {
    canaries_with_status: [
      listRow('web-checks', { namespace: 'prod', schedule: '@every 1m', labels: { env: 'prod' } }),
    ],
    topologies_with_status: [
      listRow('shop', { namespace: 'default', agent: { id: '0192a5d4-5c00-7000-8000-0000000000a9', name: 'eu-1' } }),
    ],
    config_scrapers_with_status: [listRow('local-files', { namespace: 'default', schedule: '@every 5m' })],
    teams_with_status: [listRow('Platform')],
    logging_backends: [listRow('loki', { labels: { team: 'shop' } })],
  };
  const live = () => [...rules.values()].filter((row) => row.deleted_at === null);
  server.use(
    ...consoleStartupHandlers({
      roles: options.roles ?? ['admin'],
      properties: (options.disabled ?? []).map((feature) =>
        propertyFixture({ name: `${feature}.disable`, value: 'true' }),
      ),
    }),
    http.get('*/api/db/incident_rules_with_status', ({ request }) => {
      listRequests.push({ relation: 'incident_rules_with_status', params: new URL(request.url).searchParams });
      return HttpResponse.json(live());
    }),
    http.get('*/api/db/incident_rules', ({ request }) => {
      const id = new URL(request.url).searchParams.get('id')?.replace('eq.', '');
      return HttpResponse.json([...rules.values()].filter((row) => row.id === id));
    }),
    http.post('*/api/db/incident_rules', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      writes.push({ method: 'POST', params: new URL(request.url).searchParams, body });
      if (options.refuse) {
        return HttpResponse.json(
          { code: '23514', message: options.refuse, details: null, hint: null },
          { status: 400 },
        );
      }
      const id = '0192a5d4-5c00-7000-8000-0000000000e9';
      // The list embeds the author (created_by(...)) where the body carries the id.
      rules.set(id, { ...rule(id, String(body.name), 'UI'), ...body, id, created_by: author });
      return HttpResponse.json([{ id }], { status: 201 });
    }),
    http.patch('*/api/db/incident_rules', async ({ request }) => {
      const params = new URL(request.url).searchParams;
      const body = (await request.json()) as Record<string, unknown>;
      writes.push({ method: 'PATCH', params, body });
      const id = params.get('id')?.replace('eq.', '') ?? '';
      const row = rules.get(id);
      if (!row) return HttpResponse.json([]);
      rules.set(id, { ...row, ...body, ...(body.deleted_at ? { deleted_at: '2026-01-03T00:00:00Z' } : {}) });
      return HttpResponse.json([{ id }]);
    }),
    ...Object.entries(others).map(([relation, rows]) =>
      http.get(`*/api/db/${relation}`, ({ request }) => {
        listRequests.push({ relation, params: new URL(request.url).searchParams });
        return HttpResponse.json(rows);
      }),
    ),
  );
  return { writes, listRequests, rules };
}

const open = (path: string) => renderApp({ path, navigation });
const headersOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((header) => header.textContent);
const rowOf = async (table: HTMLElement, name: string) => {
  const tr = (await within(table).findByText(name)).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
};
const replaceSpec = async (text: string) => {
  const view = EditorView.findFromDOM(await screen.findByTestId('yaml-editor'));
  if (!view) throw new Error('no editor');
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
};

const ALL = [
  'Name',
  'Source',
  'Schedule',
  'Namespace',
  'Job Status',
  'Last Run',
  'Last Failed',
  'Tags',
  'Created',
  'Updated',
  'Created By',
];
const without = (...hidden: string[]) => ALL.filter((column) => !hidden.includes(column));

describe('/settings/{table} lists (spec 3 section 2.6)', () => {
  it.each<[SettingsResourceTable, string, string[]]>([
    ['incident_rules', 'incident_rules_with_status', without('Schedule', 'Namespace')],
    ['canaries', 'canaries_with_status', without('Namespace')],
    ['topologies', 'topologies_with_status', without('Schedule')],
    ['config_scrapers', 'config_scrapers_with_status', without('Schedule', 'Namespace')],
    ['teams', 'teams_with_status', without('Schedule', 'Namespace')],
    ['logging_backends', 'logging_backends', without('Schedule', 'Namespace')],
  ])('%s: reads %s with the generic call and shows its columns', async (table, relation, columns) => {
    const { listRequests } = backend();
    const resource = SETTINGS_RESOURCES[table];
    open(resource.path);
    const list = await screen.findByRole('table', { name: resource.title });
    await waitFor(() => expect(within(list).getAllByRole('row').length).toBeGreaterThan(1));
    expect(headersOf(list)).toEqual(columns);
    const request = listRequests.find((candidate) => candidate.relation === relation);
    expect(Object.fromEntries(request!.params)).toEqual({
      select: resource.listSelect,
      deleted_at: 'is.null',
      order: 'created_at.desc',
      limit: '100',
    });
    expect(screen.getByRole('link', { name: resource.add })).toHaveAttribute('href', `${resource.path}/new`);
    expect(document.title).toBe(`${resource.title} | Lookout`);
  });

  it('shows schedule, namespace, tags and the agent where the table has them', async () => {
    backend();
    open('/settings/canaries');
    const canaries = await screen.findByRole('table', { name: SETTINGS_RESOURCES.canaries.title });
    const row = await rowOf(canaries, 'web-checks');
    expect(row).toHaveTextContent('@every 1m');
    expect(row).toHaveTextContent('env: prod');
    expect(row).not.toHaveTextContent('prod env');
  });

  it('names the job status and the author of an incident rule, and opens it from its row', async () => {
    backend();
    const { user, router } = open('/settings/incident_rules');
    const list = await screen.findByRole('table', { name: SETTINGS_RESOURCES.incident_rules.title });
    const row = await rowOf(list, 'payments-down');
    expect(within(row).getByText('Failed')).toBeInTheDocument();
    expect(row).toHaveTextContent(TEST_USER.name);
    expect(row).toHaveTextContent('team: payments');
    expect(within(await rowOf(list, 'from-git')).getByText('ConfigFile')).toBeInTheDocument();
    await user.click(row);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/settings/incident_rules/${UI_RULE}`));
  });

  it.each<[Role, boolean]>([
    ['admin', true],
    ['editor', true],
    ['commander', false],
    ['responder', false],
  ])('offers the add button to a %s only with write on the resource (%s)', async (role, offered) => {
    backend({ roles: [role] });
    open('/settings/incident_rules');
    await rowOf(await screen.findByRole('table', { name: SETTINGS_RESOURCES.incident_rules.title }), 'payments-down');
    const add = screen.queryByRole('link', { name: SETTINGS_RESOURCES.incident_rules.add });
    if (offered) expect(add).toBeInTheDocument();
    else expect(add).not.toBeInTheDocument();
  });

  it('lists the generic resources in the settings menu, and drops one whose feature is disabled', async () => {
    backend({ disabled: ['settings.rules'] });
    open('/settings/canaries');
    await screen.findByRole('table', { name: SETTINGS_RESOURCES.canaries.title });
    const submenu = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('list', { name: 'Settings' });
    const labels = within(submenu)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(labels).toEqual(
      expect.arrayContaining(['Teams', 'Catalog Scrapers', 'Topology', 'Health Checks', 'Log Backends']),
    );
    expect(labels).not.toContain(SETTINGS_RESOURCES.incident_rules.title);
  });

  it("opens a catalog scraper from Settings in the catalog's editor, which leads back to the settings list", async () => {
    backend();
    const scraper = {
      ...listRow('local-files'),
      namespace: 'default',
      spec: { schedule: '@every 5m' },
      deleted_at: null,
    };
    server.use(http.get('*/api/db/config_scrapers', () => HttpResponse.json([scraper])));
    const { user, router } = open('/settings/config_scrapers');
    const list = await screen.findByRole('table', { name: SETTINGS_RESOURCES.config_scrapers.title });
    await user.click(await rowOf(list, 'local-files'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/settings/config_scrapers/${scraper.id}`));
    expect(await screen.findByRole('link', { name: SETTINGS_RESOURCES.config_scrapers.title })).toHaveAttribute(
      'href',
      '/settings/config_scrapers',
    );
    // Namespace and name are fixed once the scraper exists (spec 2 section 5).
    expect(await screen.findByLabelText('Name')).toBeDisabled();
    expect(screen.getByLabelText('Namespace')).toBeDisabled();
    // The schedule, chosen from the default option set (spec 2 section 9), edits the spec.
    const schedule = screen.getByLabelText(SETTINGS_RESOURCE_TEXTS.fields.schedule);
    expect(schedule).toHaveValue('@every 5m');
    expect(
      within(schedule)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([SETTINGS_RESOURCE_TEXTS.noSchedule, ...SCHEDULE_OPTION_SETS.default.map((option) => option.label)]);
    await user.selectOptions(schedule, '@hourly');
    const view = EditorView.findFromDOM(screen.getByTestId('yaml-editor'))!;
    expect(view.state.doc.toString()).toContain('schedule: "@hourly"');
  });

  it('answers like an unknown address while the feature is disabled', async () => {
    backend({ disabled: ['settings.rules'] });
    open('/settings/incident_rules');
    expect(await screen.findByText(VIEW_MESSAGES.notFoundTitle)).toBeInTheDocument();
  });
});

describe('/settings/incident_rules/{id} (spec 2 sections 2.8, 4 and 5)', () => {
  it('creates a rule: Save, the author, the toast, and back to the list', async () => {
    const { writes } = backend();
    const { user, router } = open('/settings/incident_rules/new');
    const form = await screen.findByRole('form', { name: SETTINGS_RESOURCES.incident_rules.name });
    // A new rule starts from the template; a missing name is refused before any call.
    await user.click(within(form).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.save }));
    expect(await within(form).findByText('This field is required')).toBeInTheDocument();
    expect(writes).toHaveLength(0);
    await user.type(within(form).getByLabelText(SETTINGS_RESOURCE_TEXTS.fields.name), 'db-down');
    await replaceSpec('components:\n  - type: database\n');
    await user.click(within(form).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.save }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/incident_rules'));
    expect(writes[0]).toMatchObject({
      method: 'POST',
      body: { name: 'db-down', spec: { components: [{ type: 'database' }] }, created_by: TEST_USER.id },
    });
    expect(await screen.findByText(SETTINGS_RESOURCE_TOASTS.created('db-down'))).toBeInTheDocument();
    expect(await screen.findByText('db-down')).toBeInTheDocument();
  });

  it("shows the server's refusal of a spec and stays on the form", async () => {
    const refusal = 'Invalid incident rule: spec.priority: Invalid input: expected number, received string';
    backend({ refuse: refusal });
    const { user, router } = open('/settings/incident_rules/new');
    const form = await screen.findByRole('form', { name: SETTINGS_RESOURCES.incident_rules.name });
    await user.type(within(form).getByLabelText(SETTINGS_RESOURCE_TEXTS.fields.name), 'bad');
    await replaceSpec('priority: high\n');
    await user.click(within(form).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.save }));
    expect(await within(form).findByText(refusal)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/incident_rules/new');
  });

  it('refuses a spec that is not an object before calling the server', async () => {
    const { writes } = backend();
    const { user } = open('/settings/incident_rules/new');
    const form = await screen.findByRole('form', { name: SETTINGS_RESOURCES.incident_rules.name });
    await user.type(within(form).getByLabelText(SETTINGS_RESOURCE_TEXTS.fields.name), 'list');
    await replaceSpec('- a\n- b\n');
    await user.click(within(form).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.save }));
    expect(await within(form).findByText(SETTINGS_RESOURCE_TEXTS.specNotObject)).toBeInTheDocument();
    expect(writes).toHaveLength(0);
  });

  it('updates a rule with the name fixed: Update, PATCH by id, the toast, and back to the list', async () => {
    const { writes } = backend();
    const { user, router } = open(`/settings/incident_rules/${UI_RULE}`);
    const form = await screen.findByRole('form', { name: SETTINGS_RESOURCES.incident_rules.name });
    expect(within(form).getByLabelText(SETTINGS_RESOURCE_TEXTS.fields.name)).toBeDisabled();
    expect(within(form).getByText(SETTINGS_RESOURCE_TEXTS.nameLocked)).toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: SETTINGS_RESOURCE_TEXTS.save })).not.toBeInTheDocument();
    await replaceSpec('priority: 5\n');
    await user.click(within(form).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.update }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/incident_rules'));
    expect(writes[0]?.method).toBe('PATCH');
    expect(writes[0]?.params.get('id')).toBe(`eq.${UI_RULE}`);
    // Rules have the fields name and spec (spec 2 section 3.1); the name goes as it was loaded.
    expect(writes[0]?.body).toEqual({ name: 'payments-down', spec: { priority: 5 } });
    expect(await screen.findByText(SETTINGS_RESOURCE_TOASTS.updated('payments-down'))).toBeInTheDocument();
  });

  it('soft-deletes after confirmation: deleted_at now, the toast, and the list without it', async () => {
    const { writes } = backend();
    const { user, router } = open(`/settings/incident_rules/${UI_RULE}`);
    const form = await screen.findByRole('form', { name: SETTINGS_RESOURCES.incident_rules.name });
    await user.click(within(form).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.delete }));
    const dialog = await screen.findByRole('alertdialog', {
      name: SETTINGS_RESOURCE_TEXTS.deleteConfirm('payments-down'),
    });
    await user.click(within(dialog).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.delete }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/incident_rules'));
    expect(writes[0]).toMatchObject({ method: 'PATCH', body: { deleted_at: 'now()' } });
    expect(await screen.findByText(SETTINGS_RESOURCE_TOASTS.deleted('payments-down'))).toBeInTheDocument();
    const list = await screen.findByRole('table', { name: SETTINGS_RESOURCES.incident_rules.title });
    await rowOf(list, 'from-git');
    expect(within(list).queryByText('payments-down')).not.toBeInTheDocument();
  });

  it('goes back to the list on Cancel without writing', async () => {
    const { writes } = backend();
    const { user, router } = open(`/settings/incident_rules/${UI_RULE}`);
    const form = await screen.findByRole('form', { name: SETTINGS_RESOURCES.incident_rules.name });
    await user.click(within(form).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.cancel }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/incident_rules'));
    expect(writes).toHaveLength(0);
  });

  it('opens a rule from another source read-only: the reason, no Update, no Delete', async () => {
    backend();
    open(`/settings/incident_rules/${FILE_RULE}`);
    const form = await screen.findByRole('form', { name: SETTINGS_RESOURCES.incident_rules.name });
    expect(within(form).getByText(SETTINGS_RESOURCE_TEXTS.readOnly('ConfigFile'))).toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: SETTINGS_RESOURCE_TEXTS.update })).not.toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: SETTINGS_RESOURCE_TEXTS.delete })).not.toBeInTheDocument();
    expect(within(form).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.cancel })).toBeInTheDocument();
  });

  it('opens read-only for a role without write', async () => {
    backend({ roles: ['responder'] });
    open(`/settings/incident_rules/${UI_RULE}`);
    const form = await screen.findByRole('form', { name: SETTINGS_RESOURCES.incident_rules.name });
    expect(within(form).queryByRole('button', { name: SETTINGS_RESOURCE_TEXTS.update })).not.toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: SETTINGS_RESOURCE_TEXTS.delete })).not.toBeInTheDocument();
  });

  it('refuses the create form to a role without write', async () => {
    backend({ roles: ['responder'] });
    open('/settings/incident_rules/new');
    expect(await screen.findByText(VIEW_MESSAGES.unauthorized)).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it("says 'No resources found' for an id no live rule has", async () => {
    backend();
    open('/settings/incident_rules/0192a5d4-5c00-7000-8000-00000000ffff');
    expect(await screen.findByText(SETTINGS_RESOURCE_TEXTS.notFound)).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it("lists the rule's runs in Job History (resource_type 'incident_rule', resource_id)", async () => {
    backend();
    const requests: URLSearchParams[] = [];
    server.use(
      http.get('*/api/db/job_histories', ({ request }) => {
        requests.push(new URL(request.url).searchParams);
        return HttpResponse.json([], { headers: { 'content-range': '*/0' } });
      }),
      http.get('*/api/db/job_history_names', () => HttpResponse.json([])),
    );
    const { user } = open(`/settings/incident_rules/${UI_RULE}`);
    await screen.findByRole('form', { name: SETTINGS_RESOURCES.incident_rules.name });
    const tabs = screen.getByRole('tablist', { name: SETTINGS_RESOURCES.incident_rules.name });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Spec', 'Job History']);
    await user.click(within(tabs).getByRole('tab', { name: SETTINGS_RESOURCE_TEXTS.tabs['job-history'] }));
    await waitFor(() => expect(requests.length).toBeGreaterThan(0));
    expect(requests.at(-1)!.get('resource_type.filter')).toBe('incident_rule');
    expect(requests.at(-1)!.get('resource_id')).toBe(`eq.${UI_RULE}`);
  });
});
