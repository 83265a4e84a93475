import { PLAYBOOK_TEXTS, PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { checkSummaryFixture, healthHandlers } from '@/test/health-fixtures';
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

const api = checkSummaryFixture({ name: 'api', status: 'unhealthy' });

const openDrawer = () => {
  const backend = playbooksBackend({ params: [] });
  server.use(...healthHandlers({ checks: [api], statuses: [] }).handlers, ...backend.handlers);
  const view = renderApp({ path: `/health?checkId=${api.id}`, navigation });
  return { backend, view, drawer: screen.findByRole('dialog', { name: /api/ }, { timeout: 15_000 }) };
};

describe("the check drawer's Playbooks menu (spec 2 sections 2.3 and 6)", () => {
  it('lists the playbooks for the check and runs one on it', async () => {
    const { backend, view } = openDrawer();
    const drawer = await screen.findByRole('dialog', { name: /api/ }, { timeout: 15_000 });
    await view.user.click(within(drawer).getByRole('button', { name: PLAYBOOK_UI_TEXTS.checkMenu.label }));
    await view.user.click(await screen.findByRole('menuitem', { name: 'Echo' }));
    const modal = await screen.findByRole('dialog', { name: 'Echo' });
    expect(await within(modal).findByText(PLAYBOOK_TEXTS.noParameters)).toBeInTheDocument();
    expect(backend.calls.find((call) => call.name === 'list')?.url.searchParams.get('check_id')).toBe(api.id);
    await view.user.click(within(modal).getByRole('button', { name: PLAYBOOK_TEXTS.run }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe(`/playbooks/runs/${PLAYBOOK_IDS.run}`));
    expect(backend.calls.find((call) => call.name === 'run')?.body).toEqual({
      id: PLAYBOOK_IDS.echo,
      check_id: api.id,
      params: {},
    });
  });

  it('is not offered to a viewer (no write on playbook_runs)', async () => {
    server.use(...consoleStartupHandlers({ userId: TEST_USER.id, roles: ['viewer'] }));
    const { drawer } = openDrawer();
    const dialog = await drawer;
    await within(dialog).findByText('api');
    expect(within(dialog).queryByRole('button', { name: PLAYBOOK_UI_TEXTS.checkMenu.label })).not.toBeInTheDocument();
  });

  it('is not offered with the playbooks feature disabled', async () => {
    server.use(
      ...consoleStartupHandlers({
        userId: TEST_USER.id,
        properties: [propertyFixture({ name: 'playbooks.disable', value: 'true' })],
      }),
    );
    const { drawer } = openDrawer();
    const dialog = await drawer;
    await within(dialog).findByText('api');
    expect(within(dialog).queryByRole('button', { name: PLAYBOOK_UI_TEXTS.checkMenu.label })).not.toBeInTheDocument();
  });
});
