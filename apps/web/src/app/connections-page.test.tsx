import { CONNECTIONS_PAGE_TEXTS, CONNECTION_MESSAGES, SECRET_MASK } from '@lookout/contracts';
import type { ConnectionRow } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const PG_ID = '0193a9e8-0000-7000-8000-000000000001';
const CRD_ID = '0193a9e8-0000-7000-8000-000000000002';

function connectionFixture(
  overrides: Partial<ConnectionRow> & Pick<ConnectionRow, 'id' | 'name' | 'type'>,
): ConnectionRow {
  return {
    namespace: 'default',
    url: null,
    username: null,
    password: null,
    certificate: null,
    insecure_tls: false,
    properties: {},
    source: 'UI',
    created_by: { id: TEST_USER.id, name: 'Jane Doe', email: 'jane@example.com', avatar: null },
    created_at: '2024-10-01T10:00:00Z',
    updated_at: '2024-10-02T10:00:00Z',
    ...overrides,
  };
}

const pg = connectionFixture({
  id: PG_ID,
  name: 'orders-db',
  type: 'postgres',
  url: 'postgres://db.internal:5432/orders',
  username: 'orders',
  password: SECRET_MASK,
});
const fromCrd = connectionFixture({
  id: CRD_ID,
  name: 'cluster-slack',
  type: 'slack',
  namespace: 'monitoring',
  username: 'C0123',
  password: 'secret://slack/token',
  url: 'slack://$(password)@$(username)',
  source: 'KubernetesCRD',
  created_by: null,
});

type Write = { method: string; url: URL; body: Record<string, unknown> };

/** An in-memory `connections` table behind `/api/db/connections`, recording the writes. */
function connectionsBackend(initial: ConnectionRow[] = [pg, fromCrd]) {
  let rows = [...initial];
  const writes: Write[] = [];
  const lists: URL[] = [];
  server.use(
    http.get('*/api/db/connections', ({ request }) => {
      lists.push(new URL(request.url));
      return HttpResponse.json(rows);
    }),
    http.post('*/api/db/connections', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      writes.push({ method: 'POST', url: new URL(request.url), body });
      // The list embeds the author; the write names it by id.
      const { created_by: _author, ...columns } = body;
      const row = connectionFixture({
        ...(columns as Partial<ConnectionRow>),
        id: `new-${rows.length}`,
      } as ConnectionRow);
      rows = [row, ...rows];
      return HttpResponse.json([row], { status: 201 });
    }),
    http.patch('*/api/db/connections', async ({ request }) => {
      const url = new URL(request.url);
      const body = (await request.json()) as Record<string, unknown>;
      writes.push({ method: 'PATCH', url, body });
      const id = url.searchParams.get('id')?.replace(/^eq\./, '');
      const changed = rows.filter((row) => row.id === id).map((row) => ({ ...row, ...body }) as ConnectionRow);
      rows = body.deleted_at
        ? rows.filter((row) => row.id !== id)
        : rows.map((row) => changed.find((c) => c.id === row.id) ?? row);
      return HttpResponse.json(changed);
    }),
  );
  return { writes, lists };
}

const server = setupServer(...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const openPage = () => renderApp({ path: '/settings/connections', navigation });
// The first render of a run loads the console's lazy chunks, which takes a while on a busy machine.
const table = () => screen.findByRole('table', { name: CONNECTIONS_PAGE_TEXTS.title }, { timeout: 15_000 });
const row = async (name: string) => {
  const cell = await within(await table()).findByText(name);
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
};
const addDialog = async () => {
  const { user } = openPage();
  await user.click(await screen.findByRole('button', { name: CONNECTIONS_PAGE_TEXTS.add }));
  const dialog = await screen.findByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.chooseType });
  return { user, dialog };
};

