import type { Property } from '@lookout/contracts';
import { FEATURE_FLAG_MESSAGES, FEATURE_FLAGS_PAGE_TEXTS } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const localFlag = propertyFixture({
  name: 'logs.disable',
  value: 'true',
  type: 'boolean',
  source: 'local',
  description: 'Logs are collected elsewhere',
});
const dbFlag = propertyFixture({ name: 'incidents.disable', value: 'false', type: 'boolean', description: 'Not yet' });

/**
 * A small in-memory `properties` table behind `GET /api/properties` and `/api/db/properties`,
 * recording the writes the page makes.
 */
function propertiesBackend(initial: Property[] = [localFlag, dbFlag]) {
  let properties = [...initial];
  const writes: { method: string; url: URL; body: unknown }[] = [];
  let reads = 0;
  server.use(
    http.get('*/api/properties', () => {
      reads += 1;
      return HttpResponse.json(properties);
    }),
    http.post('*/api/db/properties', async ({ request }) => {
      const body = (await request.json()) as { name: string; value: string; description: string | null };
      writes.push({ method: 'POST', url: new URL(request.url), body });
      const row = propertyFixture({ name: body.name, value: body.value, description: body.description });
      properties = [...properties, row];
      return HttpResponse.json([row], { status: 201 });
    }),
    http.patch('*/api/db/properties', async ({ request }) => {
      const url = new URL(request.url);
      const body = (await request.json()) as { value: string; description: string | null };
      writes.push({ method: 'PATCH', url, body });
      const name = url.searchParams.get('name')?.replace(/^eq\./, '');
      properties = properties.map((property) => (property.name === name ? { ...property, ...body } : property));
      return HttpResponse.json(properties.filter((property) => property.name === name));
    }),
    http.delete('*/api/db/properties', ({ request }) => {
      const url = new URL(request.url);
      writes.push({ method: 'DELETE', url, body: undefined });
      const name = url.searchParams.get('name')?.replace(/^eq\./, '');
      const removed = properties.filter((property) => property.name === name);
      properties = properties.filter((property) => property.name !== name);
      return HttpResponse.json(removed);
    }),
  );
  return { writes, reads: () => reads };
}

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const openFlags = () => renderApp({ path: '/settings/feature-flags', navigation });
const table = () => screen.findByRole('table', { name: FEATURE_FLAGS_PAGE_TEXTS.title });
const row = async (name: string) => {
  const cell = await within(await table()).findByText(name);
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
};

