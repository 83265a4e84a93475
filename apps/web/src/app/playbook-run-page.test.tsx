import { PLAYBOOK_TEXTS, PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { PLAYBOOK_IDS, playbooksBackend } from '@/test/playbooks-backend';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 30_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// Unmounted first: a run page still polling must not reach the reset handlers.
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

const texts = PLAYBOOK_UI_TEXTS.runDetail;

const open = (options: Parameters<typeof playbooksBackend>[0] = {}) => {
  const backend = playbooksBackend(options);
  server.use(...backend.handlers);
  const view = renderApp({ path: `/playbooks/runs/${PLAYBOOK_IDS.run}`, navigation });
  return { backend, ...view };
};

describe('/playbooks/runs/{id} (spec 2 section 2.5)', () => {
  it('shows the header, the steps and the output with only http(s) links clickable', async () => {
    open();
    const header = await screen.findByRole('region', { name: 'Run' }, { timeout: 15_000 });
    expect(within(header).getByRole('link', { name: 'Echo' })).toBeInTheDocument();
    expect(within(header).getByText('completed')).toBeInTheDocument();
    expect(within(header).getByText('Jane Doe')).toBeInTheDocument();
    expect(within(header).getByRole('link', { name: 'api-health' })).toHaveAttribute(
      'href',
      `/health?checkId=${PLAYBOOK_IDS.check}`,
    );
    const steps = screen.getByRole('list', { name: texts.steps });
    expect(within(steps).getByText('say')).toBeInTheDocument();
    // A sleeping action shows when it wakes.
    expect(within(steps).getByText(/^Sleeping until/)).toBeInTheDocument();
    const output = screen.getByRole('region', { name: texts.output });
    const link = await within(output).findByRole('link', { name: 'https://example.com/x' });
    expect(link).toHaveAttribute('href', 'https://example.com/x');
    expect(within(output).queryByRole('link', { name: /javascript/ })).not.toBeInTheDocument();
    expect(within(output).getByText(/javascript:alert\(1\)/)).toBeInTheDocument();
  });

  it('shows the parameters in a popup', async () => {
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: texts.parameters }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: texts.parameters });
    expect(within(dialog).getByText('replicas')).toBeInTheDocument();
    expect(within(dialog).getByText('2')).toBeInTheDocument();
  });

  it("puts an 'Initialization' step first for a run that failed before its actions", async () => {
    open({ runStatus: 'failed', runError: 'template: params.x is missing' });
    const steps = await screen.findByRole('list', { name: texts.steps }, { timeout: 15_000 });
    const items = within(steps).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(PLAYBOOK_TEXTS.initialization);
    await screen.findByRole('region', { name: texts.output });
    expect(
      within(screen.getByRole('region', { name: texts.output })).getByText('template: params.x is missing'),
    ).toBeInTheDocument();
  });

  it('re-runs the playbook and opens the new run; downloads the logs', async () => {
    const { backend, user } = open();
    URL.createObjectURL = vi.fn(() => 'blob:logs');
    URL.revokeObjectURL = vi.fn();
    await user.click(await screen.findByRole('button', { name: PLAYBOOK_TEXTS.rerun }, { timeout: 15_000 }));
    await waitFor(() => expect(backend.calls.some((call) => call.name === 'rerun')).toBe(true));
    await user.click(screen.getByRole('button', { name: PLAYBOOK_TEXTS.downloadLogs }));
    expect(await screen.findByText(PLAYBOOK_TEXTS.toasts.downloaded)).toBeInTheDocument();
    expect(backend.calls.find((call) => call.name === 'logs')?.url.pathname).toBe(
      `/api/playbook/run/${PLAYBOOK_IDS.run}/logs`,
    );
  });

  it("says 'Failed to download logs' when the logs cannot be read", async () => {
    const { user } = open();
    server.use(http.get('*/api/playbook/run/:id/logs', () => HttpResponse.json({ error: 'gone' }, { status: 500 })));
    await user.click(await screen.findByRole('button', { name: PLAYBOOK_TEXTS.downloadLogs }, { timeout: 15_000 }));
    expect(await screen.findByText(PLAYBOOK_TEXTS.toasts.downloadFailed)).toBeInTheDocument();
  });

  it('offers a viewer no re-run, approve or cancel', async () => {
    server.use(...consoleStartupHandlers({ userId: TEST_USER.id, roles: ['viewer'] }));
    open({ runStatus: 'pending_approval' });
    await screen.findByRole('region', { name: 'Run' }, { timeout: 15_000 });
    expect(screen.queryByRole('button', { name: PLAYBOOK_TEXTS.rerun })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.approve })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.cancel })).not.toBeInTheDocument();
  });

  it('approves a run waiting for approval', async () => {
    const { backend, user } = open({ runStatus: 'pending_approval' });
    server.use(
      http.post('*/api/playbook/run/approve/:id', ({ request }) => {
        backend.calls.push({ name: 'approve', url: new URL(request.url) });
        return HttpResponse.json({ id: PLAYBOOK_IDS.run, status: 'scheduled' });
      }),
    );
    await user.click(await screen.findByRole('button', { name: texts.approve }, { timeout: 15_000 }));
    expect(await screen.findByText(texts.approved)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: texts.cancel })).toBeInTheDocument();
  });
});
