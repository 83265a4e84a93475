import type { Role } from '@lookout/contracts';
import { USER_FORM_MESSAGES, USERS_PAGE_TEXTS, VIEW_MESSAGES } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const GRACE_ID = '0192a5d4-1111-7000-8000-000000000002';
const ALAN_ID = '0192a5d4-1111-7000-8000-000000000003';

const identities = [
  {
    id: TEST_USER.id,
    state: 'active',
    traits: { email: 'jane@example.com', name: { first: 'Jane', last: 'Doe' } },
    created_at: '2024-10-01T10:00:00Z',
  },
  {
    id: GRACE_ID,
    state: 'active',
    traits: { email: 'grace@example.com', name: { first: 'Grace', last: 'Hopper' } },
    created_at: '2024-10-02T10:00:00Z',
  },
  {
    id: ALAN_ID,
    state: 'inactive',
    traits: { email: 'alan@example.com', name: { first: 'Alan', last: 'Turing' } },
    created_at: '2024-10-03T10:00:00Z',
  },
];

/** Roles of the listed users; the signed-in user's own row comes from `rolesOfMe`. */
function usersHandlers(rolesOfMe: Role[]) {
  const rolesById: Record<string, Role[]> = {
    [TEST_USER.id]: rolesOfMe,
    [GRACE_ID]: ['editor', 'commander'],
    [ALAN_ID]: [],
  };
  const calls = { identities: 0 };
  server.use(
    http.get('*/api/db/identities', () => {
      calls.identities += 1;
      return HttpResponse.json(identities);
    }),
    http.get('*/api/db/people_roles', ({ request }) => {
      const ids = /^in\.\((.*)\)$/.exec(new URL(request.url).searchParams.get('id') ?? '')?.[1]?.split(',') ?? [];
      return HttpResponse.json(
        identities
          .filter((identity) => ids.includes(identity.id))
          .map((identity) => ({
            id: identity.id,
            name: `${identity.traits.name.first} ${identity.traits.name.last}`,
            email: identity.traits.email,
            roles: rolesById[identity.id] ?? [],
          })),
      );
    }),
  );
  return calls;
}

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const openUsers = () => renderApp({ path: '/settings/users', navigation });
const table = () => screen.findByRole('table', { name: USERS_PAGE_TEXTS.title });
const mainNav = () => screen.getByRole('navigation', { name: 'Main' });
const row = async (name: string) => {
  const cell = await within(await table()).findByText(name);
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
};

/** Holds `path`'s answer back: the console shows only its loading state until it comes. */
async function expectConsoleWaitsFor(path: string, answer: Parameters<typeof HttpResponse.json>[0]) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked = false;
  server.use(
    http.get(path, async () => {
      asked = true;
      await released;
      return HttpResponse.json(answer);
    }),
  );
  usersHandlers(['admin']);
  openUsers();

  // Once the console has asked, it waits on the answer. (Holding on to the first 'Loading'
  // found would race: the router's fallback gives way to the console's own as chunks load.)
  await waitFor(() => expect(asked).toBe(true));
  await waitFor(() => expect(screen.getByText('Loading')).toBeInTheDocument());
  expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
  release();
  expect(await table()).toBeInTheDocument();
}

/** Opens /settings/users and finds neither the page (not found) nor its Settings menu item. */
async function expectUsersAbsent() {
  const { user } = openUsers();
  expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  await user.click(within(mainNav()).getByRole('button', { name: 'Settings' }));
  const submenu = within(mainNav()).getByRole('list', { name: 'Settings' });
  // Every other page an admin may see stays; both user administration pages go.
  expect(
    within(submenu)
      .getAllByRole('link')
      .map((link) => link.textContent),
  ).toEqual(navigation.settings.filter((item) => item.feature !== 'settings.users').map((item) => item.label));
}