describe('/settings/connections list', () => {
  it('lists name with the type icon, type, namespace, source, author and times', async () => {
    const backend = connectionsBackend();
    openPage();
    const connections = await table();
    expect(
      within(connections)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Type', 'Namespace', 'Source', 'Created By', 'Created', 'Updated']);
    const orders = await row('orders-db');
    expect(orders).toHaveTextContent('Postgres');
    expect(orders).toHaveTextContent('Jane Doe');
    expect(orders.querySelector('svg[data-icon="postgres"]')).not.toBeNull();
    expect(await row('cluster-slack')).toHaveTextContent('KubernetesCRD');
    expect(document.title).toBe('Connections | Lookout');
    expect(Object.fromEntries(backend.lists[0]?.searchParams ?? [])).toEqual({
      select: '*,created_by(id,name,email,avatar)',
      deleted_at: 'is.null',
      order: 'created_at.desc',
      limit: '100',
    });
    const submenu = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('list', { name: 'Settings' });
    expect(within(submenu).getAllByRole('link')[0]).toHaveTextContent('Connections');
  });

  it('says so when there are no connections', async () => {
    connectionsBackend([]);
    openPage();
    expect(await screen.findByText(CONNECTIONS_PAGE_TEXTS.empty)).toBeInTheDocument();
  });

  it('shows an error view with retry when the list fails', async () => {
    server.use(
      http.get('*/api/db/connections', () => HttpResponse.json({ message: 'database is down' }, { status: 500 })),
    );
    openPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(CONNECTION_MESSAGES.listError);
    expect(alert).toHaveTextContent('database is down');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('adding a connection', () => {
  it('asks for the type first in a searchable grid of connections and notifications', async () => {
    connectionsBackend();
    const { user, dialog } = await addDialog();
    expect(within(dialog).getByRole('region', { name: 'Connections' })).toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: 'Notifications' })).toBeInTheDocument();
    await user.type(within(dialog).getByRole('searchbox'), 'ntfy');
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Postgres' })).not.toBeInTheDocument());
    expect(within(dialog).queryByRole('region', { name: 'Connections' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Ntfy' }));

    const form = await screen.findByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.add });
    expect(within(form).getByLabelText('Namespace')).toHaveValue('default');
    expect(within(form).getByLabelText('Host')).toHaveValue('ntfy.sh');
    expect(within(form).getByText('ntfy://ntfy.sh/?scheme=https')).toBeInTheDocument();
  });

  it.each([
    ['SFTP', 'Port', '22'],
    ['Email', 'Port', '587'],
    ['Email', 'Encryption Method', 'Auto'],
    ['OpsGenie', 'Host', 'api.opsgenie.com'],
    ['OpsGenie', 'Port', '443'],
    ['SMB', 'Port', '445'],
    ['Git', 'Ref', 'main'],
    ['Webhook', 'Method', 'POST'],
  ])('starts the %s form with %s = %s', async (label, field, value) => {
    connectionsBackend();
    const { user, dialog } = await addDialog();
    await user.click(within(dialog).getByRole('button', { name: label }));
    const form = await screen.findByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.add });
    expect(within(form).getByLabelText(field)).toHaveValue(value);
  });

  it("says 'This field is required' for each empty required field and saves nothing", async () => {
    const backend = connectionsBackend();
    const { user, dialog } = await addDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Postgres' }));
    const form = await screen.findByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.add });
    await user.click(within(form).getByLabelText('Name'));
    await user.tab();
    expect(await within(form).findByText(CONNECTION_MESSAGES.required)).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(form).getAllByText(CONNECTION_MESSAGES.required)).toHaveLength(4));
    expect(within(form).getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(backend.writes).toEqual([]);
  });

  it('posts the converted form with its author, and lists the new connection', async () => {
    const backend = connectionsBackend();
    const { user, dialog } = await addDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Postgres' }));
    const form = await screen.findByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.add });
    await user.type(within(form).getByLabelText('Name'), 'billing');
    await user.type(within(form).getByLabelText('URL'), 'postgres://billing:5432/billing');
    await user.type(within(form).getByLabelText('Username'), 'billing');
    await user.type(within(form).getByLabelText('Password'), 'secret://billing-db/password');
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(CONNECTION_MESSAGES.added)).toBeInTheDocument();
    expect(backend.writes).toEqual([
      {
        method: 'POST',
        url: expect.any(URL),
        body: {
          name: 'billing',
          namespace: 'default',
          type: 'postgres',
          url: 'postgres://billing:5432/billing',
          username: 'billing',
          password: 'secret://billing-db/password',
          properties: {},
          created_by: TEST_USER.id,
        },
      },
    ]);
    expect(await row('billing')).toBeInTheDocument();
  });

  it('goes back to the type picker from a form', async () => {
    connectionsBackend();
    const { user, dialog } = await addDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Redis' }));
    const form = await screen.findByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.add });
    await user.click(within(form).getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.chooseType })).toBeInTheDocument();
  });
});

