import { EditorView } from '@codemirror/view';
import {
  GITOPS_FLUX_WARNING,
  INTEGRATIONS_TEXTS,
  JOB_HISTORY_TEXTS,
  LOGS_TEXTS,
  TOPOLOGY_SETTINGS_TEXTS,
  type IntegrationRow,
} from '@lookout/contracts';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => {
  configure({ asyncUtilTimeout: 8_000 });
  server.listen({ onUnhandledRequest: 'error' });
  // CodeMirror measures text with Range rectangles, which jsdom does not lay out.
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] } as unknown as DOMRectList;
  Range.prototype.getClientRects ??= () => empty;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const base = {
  source: 'UI',
  agent_id: '00000000-0000-0000-0000-000000000000',
  agent: { id: '00000000-0000-0000-0000-000000000000', name: 'local' },
  job_details: null,
  job_name: null,
  job_time_start: null,
  job_last_failed: null,
  created_by: null,
  creator: null,
  updated_at: null,
  deleted_at: null,
} satisfies Partial<IntegrationRow>;

const TOPOLOGY: IntegrationRow = {
  ...base,
  id: '0190a000-0000-7000-8000-0000000000c1',
  name: 'cluster',
  namespace: 'ops',
  integration_type: 'topologies',
  agent_id: '0190a000-0000-7000-8000-0000000000a1',
  agent: { id: '0190a000-0000-7000-8000-0000000000a1', name: 'eu-west' },
  job_status: 'FAILED',
  job_name: 'TopologyRun',
  job_details: { errors: ['lookup failed: timeout'] },
  job_time_start: '2026-03-01T10:05:00Z',
  created_at: '2026-03-01T10:00:00Z',
  created_by: '0190a000-0000-7000-8000-0000000000f1',
  creator: { id: '0190a000-0000-7000-8000-0000000000f1', name: 'Ada Admin', avatar: null, email: 'ada@example.com' },
};
const SCRAPER: IntegrationRow = {
  ...base,
  id: '0190a000-0000-7000-8000-0000000000c2',
  name: 'aws-prod',
  namespace: 'mission-control',
  source: 'ConfigFile',
  integration_type: 'scrapers',
  job_status: 'SUCCESS',
  created_at: '2026-02-01T10:00:00Z',
};
const BACKEND: IntegrationRow = {
  ...base,
  id: '0190a000-0000-7000-8000-0000000000c3',
  name: 'loki',
  namespace: null,
  integration_type: 'logging_backends',
  job_status: null,
  created_at: '2026-01-01T10:00:00Z',
};

function backend({ roles = ['admin'] as ('admin' | 'viewer' | 'editor')[], logsDisabled = false } = {}) {
  const listCalls: { params: URLSearchParams; prefer: string | null }[] = [];
  const writes: { url: string; body: unknown }[] = [];
  server.use(
    ...consoleStartupHandlers({
      roles,
      properties: logsDisabled ? [propertyFixture({ name: 'logs.disable', value: 'true' })] : [],
    }),
    http.get('*/api/db/integrations_with_status', ({ request }) => {
      const params = new URL(request.url).searchParams;
      listCalls.push({ params, prefer: request.headers.get('prefer') });
      return HttpResponse.json([TOPOLOGY, SCRAPER, BACKEND], { headers: { 'content-range': '0-2/3' } });
    }),
    http.get('*/api/db/topologies', ({ request }) => {
      const id = new URL(request.url).searchParams.get('id');
      const row = {
        id: TOPOLOGY.id,
        name: 'cluster',
        namespace: 'ops',
        labels: null,
        spec: { components: [] },
        source: 'UI',
        deleted_at: null,
      };
      return HttpResponse.json(id === `eq.${TOPOLOGY.id}` ? [row] : []);
    }),
    http.post('*/api/db/topologies', async ({ request }) => {
      writes.push({ url: request.url, body: await request.json() });
      return HttpResponse.json([{ id: '0190a000-0000-7000-8000-0000000000c9' }], { status: 201 });
    }),
    http.get('*/api/db/logging_backends', ({ request }) => {
      const id = new URL(request.url).searchParams.get('id');
      const row = {
        id: BACKEND.id,
        name: 'loki',
        labels: null,
        spec: { loki: { url: 'http://loki:3100' } },
        source: 'UI',
        created_at: BACKEND.created_at,
        updated_at: null,
        deleted_at: null,
        created_by: null,
      };
      return HttpResponse.json(id === `eq.${BACKEND.id}` ? [row] : []);
    }),
    http.patch('*/api/db/logging_backends', async ({ request }) => {
      writes.push({ url: request.url, body: await request.json() });
      return HttpResponse.json([{ id: BACKEND.id }]);
    }),
    http.get('*/api/db/job_histories', () => HttpResponse.json([], { headers: { 'content-range': '*/0' } })),
    http.get('*/api/db/job_history_names', () => HttpResponse.json([])),
  );
  return { listCalls, writes };
}

