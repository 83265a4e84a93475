import { AGENT_TOKEN_SHOWN_ONCE_WARNING, AGENTS_TEXTS } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { agentFixture, agentsBackend } from '@/test/agents-backend';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

// Radix's Switch measures itself inside a form (its hidden input mirrors the thumb); jsdom has
// no ResizeObserver, and nothing here depends on sizes.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const table = () => screen.findByRole('table', { name: AGENTS_TEXTS.table }, { timeout: 15_000 });
const texts = AGENTS_TEXTS.drawer;

const eu = agentFixture({
  name: 'eu-west',
  config_count: 120,
  checks_count: 14,
  config_scrapper_count: 3,
  playbook_runs_count: 7,
  push_queue_length: 42,
  push_oldest_unpushed_at: new Date(Date.now() - 5 * 60_000).toISOString(),
  properties: { region: 'eu', kubernetes: { enabled: true, interval: '1h' }, pushTelemetry: { enabled: false } },
});
const us = agentFixture({ name: 'us-east', status: 'offline', created_at: '2024-09-01T10:00:00Z' });
const fresh = agentFixture({ name: 'ap-south', status: 'unknown', last_seen: null, last_received: null });

function start(roles: ('admin' | 'viewer' | 'editor')[] = ['admin'], agents = [eu, us, fresh]) {
  const backend = agentsBackend(agents);
  server.use(...consoleStartupHandlers({ roles }), ...backend.handlers);
  return backend;
}

const listCalls = (backend: ReturnType<typeof agentsBackend>) =>
  backend.calls.filter((call) => call.method === 'GET' && call.params.limit !== undefined);