describe('/settings/users as an admin', () => {
  it('lists users with Name, Email, Roles, State, Created At and Actions, and offers Invite User', async () => {
    usersHandlers(['admin']);
    openUsers();

    const users = await table();
    expect(
      within(users)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Email', 'Roles', 'State', 'Created At', 'Actions']);
    const grace = await row('Grace Hopper');
    expect(grace).toHaveTextContent('grace@example.com');
    await waitFor(() => expect(grace).toHaveTextContent('editorcommander'));
    // No role at all is a viewer.
    expect(await row('Alan Turing')).toHaveTextContent('viewer');
    expect(await row('Alan Turing')).toHaveTextContent('inactive');
    expect(screen.getByRole('button', { name: USERS_PAGE_TEXTS.invite })).toBeInTheDocument();
    expect(within(grace).getByRole('button', { name: 'Actions for Grace Hopper' })).toBeInTheDocument();
    expect(document.title).toBe('Users | Lookout');

    // The Settings submenu lists every page an admin may see, in the registry's (the spec's)
    // order, and marks this one.
    const submenu = within(mainNav()).getByRole('list', { name: 'Settings' });
    expect(
      within(submenu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(navigation.settings.map((item) => item.label));
    expect(within(submenu).getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
  });

  it("validates the invite form with the spec's messages", async () => {
    usersHandlers(['admin']);
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: USERS_PAGE_TEXTS.invite }));
    const dialog = await screen.findByRole('dialog', { name: USERS_PAGE_TEXTS.invite });

    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText(USER_FORM_MESSAGES.firstName)).toBeInTheDocument();
    expect(within(dialog).getByText(USER_FORM_MESSAGES.lastName)).toBeInTheDocument();
    expect(within(dialog).getByText(USER_FORM_MESSAGES.email)).toBeInTheDocument();
    expect(within(dialog).getByText(USER_FORM_MESSAGES.role)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('First Name')).toHaveAttribute('aria-invalid', 'true');

    await user.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText(USER_FORM_MESSAGES.emailFormat)).toBeInTheDocument();
    expect(within(dialog).queryByText(USER_FORM_MESSAGES.email)).not.toBeInTheDocument();
  });

  it('invites a user, toasts, refreshes the list and shows the invitation link to hand over', async () => {
    const calls = usersHandlers(['admin']);
    let body: unknown;
    server.use(
      http.post('*/api/auth/invite_user', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          {
            message: 'Invited Ada Lovelace',
            id: '0192a5d4-1111-7000-8000-000000000009',
            invited: true,
            link: 'http://localhost/api/.ory/self-service/recovery?flow=abc&token=xyz',
            expiresAt: '2024-10-09T10:00:00Z',
          },
          { status: 201 },
        );
      }),
    );
    const { user } = openUsers();
    await table();
    await waitFor(() => expect(calls.identities).toBe(1));
    await user.click(screen.getByRole('button', { name: USERS_PAGE_TEXTS.invite }));
    const dialog = await screen.findByRole('dialog', { name: USERS_PAGE_TEXTS.invite });
    await user.type(within(dialog).getByLabelText('First Name'), ' Ada ');
    await user.type(within(dialog).getByLabelText('Last Name'), 'Lovelace');
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'editor');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));

    expect(await screen.findByText('Ada Lovelace invited successfully')).toBeInTheDocument();
    expect(body).toEqual({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', role: 'editor' });
    expect(await within(dialog).findByLabelText('Invitation link')).toHaveValue(
      'http://localhost/api/.ory/self-service/recovery?flow=abc&token=xyz',
    );
    expect(within(dialog).getByRole('button', { name: 'Copy invitation link' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent(/hand them the link yourself/);
    await waitFor(() => expect(calls.identities).toBe(2));

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the server message when the invite fails', async () => {
    usersHandlers(['admin']);
    server.use(
      http.post('*/api/auth/invite_user', () =>
        HttpResponse.json(
          { error: { code: 'forbidden', message: 'Your roles (editor) do not allow write on identities.' } },
          { status: 403 },
        ),
      ),
    );
    const { user } = openUsers();
    await user.click(await screen.findByRole('button', { name: USERS_PAGE_TEXTS.invite }));
    const dialog = await screen.findByRole('dialog', { name: USERS_PAGE_TEXTS.invite });
    await user.type(within(dialog).getByLabelText('First Name'), 'Ada');
    await user.type(within(dialog).getByLabelText('Last Name'), 'Lovelace');
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'viewer');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));

    expect(await screen.findByText('Your roles (editor) do not allow write on identities.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Invite' })).toBeEnabled();
  });

  it('opens the edit form on a row click with the highest-ranked role, and saves it', async () => {
    usersHandlers(['admin']);
    let body: unknown;
    server.use(
      http.post('*/api/people/update', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ email: 'grace@example.com', name: { first: 'Grace', last: 'Brewster' } });
      }),
    );
    const { user } = openUsers();
    const grace = await row('Grace Hopper');
    await waitFor(() => expect(grace).toHaveTextContent('editor'));
    await user.click(grace);

    const dialog = await screen.findByRole('dialog', { name: 'Edit Grace Hopper' });
    expect(within(dialog).getByLabelText('Role')).toHaveValue('editor');
    expect(within(dialog).getByLabelText('Active')).toBeChecked();
    await user.clear(within(dialog).getByLabelText('Last Name'));
    await user.type(within(dialog).getByLabelText('Last Name'), 'Brewster');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Grace Brewster updated successfully')).toBeInTheDocument();
    expect(body).toEqual({
      id: GRACE_ID,
      firstName: 'Grace',
      lastName: 'Brewster',
      email: 'grace@example.com',
      role: 'editor',
      active: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("deletes a user from the Actions menu after 'Are you sure you want to delete this user ?'", async () => {
    usersHandlers(['admin']);
    const deleted: string[] = [];
    server.use(
      http.delete('*/api/people/:id', ({ params }) => {
        deleted.push(String(params.id));
        return HttpResponse.json({ message: 'Deleted Alan Turing.' });
      }),
    );
    const { user } = openUsers();
    const alan = await row('Alan Turing');
    await user.click(within(alan).getByRole('button', { name: 'Actions for Alan Turing' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));

    // The menu must not also open the row's edit form.
    const confirm = await screen.findByRole('alertdialog', { name: USER_FORM_MESSAGES.deleteConfirm });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText(USER_FORM_MESSAGES.deleted)).toBeInTheDocument();
    expect(deleted).toEqual([ALAN_ID]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('does not offer to delete oneself', async () => {
    usersHandlers(['admin']);
    const { user } = openUsers();
    const jane = await row('Jane Doe');
    await user.click(within(jane).getByRole('button', { name: 'Actions for Jane Doe' }));
    expect(await screen.findByRole('menuitem', { name: 'Delete' })).toHaveAttribute('aria-disabled', 'true');
  });
});

describe('/settings/users for other roles', () => {
  it('shows an editor the list without Invite User or Actions, and the user read-only', async () => {
    server.use(...consoleStartupHandlers({ roles: ['editor'] }));
    usersHandlers(['editor']);
    const { user } = openUsers();

    const users = await table();
    expect(
      within(users)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Email', 'Roles', 'State', 'Created At']);
    expect(screen.queryByRole('button', { name: USERS_PAGE_TEXTS.invite })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Actions for/ })).not.toBeInTheDocument();

    await user.click(await row('Grace Hopper'));
    const dialog = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    expect(within(dialog).getByLabelText('First Name')).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('shows a viewer the Unauthorized view, no Settings menu, and never asks for identities', async () => {
    server.use(
      ...consoleStartupHandlers({ roles: ['viewer'] }),
      http.get('*/api/db/identities', () => HttpResponse.json({ message: 'forbidden' }, { status: 403 })),
    );
    openUsers();

    expect(await screen.findByText(VIEW_MESSAGES.unauthorized)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: USERS_PAGE_TEXTS.invite })).not.toBeInTheDocument();
    expect(within(mainNav()).queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
    expect(document.title).toBe('Users | Lookout');
  });

  it('treats a user without roles as a viewer', async () => {
    server.use(...consoleStartupHandlers({ roles: [] }));
    openUsers();
    expect(await screen.findByText(VIEW_MESSAGES.unauthorized)).toBeInTheDocument();
    expect(within(mainNav()).queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it('shows a responder Settings with Feature Flags but not Users', async () => {
    server.use(...consoleStartupHandlers({ roles: ['responder'] }));
    const { user } = renderApp({ path: '/', navigation });
    const settings = await within(await screen.findByRole('navigation', { name: 'Main' })).findByRole('button', {
      name: 'Settings',
    });
    await user.click(settings);
    const submenu = within(mainNav()).getByRole('list', { name: 'Settings' });
    const links = within(submenu)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toContain('Feature Flags');
    expect(links).not.toContain('Users');
    expect(links).not.toContain('Email outbox');
  });
});

describe('the settings.users feature flag', () => {
  it('hides the Users menu item and route while settings.users.disable is true', async () => {
    server.use(
      ...consoleStartupHandlers({
        properties: [propertyFixture({ name: 'settings.users.disable', value: 'true', type: 'boolean' })],
      }),
    );
    const calls = usersHandlers(['admin']);
    await expectUsersAbsent();
    expect(calls.identities).toBe(0);
  });

  it('shows nothing of the console until the flags have loaded', async () => {
    await expectConsoleWaitsFor('*/api/properties', []);
  });

  it('asks for the flags and the roles together, and shows the console once both are in', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let flagsAsked = false;
    server.use(
      http.get('*/api/properties', () => {
        flagsAsked = true;
        return HttpResponse.json([]);
      }),
      http.get('*/api/db/people_roles', async () => {
        await released;
        return HttpResponse.json([{ id: TEST_USER.id, name: 'Jane Doe', email: 'jane@example.com', roles: ['admin'] }]);
      }),
    );
    renderApp({ path: '/', navigation });

    await waitFor(() => expect(flagsAsked).toBe(true));
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
    release();
    const settings = await within(await screen.findByRole('navigation', { name: 'Main' })).findByRole('button', {
      name: 'Settings',
    });
    expect(settings).toBeInTheDocument();
  });
});

describe('a server without user administration (an external Kratos without KRATOS_ADMIN_URL)', () => {
  it('leaves the Users menu item and route out, as a disabled feature, and never asks for identities', async () => {
    server.use(...consoleStartupHandlers({ userAdmin: false }));
    const calls = usersHandlers(['admin']);
    await expectUsersAbsent();
    expect(screen.queryByRole('button', { name: USERS_PAGE_TEXTS.invite })).not.toBeInTheDocument();
    expect(calls.identities).toBe(0);
  });

  it('shows nothing of the console until the server settings have loaded', async () => {
    await expectConsoleWaitsFor('*/api/auth/config', {
      registration_open: false,
      oidc_providers: [],
      user_admin: true,
    });
  });
});
