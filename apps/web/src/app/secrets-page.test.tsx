import {
  SECRETS_PAGE_TEXTS,
  VIEW_MESSAGES,
  type CreateSecretStoreEntry,
  type SecretStoreEntry,
  type UpdateSecretStoreEntry,
} from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const entry = (overrides: Partial<SecretStoreEntry> & Pick<SecretStoreEntry, 'kind' | 'name'>): SecretStoreEntry => ({
  id: `0190d1b6-8f3a-7000-8000-${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`,
  namespace: 'default',
  keys: [],
  source: 'UI',
  created_by: TEST_USER.id,
  created_at: '2026-01-01T10:00:00Z',
  updated_at: '2026-01-02T10:00:00Z',
  ...overrides,
});

const dbSecret = entry({
  kind: 'secret',
  name: 'db-credentials',
  keys: [
    { key: 'password', set: true },
    { key: 'username', set: true },
  ],
});
const appSettings = entry({
  kind: 'configmap',
  name: 'app-settings',
  keys: [{ key: 'base_url', set: true, value: 'https://pay.example' }],
});

type Write = { method: string; path: string; body: unknown };

/** An in-memory store behind /api/secrets, recording the writes the page makes. */
function secretsBackend(initial: SecretStoreEntry[] = [dbSecret, appSettings]) {
  let entries = [...initial];
  const writes: Write[] = [];
  const find = (params: Record<string, string | readonly string[] | undefined>) =>
    entries.find((one) => one.kind === params.kind && one.namespace === params.namespace && one.name === params.name);
  server.use(
    http.get('*/api/secrets', () => HttpResponse.json({ items: entries })),
    http.post('*/api/secrets', async ({ request }) => {
      const body = (await request.json()) as CreateSecretStoreEntry;
      writes.push({ method: 'POST', path: '/api/secrets', body });
      const created = entry({
        kind: body.kind,
        namespace: body.namespace ?? 'default',
        name: body.name,
        keys: Object.entries(body.data).map(([key, value]) =>
          body.kind === 'secret' ? { key, set: true as const } : { key, set: true as const, value },
        ),
      });
      entries = [...entries, created];
      return HttpResponse.json(created, { status: 201 });
    }),
    http.put('*/api/secrets/:kind/:namespace/:name', async ({ request, params }) => {
      const body = (await request.json()) as UpdateSecretStoreEntry;
      writes.push({ method: 'PUT', path: new URL(request.url).pathname, body });
      const found = find(params);
      if (!found) return HttpResponse.json({ message: 'gone' }, { status: 404 });
      const updated = {
        ...found,
        keys: Object.entries(body.data).map(([key, value]) =>
          found.kind === 'secret' ? { key, set: true as const } : { key, set: true as const, value: value ?? '' },
        ),
      };
      entries = entries.map((one) => (one.id === found.id ? updated : one));
      return HttpResponse.json(updated);
    }),
    http.delete('*/api/secrets/:kind/:namespace/:name', ({ request, params }) => {
      writes.push({ method: 'DELETE', path: new URL(request.url).pathname, body: undefined });
      const found = find(params);
      entries = entries.filter((one) => one !== found);
      return HttpResponse.json({ deleted: found });
    }),
  );
  return { writes };
}

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const openSecrets = () => renderApp({ path: '/settings/secrets', navigation });
// The page is a lazy route: its first load may take a while on a busy machine.
const table = () => screen.findByRole('table', { name: SECRETS_PAGE_TEXTS.title }, { timeout: 15_000 });
const row = async (name: string) => {
  const cell = await within(await table()).findByText(name);
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
};