describe('/agents (spec 2 section 2.6)', () => {
  it('lists agents with the spec columns, counts, status and backlog, newest first, 50 a page, counted', async () => {
    const backend = start();
    renderApp({ path: '/agents', navigation });
    const grid = await table();
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      'Name',
      'Configs',
      'Checks',
      'Scrapers',
      'Playbook Runs',
      'Status',
      'Last Pushed',
      'Created At',
      'Updated At',
      'Created By',
    ]);
    const row = (await within(grid).findByText('eu-west')).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 5)).toEqual(['eu-west', '120', '14', '3', '7']);
    expect(cells[5]).toBe('Online42 queued, oldest 5m old');
    expect(cells[9]).toBe('JDJane Doe');
    const offline = within(within(grid).getByText('us-east').closest('tr')!).getAllByRole('cell');
    expect(offline[5]!.textContent).toBe('Offline');
    // Never seen: nothing in Status (spec 2 section 4).
    const unseen = within(within(grid).getByText('ap-south').closest('tr')!).getAllByRole('cell');
    expect(unseen[5]!.textContent).toBe('');
    expect(listCalls(backend)[0]!.params).toMatchObject({
      select: '*,created_by(id,name,avatar)',
      order: 'created_at.desc.nullslast,id.desc',
      limit: '50',
      offset: '0',
    });
    expect(
      screen.getByText((_, element) => element?.tagName === 'SPAN' && element.textContent === 'Page 1 of 1'),
    ).toBeInTheDocument();
    const sizes = within(screen.getByLabelText('Rows per page')).getAllByRole('option');
    expect(sizes.map((option) => option.textContent)).toEqual(['50', '100', '200']);
  });

  it('sorts by name, status and last received on the server and changes the page size', async () => {
    const backend = start();
    const { user } = renderApp({ path: '/agents', navigation });
    const grid = await table();
    await user.click(within(grid).getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(listCalls(backend).at(-1)!.params.order).toMatch(/^name\./));
    await user.click(within(grid).getByRole('button', { name: /Status/ }));
    await waitFor(() => expect(listCalls(backend).at(-1)!.params.order).toMatch(/^status\./));
    await user.click(within(grid).getByRole('button', { name: /Last Pushed/ }));
    await waitFor(() => expect(listCalls(backend).at(-1)!.params.order).toMatch(/^last_received\./));
    // The counts are not sortable (spec 2 section 2.6).
    expect(within(grid).queryByRole('button', { name: /Checks/ })).toBeNull();
    await user.selectOptions(screen.getByLabelText('Rows per page'), '200');
    await waitFor(() => expect(listCalls(backend).at(-1)!.params).toMatchObject({ limit: '200', offset: '0' }));
  });

  it('creates an agent: name required, Next, then the installation instructions with the token once', async () => {
    const backend = start();
    const { user, router } = renderApp({ path: '/agents', navigation });
    await table();
    await user.click(screen.getByRole('button', { name: AGENTS_TEXTS.add }));
    expect(router.state.location.search).toContain('addAgent=true');
    const drawer = await screen.findByRole('dialog', { name: texts.createTitle });
    await user.click(within(drawer).getByRole('button', { name: texts.next }));
    expect(await within(drawer).findByText('This field is required')).toBeInTheDocument();

    await user.type(within(drawer).getByLabelText(texts.name), 'edge-1');
    await user.click(within(drawer).getByRole('button', { name: 'Add properties' }));
    await user.type(within(drawer).getByLabelText('Properties Name 1'), 'team');
    await user.type(within(drawer).getByLabelText('Properties Value 1'), 'platform');
    await user.click(within(drawer).getByRole('switch', { name: texts.kubernetes }));
    // The scrape intervals of spec 2 section 9, 30m by default.
    const interval = within(drawer).getByLabelText(texts.scrapeInterval);
    expect(
      within(interval)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1m', '5m', '10m', '30m', '1h', '2h', '6h', '12h', '24h']);
    expect(interval).toHaveValue('30m');
    await user.selectOptions(interval, '5m');
    await user.click(within(drawer).getByRole('switch', { name: texts.telemetry }));
    await user.type(within(drawer).getByLabelText(texts.telemetryLabel), 'edge');
    await user.click(within(drawer).getByRole('button', { name: texts.next }));

    const modal = await screen.findByRole('dialog', { name: AGENTS_TEXTS.install.title });
    expect(backend.calls.find((call) => call.method === 'POST')!.body).toEqual({
      name: 'edge-1',
      properties: { team: 'platform' },
      kubernetes: { enabled: true, interval: '5m' },
      pushTelemetry: { enabled: true, topologyName: 'edge' },
    });
    expect(await screen.findByText(AGENTS_TEXTS.toasts.created)).toBeInTheDocument();
    expect(within(modal).getByText(AGENT_TOKEN_SHOWN_ONCE_WARNING)).toBeInTheDocument();
    expect(within(modal).getByText(AGENTS_TEXTS.install.nextSteps)).toBeInTheDocument();
    expect(within(modal).getByLabelText(AGENTS_TEXTS.install.fluxSnippet).textContent).toContain('kind: HelmRelease');
    expect(within(modal).getByLabelText(AGENTS_TEXTS.install.fluxSnippet).textContent).toContain('tok_secret_123');
    await user.click(within(modal).getByRole('tab', { name: 'Helm CLI' }));
    const helm = within(modal).getByLabelText(AGENTS_TEXTS.install.helmSnippet).textContent!;
    expect(helm).toContain('helm upgrade --install');
    expect(helm).toContain('tok_secret_123');
    expect(helm).toContain('edge-1');
    await user.click(within(modal).getByRole('button', { name: AGENTS_TEXTS.install.done }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(await table()).findByText('edge-1')).toBeInTheDocument();
  });

  it("says 'Saving ...' while the create runs, then shows the server message when it fails", async () => {
    start();
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.post('*/api/agent/generate', async () => {
        await answered;
        return HttpResponse.json({ message: "An agent named 'eu-west' already exists" }, { status: 409 });
      }),
    );
    const { user } = renderApp({ path: '/agents?addAgent=true', navigation });
    const drawer = await screen.findByRole('dialog', { name: texts.createTitle });
    await user.type(within(drawer).getByLabelText(texts.name), 'eu-west');
    await user.click(within(drawer).getByRole('button', { name: texts.next }));
    expect(await within(drawer).findByRole('button', { name: texts.saving })).toBeDisabled();
    answer();
    expect(await screen.findByText("An agent named 'eu-west' already exists")).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: AGENTS_TEXTS.install.title })).toBeNull();
  });

  it('edits an agent from ?id=: the name read-only, Save writes its properties back', async () => {
    const backend = start();
    const { user, router } = renderApp({ path: '/settings/agents', navigation });
    await user.click(await within(await table()).findByText('eu-west'));
    expect(router.state.location.search).toContain(`id=${eu.id}`);
    const drawer = await screen.findByRole('dialog', { name: texts.editTitle });
    const name = await within(drawer).findByLabelText(texts.name);
    expect(name).toHaveValue('eu-west');
    expect(name).toHaveAttribute('readonly');
    expect(within(drawer).getByLabelText('Properties Value 1')).toHaveValue('eu');
    expect(within(drawer).getByRole('switch', { name: texts.kubernetes })).toBeChecked();
    expect(within(drawer).getByLabelText(texts.scrapeInterval)).toHaveValue('1h');
    await user.clear(within(drawer).getByLabelText('Properties Value 1'));
    await user.type(within(drawer).getByLabelText('Properties Value 1'), 'europe');
    await user.click(within(drawer).getByRole('button', { name: texts.save }));
    expect(await screen.findByText(AGENTS_TEXTS.toasts.updated)).toBeInTheDocument();
    const patch = backend.calls.find((call) => call.method === 'PATCH')!;
    expect(patch.params).toEqual({ id: `eq.${eu.id}` });
    expect(patch.body).toEqual({
      properties: {
        region: 'europe',
        kubernetes: { enabled: true, interval: '1h' },
        pushTelemetry: { enabled: false, topologyName: '' },
      },
    });
  });

  it.each([
    ['Yes', true],
    ['No', false],
  ] as const)(
    'deletes: asks about the resources (%s), then confirms, then PATCHes deleted_at and cleanup',
    async (answer, cleanup) => {
      const backend = start();
      const { user } = renderApp({ path: `/settings/agents?id=${us.id}`, navigation });
      const drawer = await screen.findByRole('dialog', { name: texts.editTitle });
      await user.click(await within(drawer).findByRole('button', { name: texts.delete }));
      const question = await screen.findByRole('dialog', { name: AGENTS_TEXTS.delete.cleanupTitle });
      await user.click(within(question).getByRole('button', { name: answer }));
      const confirm = await screen.findByRole('alertdialog', { name: AGENTS_TEXTS.delete.confirmTitle });
      await user.click(within(confirm).getByRole('button', { name: AGENTS_TEXTS.delete.confirm }));
      expect(await screen.findByText(AGENTS_TEXTS.toasts.deleted)).toBeInTheDocument();
      const patch = backend.calls.find((call) => call.method === 'PATCH')!;
      expect(patch.params).toEqual({ id: `eq.${us.id}` });
      expect(patch.body).toMatchObject({ cleanup });
      expect(Number.isNaN(Date.parse((patch.body as { deleted_at: string }).deleted_at))).toBe(false);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    },
  );

  it('gives a viewer the list and the drawer read-only, without the plus button or the save area', async () => {
    const backend = start(['viewer']);
    const { user } = renderApp({ path: '/agents', navigation });
    await within(await table()).findByText('eu-west');
    expect(screen.queryByRole('button', { name: AGENTS_TEXTS.add })).toBeNull();
    await user.click(screen.getByText('eu-west'));
    const drawer = await screen.findByRole('dialog', { name: texts.editTitle });
    await within(drawer).findByLabelText(texts.name);
    expect(within(drawer).queryByRole('button', { name: texts.save })).toBeNull();
    expect(within(drawer).queryByRole('button', { name: texts.delete })).toBeNull();
    expect(backend.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('is in the Settings menu, and gone with its address when the agents feature is disabled', async () => {
    start();
    const first = renderApp({ path: '/agents', navigation });
    await table();
    const mainNav = () => screen.getByRole('navigation', { name: 'Main' });
    await first.user.click(within(mainNav()).getByRole('button', { name: 'Settings' }));
    const settings = () => within(mainNav()).getByRole('list', { name: 'Settings' });
    expect(within(settings()).getByRole('link', { name: AGENTS_TEXTS.title })).toHaveAttribute(
      'href',
      '/settings/agents',
    );
    first.unmount();

    server.use(...consoleStartupHandlers({ properties: [propertyFixture({ name: 'agents.disable', value: 'true' })] }));
    const { user } = renderApp({ path: '/agents', navigation });
    expect(await screen.findByRole('heading', { name: 'Page not found' }, { timeout: 15_000 })).toBeInTheDocument();
    await user.click(within(mainNav()).getByRole('button', { name: 'Settings' }));
    expect(within(settings()).queryByRole('link', { name: AGENTS_TEXTS.title })).toBeNull();
  });

  it("says 'No data available' without agents", async () => {
    start(['admin'], []);
    renderApp({ path: '/agents', navigation });
    expect(await within(await table()).findByText('No data available')).toBeInTheDocument();
  });
});