describe('/settings/feature-flags', () => {
  it('lists the flags with value, description, source, author and times', async () => {
    propertiesBackend();
    openFlags();

    const flags = await table();
    expect(
      within(flags)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Value', 'Description', 'Source', 'Created By', 'Created', 'Updated']);
    const local = await row('logs.disable');
    expect(local).toHaveTextContent('Logs are collected elsewhere');
    expect(local).toHaveTextContent('local');
    const db = await row('incidents.disable');
    expect(db).toHaveTextContent('Jane Doe');
    expect(db).toHaveTextContent('db');
    expect(screen.getByRole('button', { name: FEATURE_FLAGS_PAGE_TEXTS.add })).toBeInTheDocument();
    expect(document.title).toBe('Feature Flags | Lookout');
  });

  it("shows a local flag read-only: 'Cannot edit local feature flags' and no save button", async () => {
    propertiesBackend();
    const { user } = openFlags();
    await user.click(await row('logs.disable'));

    const dialog = await screen.findByRole('dialog', { name: 'Feature Flag' });
    expect(within(dialog).getByText(FEATURE_FLAG_MESSAGES.localReadOnly)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Value')).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it("asks for name and value ('please provide all details'), then adds the flag as the signed-in user", async () => {
    const backend = propertiesBackend();
    const { user } = openFlags();
    await user.click(await screen.findByRole('button', { name: FEATURE_FLAGS_PAGE_TEXTS.add }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Feature Flag' });

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findAllByText(FEATURE_FLAG_MESSAGES.required)).toHaveLength(1);
    expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('Value')).toHaveAttribute('aria-invalid', 'true');
    expect(backend.writes).toEqual([]);

    await user.type(within(dialog).getByLabelText('Name'), 'settings.users.disable');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(FEATURE_FLAG_MESSAGES.required)).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Value'), 'true');
    await user.type(within(dialog).getByLabelText('Description'), 'Users are managed elsewhere');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(FEATURE_FLAG_MESSAGES.added)).toBeInTheDocument();
    expect(backend.writes).toEqual([
      {
        method: 'POST',
        url: expect.any(URL),
        body: {
          name: 'settings.users.disable',
          value: 'true',
          description: 'Users are managed elsewhere',
          created_by: TEST_USER.id,
        },
      },
    ]);
    expect(await row('settings.users.disable')).toBeInTheDocument();
  });

  it('updates a database flag by name', async () => {
    const backend = propertiesBackend();
    const { user } = openFlags();
    await user.click(await row('incidents.disable'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Feature Flag' });
    expect(within(dialog).getByLabelText('Name')).toBeDisabled();
    await user.clear(within(dialog).getByLabelText('Value'));
    await user.type(within(dialog).getByLabelText('Value'), 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(FEATURE_FLAG_MESSAGES.updated)).toBeInTheDocument();
    const [write] = backend.writes;
    expect(write?.method).toBe('PATCH');
    expect(write?.url.searchParams.get('name')).toBe('eq.incidents.disable');
    expect(write?.body).toEqual({ value: 'true', description: 'Not yet' });
  });

  it('removes a database flag after confirmation', async () => {
    const backend = propertiesBackend();
    const { user } = openFlags();
    await user.click(await row('incidents.disable'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Feature Flag' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText(FEATURE_FLAG_MESSAGES.removed)).toBeInTheDocument();
    expect(backend.writes.map((write) => [write.method, write.url.searchParams.get('name')])).toEqual([
      ['DELETE', 'eq.incidents.disable'],
    ]);
    await waitFor(() => expect(within(screen.getByRole('table')).queryByText('incidents.disable')).toBeNull());
  });

  it('toasts the server message when a write is refused', async () => {
    propertiesBackend();
    server.use(
      http.patch('*/api/db/properties', () =>
        HttpResponse.json(
          { code: 'P0001', message: "Feature flag 'incidents.disable' is set in the server configuration." },
          { status: 409 },
        ),
      ),
    );
    const { user } = openFlags();
    await user.click(await row('incidents.disable'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Feature Flag' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText("Feature flag 'incidents.disable' is set in the server configuration."),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Feature Flag' })).toBeInTheDocument();
  });

  it('refreshes the flags after a change, so a disabled page leaves the menu at once', async () => {
    propertiesBackend([]);
    const { user } = openFlags();
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const submenu = within(nav).getByRole('list', { name: 'Settings' });
    expect(within(submenu).getByRole('link', { name: 'Users' })).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: FEATURE_FLAGS_PAGE_TEXTS.add }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Feature Flag' });
    await user.type(within(dialog).getByLabelText('Name'), 'settings.users.disable');
    await user.type(within(dialog).getByLabelText('Value'), 'TRUE ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(within(submenu).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument());
    expect(within(submenu).getByRole('link', { name: 'Feature Flags' })).toBeInTheDocument();
  });

  it('lets a viewer read the flags but not add or change them', async () => {
    server.use(...consoleStartupHandlers({ roles: ['viewer'] }));
    propertiesBackend();
    const { user } = openFlags();
    await user.click(await row('incidents.disable'));
    const dialog = await screen.findByRole('dialog', { name: 'Feature Flag' });
    expect(within(dialog).getByLabelText('Value')).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: FEATURE_FLAGS_PAGE_TEXTS.add })).not.toBeInTheDocument();
  });

  it('is gone, menu item and route, while settings.feature_flags.disable is true', async () => {
    propertiesBackend([
      propertyFixture({ name: 'settings.feature_flags.disable', value: 'true', source: 'local', type: 'boolean' }),
    ]);
    const { user } = openFlags();
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Settings' }),
    );
    const submenu = screen.getByRole('list', { name: 'Settings' });
    expect(
      within(submenu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(
      // Every other settings page stays, in the registry's order.
      navigation.settings.filter((item) => item.feature !== 'settings.feature_flags').map((item) => item.label),
    );
  });
});