describe('editing a connection', () => {
  it('opens straight in the edit form; a stored password reads as stored and is kept when left empty', async () => {
    const backend = connectionsBackend();
    const { user } = openPage();
    await user.click(await row('orders-db'));
    const form = await screen.findByRole('dialog', { name: 'Edit Connection' });
    expect(within(form).getByLabelText('URL')).toHaveValue('postgres://db.internal:5432/orders');
    const password = within(form).getByLabelText('Password');
    expect(password).toHaveValue('');
    expect(within(form).getByText(CONNECTION_MESSAGES.secretStored)).toBeInTheDocument();

    await user.clear(within(form).getByLabelText('Username'));
    await user.type(within(form).getByLabelText('Username'), 'orders_ro');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(CONNECTION_MESSAGES.updated)).toBeInTheDocument();
    const [write] = backend.writes;
    expect(write?.method).toBe('PATCH');
    expect(write?.url.searchParams.get('id')).toBe(`eq.${PG_ID}`);
    expect(write?.body).toEqual({
      id: PG_ID,
      name: 'orders-db',
      namespace: 'default',
      type: 'postgres',
      username: 'orders_ro',
      properties: {},
    });
  });

  it('deletes after confirmation with a soft delete', async () => {
    const backend = connectionsBackend();
    const { user } = openPage();
    await user.click(await row('orders-db'));
    const form = await screen.findByRole('dialog', { name: 'Edit Connection' });
    await user.click(within(form).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: CONNECTIONS_PAGE_TEXTS.deleteTitle('orders-db') });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(CONNECTION_MESSAGES.deleted)).toBeInTheDocument();
    expect(backend.writes.map((write) => [write.method, write.url.searchParams.get('id'), write.body])).toEqual([
      ['PATCH', `eq.${PG_ID}`, { deleted_at: 'now()' }],
    ]);
    await waitFor(() => expect(within(screen.getByRole('table')).queryByText('orders-db')).toBeNull());
  });

  it('toasts the server message when a save is refused', async () => {
    connectionsBackend();
    server.use(
      http.patch('*/api/db/connections', () =>
        HttpResponse.json(
          { code: '23505', message: "A connection 'orders-db' already exists in namespace default." },
          { status: 409 },
        ),
      ),
    );
    const { user } = openPage();
    await user.click(await row('orders-db'));
    const form = await screen.findByRole('dialog', { name: 'Edit Connection' });
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText("A connection 'orders-db' already exists in namespace default."),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Connection' })).toBeInTheDocument();
  });

  it('opens a row from another source read-only: no save, no delete, its reference shown', async () => {
    connectionsBackend();
    const { user } = openPage();
    await user.click(await row('cluster-slack'));
    const form = await screen.findByRole('dialog', { name: 'Connection' });
    expect(within(form).getByText(/cannot be edited here/)).toBeInTheDocument();
    expect(within(form).getByLabelText('Bot Token')).toBeDisabled();
    expect(within(form).getByLabelText('Bot Token')).toHaveValue('secret://slack/token');
    // It shows the URL it was written with, and no default it does not hold.
    expect(within(form).getByText('slack://$(password)@$(username)')).toBeInTheDocument();
    expect(within(form).getByLabelText('From Name')).toHaveValue('');
    expect(within(form).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(within(form).getByRole('button', { name: CONNECTIONS_PAGE_TEXTS.test })).toBeInTheDocument();
  });

  it('lets an editor read connections but not add, change or test them', async () => {
    server.use(...consoleStartupHandlers({ roles: ['editor'] }));
    connectionsBackend();
    const { user } = openPage();
    await user.click(await row('orders-db'));
    const form = await screen.findByRole('dialog', { name: 'Connection' });
    expect(within(form).getByLabelText('URL')).toBeDisabled();
    expect(within(form).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: CONNECTIONS_PAGE_TEXTS.test })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: CONNECTIONS_PAGE_TEXTS.add })).not.toBeInTheDocument();
  });

  it('is unauthorized for a viewer', async () => {
    server.use(...consoleStartupHandlers({ roles: ['viewer'] }));
    connectionsBackend();
    openPage();
    expect(await screen.findByText(/You do not have permission/)).toBeInTheDocument();
  });
});