describe('/settings/secrets', () => {
  it('lists secrets by key name only and config maps, with the menu item after Connections', async () => {
    secretsBackend();
    openSecrets();
    const list = await table();
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Namespace', 'Kind', 'Keys', 'Source', 'Updated']);
    expect(await row('db-credentials')).toHaveTextContent('password, username');
    expect(await row('db-credentials')).toHaveTextContent('Secret');
    expect(await row('app-settings')).toHaveTextContent('Config Map');
    expect(document.title).toBe('Secrets | Lookout');
    const links = screen.getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(links.indexOf('/settings/secrets')).toBe(links.indexOf('/settings/connections') + 1);
  });

  it('is hidden from the menu and unauthorized for an editor', async () => {
    secretsBackend();
    server.use(...consoleStartupHandlers({ roles: ['editor'], userId: TEST_USER.id }));
    const { user } = openSecrets();
    expect(await screen.findByText(VIEW_MESSAGES.unauthorized)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const links = screen.getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(links).toContain('/settings/connections');
    expect(links).not.toContain('/settings/secrets');
  });

  it('checks the form, then adds a secret and toasts it', async () => {
    const backend = secretsBackend();
    const { user } = openSecrets();
    await user.click(await screen.findByRole('button', { name: SECRETS_PAGE_TEXTS.add }));
    const dialog = await screen.findByRole('dialog', { name: SECRETS_PAGE_TEXTS.titleNew });

    await user.type(within(dialog).getByLabelText('Name'), 'Web Login');
    await user.type(within(dialog).getByLabelText('Key 1'), 'bad key');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/must be a lowercase DNS-1123 name/)).toBeInTheDocument();
    expect(within(dialog).getByText(/must be 1 to 253 characters of letters, digits/)).toBeInTheDocument();
    expect(backend.writes).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'web-login');
    await user.clear(within(dialog).getByLabelText('Key 1'));
    await user.type(within(dialog).getByLabelText('Key 1'), 'password');
    await user.type(within(dialog).getByLabelText('Value 1'), 's3cret!');
    await user.click(within(dialog).getByRole('button', { name: SECRETS_PAGE_TEXTS.addKey }));
    await user.type(within(dialog).getByLabelText('Key 2'), 'password');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(SECRETS_PAGE_TEXTS.duplicateKey)).toBeInTheDocument();
    // Remove the second row (the duplicate, without a value).
    await user.click(within(dialog).getAllByRole('button', { name: SECRETS_PAGE_TEXTS.removeKey('password') })[1]!);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('web-login created successfully')).toBeInTheDocument();
    expect(backend.writes).toEqual([
      {
        method: 'POST',
        path: '/api/secrets',
        body: { kind: 'secret', namespace: 'default', name: 'web-login', data: { password: 's3cret!' } },
      },
    ]);
    expect(await row('web-login')).toBeInTheDocument();
  });

  it("edits a secret: stored values show 'set', are kept unless replaced, and removed keys go", async () => {
    const backend = secretsBackend();
    const { user } = openSecrets();
    await user.click(await row('db-credentials'));
    const dialog = await screen.findByRole('dialog', { name: SECRETS_PAGE_TEXTS.titleEdit('db-credentials') });
    expect(within(dialog).getAllByText(SECRETS_PAGE_TEXTS.valueSet)).toHaveLength(2);
    expect(within(dialog).queryByLabelText('Value 1')).not.toBeInTheDocument();
    expect(
      within(dialog).getByText(`${SECRETS_PAGE_TEXTS.referenceHint}: secret://db-credentials/password`),
    ).toBeVisible();
    expect(within(dialog).getByLabelText('Name')).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: `${SECRETS_PAGE_TEXTS.replace} password` }));
    await user.type(within(dialog).getByLabelText('Value 1'), 'new-pass');
    await user.click(within(dialog).getByRole('button', { name: SECRETS_PAGE_TEXTS.removeKey('username') }));
    await user.click(within(dialog).getByRole('button', { name: SECRETS_PAGE_TEXTS.addKey }));
    await user.type(within(dialog).getByLabelText('Key 2'), 'token');
    await user.type(within(dialog).getByLabelText('Value 2'), 'tok');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('db-credentials updated successfully')).toBeInTheDocument();
    expect(backend.writes).toEqual([
      {
        method: 'PUT',
        path: '/api/secrets/secret/default/db-credentials',
        body: { data: { password: 'new-pass', token: 'tok' } },
      },
    ]);
  });

  it('keeps a stored value when Replace is undone, sending null for it', async () => {
    const backend = secretsBackend();
    const { user } = openSecrets();
    await user.click(await row('db-credentials'));
    const dialog = await screen.findByRole('dialog', { name: SECRETS_PAGE_TEXTS.titleEdit('db-credentials') });
    await user.click(within(dialog).getByRole('button', { name: `${SECRETS_PAGE_TEXTS.replace} username` }));
    await user.click(within(dialog).getByRole('button', { name: `${SECRETS_PAGE_TEXTS.keepValue} username` }));
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await screen.findByText('db-credentials updated successfully');
    expect(backend.writes[0]?.body).toEqual({ data: { password: null, username: null } });
  });

  it("shows and edits a config map's values", async () => {
    const backend = secretsBackend();
    const { user } = openSecrets();
    await user.click(await row('app-settings'));
    const dialog = await screen.findByRole('dialog', { name: SECRETS_PAGE_TEXTS.titleEdit('app-settings') });
    const value = within(dialog).getByLabelText('Value 1');
    expect(value).toHaveValue('https://pay.example');
    await user.clear(value);
    await user.type(value, 'https://pay2.example');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await screen.findByText('app-settings updated successfully');
    expect(backend.writes[0]).toMatchObject({
      path: '/api/secrets/configmap/default/app-settings',
      body: { data: { base_url: 'https://pay2.example' } },
    });
  });

  it('deletes after a confirmation and toasts it', async () => {
    const backend = secretsBackend();
    const { user } = openSecrets();
    await user.click(await row('db-credentials'));
    const dialog = await screen.findByRole('dialog', { name: SECRETS_PAGE_TEXTS.titleEdit('db-credentials') });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', {
      name: SECRETS_PAGE_TEXTS.deleteConfirm('secret', 'db-credentials'),
    });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('db-credentials deleted successfully')).toBeInTheDocument();
    expect(backend.writes).toEqual([
      { method: 'DELETE', path: '/api/secrets/secret/default/db-credentials', body: undefined },
    ]);
    await waitFor(() => expect(within(screen.getByRole('table')).queryByText('db-credentials')).toBeNull());
  });

  it('toasts the server message when a write is refused and keeps the dialog open', async () => {
    secretsBackend();
    server.use(
      http.post('*/api/secrets', () =>
        HttpResponse.json(
          {
            message: "A secret named 'db-credentials' already exists in namespace 'default'.",
            error: {
              code: 'conflict',
              message: "A secret named 'db-credentials' already exists in namespace 'default'.",
            },
          },
          { status: 409 },
        ),
      ),
    );
    const { user } = openSecrets();
    await user.click(await screen.findByRole('button', { name: SECRETS_PAGE_TEXTS.add }));
    const dialog = await screen.findByRole('dialog', { name: SECRETS_PAGE_TEXTS.titleNew });
    await user.type(within(dialog).getByLabelText('Name'), 'db-credentials');
    await user.type(within(dialog).getByLabelText('Key 1'), 'a');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText("A secret named 'db-credentials' already exists in namespace 'default'."),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: SECRETS_PAGE_TEXTS.titleNew })).toBeInTheDocument();
  });
});