const replaceYaml = async (label: string, text: string) => {
  const view = EditorView.findFromDOM(
    (await screen.findByRole('textbox', { name: label })).closest('[data-testid="yaml-editor"]') as HTMLElement,
  );
  if (!view) throw new Error(`no editor named ${label}`);
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
};

describe('/settings/integrations', () => {
  it('lists the integrations newest first, paged and counted, with the spec columns', async () => {
    const { listCalls } = backend();
    renderApp({ path: '/settings/integrations', navigation });
    const table = await screen.findByRole('table', { name: INTEGRATIONS_TEXTS.title });
    expect(await within(table).findByText('cluster')).toBeInTheDocument();
    for (const header of Object.values(INTEGRATIONS_TEXTS.columns)) {
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(within(table).getByText('aws-prod')).toBeInTheDocument();
    expect(within(table).getByText('loki')).toBeInTheDocument();
    expect(within(table).getByText('ConfigFile')).toBeInTheDocument();
    // The type icon and the agent's badge beside the name; the local agent has none.
    expect(within(table).getByRole('img', { name: INTEGRATIONS_TEXTS.typeLabels.topologies })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: /eu-west/ })).toHaveAttribute(
      'href',
      `/settings/agents?id=${TOPOLOGY.agent_id}`,
    );
    expect(within(table).queryByText('local')).toBeNull();
    expect(within(table).getByText('Ada Admin')).toBeInTheDocument();
    const call = listCalls[0]!;
    expect(Object.fromEntries(call.params)).toEqual({
      order: 'created_at.desc',
      select: '*',
      deleted_at: 'is.null',
      limit: '50',
      offset: '0',
    });
    expect(call.prefer).toBe('count=exact');
  });

  it('opens the last run in the job details modal from View details, without opening the row', async () => {
    backend();
    const { user, router } = renderApp({ path: '/settings/integrations', navigation });
    await screen.findByText('cluster');
    // Only the run with details has the link.
    expect(screen.getAllByRole('button', { name: INTEGRATIONS_TEXTS.viewDetails })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: INTEGRATIONS_TEXTS.viewDetails }));
    const dialog = await screen.findByRole('dialog', { name: JOB_HISTORY_TEXTS.details.title('TopologyRun') });
    expect(within(dialog).getByText('lookup failed: timeout')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/integrations');
  });

  it('opens a row at /settings/integrations/{type}/{id}: the Spec and its Job History', async () => {
    backend();
    const { user, router } = renderApp({ path: '/settings/integrations', navigation });
    await user.click(await screen.findByText('cluster'));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/settings/integrations/topologies/${TOPOLOGY.id}`),
    );
    expect(await screen.findByRole('tab', { name: TOPOLOGY_SETTINGS_TEXTS.spec })).toBeInTheDocument();
    // The back link (beside the sidebar's item) leads to the integrations, not the topologies.
    const back = screen.getAllByRole('link', { name: INTEGRATIONS_TEXTS.title });
    expect(back.length).toBeGreaterThanOrEqual(2);
    expect(back.every((link) => link.getAttribute('href') === '/settings/integrations')).toBe(true);
    await user.click(screen.getByRole('tab', { name: TOPOLOGY_SETTINGS_TEXTS.jobHistory }));
    expect(await screen.findByRole('table', { name: JOB_HISTORY_TEXTS.table })).toBeInTheDocument();
  });

  it("shows 'Unknown type' for any other type", async () => {
    backend();
    renderApp({ path: '/settings/integrations/pipelines/0190a000-0000-7000-8000-0000000000c1', navigation });
    expect(await screen.findByText(INTEGRATIONS_TEXTS.unknownType)).toBeInTheDocument();
  });

  it('checks a GitOps form live against the chart schema and shows the Flux manifest and Helm command', async () => {
    backend();
    const { user } = renderApp({ path: '/settings/integrations', navigation });
    await user.click(await screen.findByRole('button', { name: INTEGRATIONS_TEXTS.add }));
    const modal = await screen.findByRole('dialog', { name: INTEGRATIONS_TEXTS.modal.title });
    expect(within(modal).getByText(INTEGRATIONS_TEXTS.modal.gitops)).toBeInTheDocument();
    for (const title of ['AWS', 'Azure', 'Prometheus', 'Flux', 'Kubernetes', 'Mission Control']) {
      expect(within(modal).getByRole('button', { name: title })).toBeInTheDocument();
    }
    await user.click(within(modal).getByRole('button', { name: 'Kubernetes' }));
    // The chart's example leaves the cluster name to fill in: the field is named, no snippets yet.
    expect(await screen.findByText('clusterName: is required')).toBeInTheDocument();
    expect(screen.getByText(INTEGRATIONS_TEXTS.modal.snippetsWhenValid)).toBeInTheDocument();
    expect(screen.getByText(GITOPS_FLUX_WARNING)).toBeInTheDocument();
    expect(screen.getByLabelText(INTEGRATIONS_TEXTS.modal.namespace)).toHaveValue('mission-control');

    await replaceYaml(INTEGRATIONS_TEXTS.modal.values, 'clusterName: prod\nbogus: 1\n');
    expect(await screen.findByText('bogus: unknown field')).toBeInTheDocument();
    await replaceYaml(INTEGRATIONS_TEXTS.modal.values, 'clusterName: prod\n');
    const flux = await screen.findByLabelText(INTEGRATIONS_TEXTS.modal.flux, { selector: 'pre' });
    expect(flux).toHaveTextContent('kind: HelmRelease');
    expect(flux).toHaveTextContent('namespace: mission-control');
    expect(flux).toHaveTextContent('interval: 30m');
    expect(flux).toHaveTextContent('clusterName: prod');

    const namespace = screen.getByLabelText(INTEGRATIONS_TEXTS.modal.namespace);
    await user.clear(namespace);
    await user.type(namespace, 'Not_Valid');
    expect(
      await screen.findByText(
        'Namespace must be lowercase letters, digits and dashes, starting and ending with a letter or digit',
      ),
    ).toBeInTheDocument();
    await user.clear(namespace);
    await user.type(namespace, 'platform');
    await user.click(await screen.findByRole('tab', { name: INTEGRATIONS_TEXTS.modal.helm }));
    const helm = await screen.findByLabelText(INTEGRATIONS_TEXTS.modal.helm, { selector: 'pre' });
    expect(helm).toHaveTextContent('helm upgrade --install');
    expect(helm).toHaveTextContent('-n platform --create-namespace');
    expect(helm).toHaveTextContent('clusterName=prod');

    await user.click(screen.getByRole('button', { name: INTEGRATIONS_TEXTS.modal.back }));
    expect(await screen.findByText(INTEGRATIONS_TEXTS.modal.directly)).toBeInTheDocument();
    const closeButtons = screen.getAllByRole('button', { name: INTEGRATIONS_TEXTS.modal.close });
    await user.click(closeButtons[closeButtons.length - 1]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('adds a Custom Topology directly: a real topologies row, then back to the integrations', async () => {
    const { writes } = backend();
    const { user, router } = renderApp({ path: '/settings/integrations', navigation });
    await user.click(await screen.findByRole('button', { name: INTEGRATIONS_TEXTS.add }));
    const modal = await screen.findByRole('dialog', { name: INTEGRATIONS_TEXTS.modal.title });
    expect(within(modal).getByRole('link', { name: 'Log Backends' })).toBeInTheDocument();
    await user.click(within(modal).getByRole('link', { name: 'Custom Topology' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/integrations/topologies/new'));
    await replaceYaml(
      TOPOLOGY_SETTINGS_TEXTS.spec,
      'apiVersion: canaries.flanksource.com/v1\nkind: Topology\nmetadata:\n  name: shop\nspec:\n  components: []\n',
    );
    await user.click(screen.getByRole('button', { name: TOPOLOGY_SETTINGS_TEXTS.save }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/integrations'));
    expect(writes[0]?.body).toMatchObject({ name: 'shop' });
  });

  it('opens a log backend with Spec and Job History tabs, its form returning to the integrations', async () => {
    const { writes } = backend();
    const { user, router } = renderApp({ path: `/settings/integrations/logging_backends/${BACKEND.id}`, navigation });
    expect(await screen.findByRole('tab', { name: INTEGRATIONS_TEXTS.spec })).toBeInTheDocument();
    expect(await screen.findByDisplayValue('loki')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: INTEGRATIONS_TEXTS.jobHistory })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: LOGS_TEXTS.updateBackend }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/integrations'));
    expect(writes[0]?.url).toContain(`id=eq.${BACKEND.id}`);
    expect(writes[0]?.body).toMatchObject({ name: 'loki', spec: { loki: { url: 'http://loki:3100' } } });
  });

  it('opens the catalog scraper create form from Add Directly, under the integrations', async () => {
    backend();
    const { user, router } = renderApp({ path: '/settings/integrations', navigation });
    await user.click(await screen.findByRole('button', { name: INTEGRATIONS_TEXTS.add }));
    const modal = await screen.findByRole('dialog', { name: INTEGRATIONS_TEXTS.modal.title });
    await user.click(within(modal).getByRole('link', { name: 'Catalog Scraper' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/integrations/scrapers/new'));
    expect(await screen.findByRole('textbox', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: INTEGRATIONS_TEXTS.title }).length).toBeGreaterThanOrEqual(2);
  });

  it('hides Log Backends under Add Directly while the logs feature is disabled', async () => {
    backend({ logsDisabled: true });
    const { user } = renderApp({ path: '/settings/integrations', navigation });
    await user.click(await screen.findByRole('button', { name: INTEGRATIONS_TEXTS.add }));
    const modal = await screen.findByRole('dialog', { name: INTEGRATIONS_TEXTS.modal.title });
    expect(within(modal).getByRole('link', { name: 'Catalog Scraper' })).toBeInTheDocument();
    expect(within(modal).queryByRole('link', { name: 'Log Backends' })).toBeNull();
  });

  it('offers no Add Integration to a reader without write on integrations', async () => {
    backend({ roles: ['viewer'] });
    renderApp({ path: '/settings/integrations', navigation });
    expect(await screen.findByText('cluster')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: INTEGRATIONS_TEXTS.add })).toBeNull();
  });
});
