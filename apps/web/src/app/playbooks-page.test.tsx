import { PLAYBOOK_PARAMETER_MESSAGES, PLAYBOOK_TEXTS, PLAYBOOK_UI_TEXTS, VIEW_MESSAGES } from '@lookout/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
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

const open = () => {
  const backend = playbooksBackend();
  server.use(...backend.handlers);
  const view = renderApp({ path: '/playbooks', navigation });
  return { backend, ...view };
};

describe('/playbooks (spec 2 section 2.5)', () => {
  it("shows the cards by category with 'Other' last, and the sidebar item", async () => {
    open();
    const kubernetes = await screen.findByRole('region', { name: 'Kubernetes' }, { timeout: 15_000 });
    expect(within(kubernetes).getByText('Restart pod')).toBeInTheDocument();
    const other = screen.getByRole('region', { name: 'Other' });
    expect(within(other).getByText('Echo')).toBeInTheDocument();
    const regions = screen.getAllByRole('region').map((region) => region.getAttribute('aria-label'));
    expect(regions.indexOf('Kubernetes')).toBeLessThan(regions.indexOf('Other'));
    expect(screen.getByRole('link', { name: PLAYBOOK_UI_TEXTS.menu })).toHaveAttribute('href', '/playbooks');
  });

  it('creates a playbook from a title and a spec, and refuses an empty title', async () => {
    const { backend, user } = open();
    await user.click(await screen.findByRole('button', { name: PLAYBOOK_UI_TEXTS.create }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: PLAYBOOK_UI_TEXTS.form.createTitle });
    await user.click(within(dialog).getByRole('button', { name: PLAYBOOK_UI_TEXTS.form.save }));
    expect(await within(dialog).findByText(PLAYBOOK_PARAMETER_MESSAGES.required)).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: PLAYBOOK_UI_TEXTS.form.title }), 'Echo it');
    await user.click(within(dialog).getByRole('button', { name: PLAYBOOK_UI_TEXTS.form.save }));
    expect(await screen.findByText(PLAYBOOK_TEXTS.toasts.created)).toBeInTheDocument();
    const create = backend.calls.find((call) => call.name === 'create');
    expect(create?.body).toMatchObject({ title: 'Echo it', name: 'Echo it', source: 'UI', category: 'Other' });
    expect(create?.body).toHaveProperty('spec.actions.0.exec.script');
  });

  it('edits a playbook from its stored spec and deletes one after asking', async () => {
    const { backend, user } = open();
    const card = await screen.findByRole('listitem', { name: 'Echo' }, { timeout: 15_000 });
    await user.click(within(card).getByRole('button', { name: `${PLAYBOOK_UI_TEXTS.edit} Echo` }));
    const dialog = await screen.findByRole('dialog', { name: PLAYBOOK_UI_TEXTS.form.editTitle });
    const title = await within(dialog).findByRole('textbox', { name: PLAYBOOK_UI_TEXTS.form.title });
    expect(title).toHaveValue('Echo');
    await user.clear(title);
    await user.type(title, 'Echo twice');
    await user.click(within(dialog).getByRole('button', { name: PLAYBOOK_UI_TEXTS.form.update }));
    expect(await screen.findByText(PLAYBOOK_TEXTS.toasts.updated)).toBeInTheDocument();
    const update = backend.calls.find((call) => call.name === 'update');
    expect(update?.url.searchParams.get('id')).toBe(`eq.${PLAYBOOK_IDS.echo}`);
    expect(update?.body).toMatchObject({ id: PLAYBOOK_IDS.echo, title: 'Echo twice' });
    expect(update?.body).toHaveProperty('spec.actions.0.name', 'say');

    await user.click(within(card).getByRole('button', { name: `${PLAYBOOK_UI_TEXTS.delete} Echo` }));
    const confirm = await screen.findByRole('alertdialog', { name: PLAYBOOK_UI_TEXTS.deleteConfirm.title });
    await user.click(within(confirm).getByRole('button', { name: PLAYBOOK_UI_TEXTS.deleteConfirm.confirm }));
    expect(await screen.findByText(PLAYBOOK_UI_TEXTS.deleted('Echo'))).toBeInTheDocument();
    const deletion = backend.calls.filter((call) => call.name === 'update').at(-1);
    expect(deletion?.body).toEqual({ deleted_at: 'now()' });
  });

  it("toasts 'Unable to delete playbook spec: ...' with the server's reason", async () => {
    const { user } = open();
    server.use(http.patch('*/api/db/playbooks', () => HttpResponse.json({ message: 'in use' }, { status: 409 })));
    const card = await screen.findByRole('listitem', { name: 'Echo' }, { timeout: 15_000 });
    await user.click(within(card).getByRole('button', { name: `${PLAYBOOK_UI_TEXTS.delete} Echo` }));
    const confirm = await screen.findByRole('alertdialog', { name: PLAYBOOK_UI_TEXTS.deleteConfirm.title });
    await user.click(within(confirm).getByRole('button', { name: PLAYBOOK_UI_TEXTS.deleteConfirm.confirm }));
    expect(await screen.findByText(PLAYBOOK_TEXTS.toasts.deleteFailed('in use'))).toBeInTheDocument();
  });

  it('runs a playbook on a chosen check with validated parameters, then opens the run', async () => {
    const { backend, user, router } = open();
    const card = await screen.findByRole('listitem', { name: 'Echo' }, { timeout: 15_000 });
    await user.click(within(card).getByRole('button', { name: PLAYBOOK_TEXTS.run }));
    const dialog = await screen.findByRole('dialog', { name: 'Echo' });
    expect(within(dialog).getByText(PLAYBOOK_TEXTS.selectResource)).toBeInTheDocument();
    const run = within(dialog).getByRole('button', { name: PLAYBOOK_TEXTS.run });
    expect(run).toBeDisabled();

    // The spec selects checks only, so the check search opens directly.
    const choice = within(dialog).getByRole('combobox', { name: PLAYBOOK_TEXTS.resourceKinds.check });
    await within(choice).findByRole('option', { name: 'api-health (http)' });
    // The picker asks the resource search with the spec's check selectors.
    expect(backend.calls.find((call) => call.name === 'search')?.body).toEqual({
      checks: [{ name: '*', limit: 50 }],
    });
    await user.type(within(dialog).getByRole('searchbox'), 'api');
    await waitFor(() =>
      expect(backend.calls.filter((call) => call.name === 'search').at(-1)?.body).toEqual({
        checks: [{ name: '*', search: 'api', limit: 50 }],
      }),
    );
    await user.selectOptions(choice, PLAYBOOK_IDS.check);

    const replicas = await within(dialog).findByRole('textbox', { name: 'Replicas *' });
    await user.type(replicas, '9');
    expect(await within(dialog).findByText(PLAYBOOK_PARAMETER_MESSAGES.max(5))).toBeInTheDocument();
    expect(run).toBeDisabled();
    await user.clear(replicas);
    await user.type(replicas, '3');
    await user.type(within(dialog).getByRole('textbox', { name: 'app' }), 'Bad_Name');
    expect(await within(dialog).findByText(PLAYBOOK_PARAMETER_MESSAGES.dns1123)).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: 'app' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'app' }), 'web-1');
    await waitFor(() => expect(run).toBeEnabled());
    await user.click(run);

    await waitFor(() => expect(router.state.location.pathname).toBe(`/playbooks/runs/${PLAYBOOK_IDS.run}`));
    expect(backend.calls.find((call) => call.name === 'run')?.body).toEqual({
      id: PLAYBOOK_IDS.echo,
      check_id: PLAYBOOK_IDS.check,
      params: { replicas: '3', app: 'web-1', force: 'true' },
    });
  });

  it("says 'No parameters for this playbook.' when it has none", async () => {
    const backend = playbooksBackend({ params: [] });
    server.use(...backend.handlers);
    const { user } = renderApp({ path: '/playbooks', navigation });
    const card = await screen.findByRole('listitem', { name: 'Echo' }, { timeout: 15_000 });
    await user.click(within(card).getByRole('button', { name: PLAYBOOK_TEXTS.run }));
    const dialog = await screen.findByRole('dialog', { name: 'Echo' });
    const choice = within(dialog).getByRole('combobox', { name: PLAYBOOK_TEXTS.resourceKinds.check });
    await within(choice).findByRole('option', { name: 'api-health (http)' });
    await user.selectOptions(choice, PLAYBOOK_IDS.check);
    expect(await within(dialog).findByText(PLAYBOOK_TEXTS.noParameters)).toBeInTheDocument();
  });

  it('offers a viewer no create, run, edit or delete', async () => {
    server.use(...consoleStartupHandlers({ userId: TEST_USER.id, roles: ['viewer'] }));
    open();
    await screen.findByRole('listitem', { name: 'Echo' }, { timeout: 15_000 });
    expect(screen.queryByRole('button', { name: PLAYBOOK_UI_TEXTS.create })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: PLAYBOOK_TEXTS.run })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete / })).not.toBeInTheDocument();
  });

  it('gives an editor run and delete but not edit (edit needs write on connections)', async () => {
    server.use(...consoleStartupHandlers({ userId: TEST_USER.id, roles: ['editor'] }));
    open();
    const card = await screen.findByRole('listitem', { name: 'Echo' }, { timeout: 15_000 });
    expect(within(card).getByRole('button', { name: PLAYBOOK_TEXTS.run })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: `${PLAYBOOK_UI_TEXTS.delete} Echo` })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: `${PLAYBOOK_UI_TEXTS.edit} Echo` })).not.toBeInTheDocument();
  });

  it('hides the page and the sidebar item with the playbooks feature disabled', async () => {
    server.use(
      ...consoleStartupHandlers({
        userId: TEST_USER.id,
        properties: [propertyFixture({ name: 'playbooks.disable', value: 'true' })],
      }),
    );
    open();
    expect(
      await screen.findByRole('heading', { name: VIEW_MESSAGES.notFoundTitle }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: PLAYBOOK_UI_TEXTS.menu })).not.toBeInTheDocument();
  });
});