describe('Test connection', () => {
  const testWith = async (answer: () => Response) => {
    connectionsBackend();
    const calls: string[] = [];
    server.use(
      http.post('*/api/connection/test/:id', ({ params }) => {
        calls.push(String(params.id));
        return answer();
      }),
    );
    const { user } = openPage();
    await user.click(await row('orders-db'));
    const form = await screen.findByRole('dialog', { name: 'Edit Connection' });
    await user.click(within(form).getByRole('button', { name: CONNECTIONS_PAGE_TEXTS.test }));
    return { form, calls };
  };

  it("says 'Connection successful' when the server answers ok", async () => {
    const { form, calls } = await testWith(() => HttpResponse.json({ message: 'ok' }));
    expect(await within(form).findByTestId('connection-test-outcome')).toHaveTextContent(CONNECTION_MESSAGES.testOk);
    expect(await screen.findAllByText(CONNECTION_MESSAGES.testOk)).toHaveLength(2);
    expect(calls).toEqual([PG_ID]);
  });

  it("shows the server's error, pretty-printed when it is JSON", async () => {
    const { form } = await testWith(() =>
      HttpResponse.json({ error: '{"code":"28P01","message":"password authentication failed"}' }, { status: 400 }),
    );
    const outcome = await within(form).findByTestId('connection-test-outcome');
    expect(outcome.querySelector('pre')?.textContent).toBe(
      '{\n  "code": "28P01",\n  "message": "password authentication failed"\n}',
    );
  });

  it("shows a plain error as it is, and 'Testing connection failed!' when there is none", async () => {
    const first = await testWith(() =>
      HttpResponse.json({ error: 'password authentication failed for user "orders"' }, { status: 400 }),
    );
    expect(await within(first.form).findByTestId('connection-test-outcome')).toHaveTextContent(
      'password authentication failed for user "orders"',
    );
  });

  it("falls back to 'Testing connection failed!' for a 4xx without an error", async () => {
    const { form } = await testWith(() => HttpResponse.json({}, { status: 400 }));
    expect(await within(form).findByTestId('connection-test-outcome')).toHaveTextContent(
      CONNECTION_MESSAGES.testFailed,
    );
  });

  it('says when the type cannot be tested', async () => {
    const { form } = await testWith(() =>
      HttpResponse.json({ error: CONNECTION_MESSAGES.testUnsupported }, { status: 400 }),
    );
    const outcome = await within(form).findByTestId('connection-test-outcome');
    expect(outcome).toHaveTextContent('We currently do not support testing this connection type');
    expect(outcome).toHaveAttribute('role', 'status');
  });
});
