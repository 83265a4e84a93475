import { EditorView } from '@codemirror/view';
import {
  SETTINGS_RESOURCE_TEXTS,
  TEAM_MEMBERS_TEXTS,
  TEAM_TOASTS,
  TEAMS_PAGE_TEXTS,
  VALIDATION_MESSAGES,
  VIEW_MESSAGES,
  type Role,
} from '@lookout/contracts';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { PEOPLE, teamFixture, teamsBackend } from '@/test/teams-backend';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

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

const [ada, bob, carol] = PEOPLE as [(typeof PEOPLE)[number], (typeof PEOPLE)[number], (typeof PEOPLE)[number]];

/** The backend with two UI teams and one from a config file, opened at `path` as `roles`. */
function open(path: string, { roles = ['admin'] as Role[], members = {} as Record<string, string[]> } = {}) {
  const platform = teamFixture({
    name: 'Platform',
    spec: { notifications: [{ connection: 'connection://default/slack' }] },
  });
  const empty = teamFixture({ name: 'Databases', created_at: '2024-09-01T10:00:00Z' });
  const fromFile = teamFixture({ name: 'Networking', source: 'ConfigFile' });
  const backend = teamsBackend({
    teams: [platform, empty, fromFile],
    members: { [platform.id]: [ada.id], ...members },
  });
  server.use(...backend.handlers, ...consoleStartupHandlers({ roles }));
  const resolved = path.replace(':platform', platform.id).replace(':empty', empty.id).replace(':file', fromFile.id);
  const view = renderApp({ path: resolved, navigation });
  return { ...view, backend, platform, empty, fromFile };
}

const teamsTable = () => screen.findByRole('table', { name: TEAMS_PAGE_TEXTS.title });
const rowOf = async (table: HTMLElement, name: string) => {
  const cell = await within(table).findByText(name);
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
};
const teamForm = () => screen.findByRole('form', { name: 'Team' });
const specEditor = async () => {
  const host = await screen.findByTestId('yaml-editor');
  const view = EditorView.findFromDOM(host);
  if (!view) throw new Error('no editor');
  return view;
};
const replaceSpec = async (text: string) => {
  const view = await specEditor();
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
};

describe('/settings/teams', () => {
  it('lists the live teams with the generic columns less Schedule and Namespace, and offers Add Team to an admin', async () => {
    open('/settings/teams');
    const table = await teamsTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Source', 'Job Status', 'Last Run', 'Last Failed', 'Tags', 'Created', 'Updated', 'Created By']);
    const platform = await rowOf(table, 'Platform');
    expect(platform).toHaveTextContent('UI');
    expect(platform).toHaveTextContent(TEST_USER.name);
    expect(await rowOf(table, 'Networking')).toHaveTextContent('ConfigFile');
    expect(document.title).toBe('Teams | Lookout');

    // On a settings page the submenu is open; Teams is a generic resource (spec 1 section
    // 2.2): after Users, before Feature Flags.
    const submenu = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('list', { name: 'Settings' });
    expect(within(submenu).getByRole('link', { name: TEAMS_PAGE_TEXTS.title })).toHaveAttribute(
      'href',
      '/settings/teams',
    );
    const labels = within(submenu)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(labels.indexOf('Teams')).toBeGreaterThan(labels.indexOf('Users'));
    expect(labels.indexOf('Teams')).toBeLessThan(labels.indexOf('Feature Flags'));
    expect(screen.getByRole('link', { name: TEAMS_PAGE_TEXTS.add })).toHaveAttribute('href', '/settings/teams/new');
  });

  it('opens a team from its row', async () => {
    const { user, router, platform } = open('/settings/teams');
    await user.click(await rowOf(await teamsTable(), 'Platform'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/settings/teams/${platform.id}`));
    expect(await screen.findByRole('heading', { level: 1, name: 'Platform' })).toBeInTheDocument();
  });

  it.each<Role>(['viewer', 'commander', 'responder'])('shows no Add Team to a %s', async (role) => {
    open('/settings/teams', { roles: [role] });
    await rowOf(await teamsTable(), 'Platform');
    expect(screen.queryByRole('link', { name: TEAMS_PAGE_TEXTS.add })).not.toBeInTheDocument();
  });

  it("is gone, page and menu, when 'settings.teams.disable' is true", async () => {
    teamsBackend();
    server.use(
      ...consoleStartupHandlers({ properties: [propertyFixture({ name: 'settings.teams.disable', value: 'true' })] }),
    );
    renderApp({ path: '/settings/teams', navigation });
    expect(await screen.findByRole('heading', { name: VIEW_MESSAGES.notFoundTitle })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: TEAMS_PAGE_TEXTS.title })).not.toBeInTheDocument();
  });
});

describe('/settings/teams/new', () => {
  it("needs a name ('This field is required') and a spec that reads, then creates the team and returns to the list", async () => {
    const { user, backend, router } = open('/settings/teams/new');
    const form = await teamForm();
    expect(screen.getByRole('heading', { level: 1, name: TEAMS_PAGE_TEXTS.titleNew })).toBeInTheDocument();
    expect(within(form).getByLabelText(TEAMS_PAGE_TEXTS.fields.icon)).toHaveValue('group');

    await user.click(within(form).getByRole('button', { name: TEAMS_PAGE_TEXTS.save }));
    expect(await within(form).findByText(VALIDATION_MESSAGES.required)).toBeInTheDocument();
    expect(within(form).getByLabelText(TEAMS_PAGE_TEXTS.fields.name)).toHaveAttribute('aria-invalid', 'true');

    await user.type(within(form).getByLabelText(TEAMS_PAGE_TEXTS.fields.name), '  On-call  ');
    await replaceSpec('notifications: [unclosed');
    await user.click(within(form).getByRole('button', { name: TEAMS_PAGE_TEXTS.save }));
    expect(await within(form).findByText(new RegExp(`^${TEAMS_PAGE_TEXTS.invalidSpec}: `))).toBeInTheDocument();

    await replaceSpec('- a list\n');
    await user.click(within(form).getByRole('button', { name: TEAMS_PAGE_TEXTS.save }));
    expect(await within(form).findByText(TEAMS_PAGE_TEXTS.specNotObject)).toBeInTheDocument();
    expect(backend.writes).toEqual([]);

    await replaceSpec('notifications:\n  - connection: connection://default/pagerduty\n');
    await user.click(within(form).getByRole('button', { name: TEAMS_PAGE_TEXTS.save }));
    expect(await screen.findByText(TEAM_TOASTS.created('On-call'))).toBeInTheDocument();
    expect(backend.writes).toEqual([
      {
        method: 'POST',
        path: '/api/db/teams',
        params: {},
        body: {
          name: 'On-call',
          icon: 'group',
          spec: { notifications: [{ connection: 'connection://default/pagerduty' }] },
          created_by: TEST_USER.id,
        },
      },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/teams'));
    expect(await rowOf(await teamsTable(), 'On-call')).toBeInTheDocument();
  });

  it("toasts the server's refusal and stays on the form", async () => {
    const { user, router } = open('/settings/teams/new');
    const form = await teamForm();
    await user.type(within(form).getByLabelText(TEAMS_PAGE_TEXTS.fields.name), 'Platform');
    await user.click(within(form).getByRole('button', { name: TEAMS_PAGE_TEXTS.save }));
    expect(await screen.findByText("A team named 'Platform' already exists.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/teams/new');
  });

  it('is refused to a viewer', async () => {
    open('/settings/teams/new', { roles: ['viewer'] });
    expect(await screen.findByText(VIEW_MESSAGES.unauthorized)).toBeInTheDocument();
  });
});

describe('/settings/teams/{id}', () => {
  it("says 'No resources found' for an id no live team has", async () => {
    open('/settings/teams/aaaaaaaa-aaaa-4aaa-8aaa-ffffffffffff');
    expect(await screen.findByText(TEAMS_PAGE_TEXTS.notFound)).toBeInTheDocument();
  });

  it('updates the team with PATCH, its name fixed, says so and returns to the list', async () => {
    const { user, backend, router, platform } = open('/settings/teams/:platform');
    const form = await teamForm();
    expect(screen.getByRole('tab', { name: TEAMS_PAGE_TEXTS.tabs.spec })).toHaveAttribute('aria-selected', 'true');
    // The name cannot change once the team exists (spec 2 section 5).
    const name = within(form).getByLabelText(TEAMS_PAGE_TEXTS.fields.name);
    expect(name).toHaveAttribute('readonly');
    expect(within(form).getByText(SETTINGS_RESOURCE_TEXTS.nameLocked)).toBeInTheDocument();
    const icon = within(form).getByLabelText(TEAMS_PAGE_TEXTS.fields.icon);
    await user.clear(icon);
    await user.type(icon, 'users');
    await user.click(within(form).getByRole('button', { name: TEAMS_PAGE_TEXTS.update }));
    expect(await screen.findByText(TEAM_TOASTS.updated('Platform'))).toBeInTheDocument();
    expect(backend.writes).toEqual([
      {
        method: 'PATCH',
        path: '/api/db/teams',
        params: { id: `eq.${platform.id}` },
        body: {
          name: 'Platform',
          icon: 'users',
          spec: { notifications: [{ connection: 'connection://default/slack' }] },
        },
      },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/teams'));
  });

  it("soft-deletes after confirmation: '{name} deleted successfully' and back to the list without it", async () => {
    const { user, backend, platform, router } = open('/settings/teams/:platform');
    const form = await teamForm();
    await user.click(within(form).getByRole('button', { name: TEAMS_PAGE_TEXTS.delete }));
    const confirm = await screen.findByRole('alertdialog', { name: TEAMS_PAGE_TEXTS.deleteConfirm('Platform') });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(TEAM_TOASTS.deleted('Platform'))).toBeInTheDocument();
    expect(backend.writes).toEqual([
      { method: 'PATCH', path: '/api/db/teams', params: { id: `eq.${platform.id}` }, body: { deleted_at: 'now()' } },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/teams'));
    const table = await teamsTable();
    await rowOf(table, 'Databases');
    expect(within(table).queryByText('Platform')).not.toBeInTheDocument();
  });

  it('goes back to the list on Cancel without writing', async () => {
    const { user, backend, router } = open('/settings/teams/:platform');
    await user.click(within(await teamForm()).getByRole('button', { name: TEAMS_PAGE_TEXTS.cancel }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/teams'));
    expect(backend.writes).toEqual([]);
  });

  it('opens a team from a config file read-only: the reason, no Update, no Delete, no member changes', async () => {
    const { user } = open('/settings/teams/:file');
    const form = await teamForm();
    expect(screen.getByText(TEAMS_PAGE_TEXTS.readOnly('ConfigFile'))).toBeInTheDocument();
    expect(within(form).getByLabelText(TEAMS_PAGE_TEXTS.fields.name)).toBeDisabled();
    expect(within(form).queryByRole('button', { name: TEAMS_PAGE_TEXTS.update })).not.toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: TEAMS_PAGE_TEXTS.delete })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: TEAMS_PAGE_TEXTS.tabs.members }));
    expect(await screen.findByText(TEAM_MEMBERS_TEXTS.empty)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: TEAM_MEMBERS_TEXTS.addMembers })).not.toBeInTheDocument();
  });

  it('opens read-only for a viewer, with a word on masked credentials', async () => {
    const { user } = open('/settings/teams/:platform', { roles: ['viewer'] });
    const form = await teamForm();
    expect(within(form).getByLabelText(TEAMS_PAGE_TEXTS.fields.name)).toBeDisabled();
    expect(within(form).queryByRole('button', { name: TEAMS_PAGE_TEXTS.update })).not.toBeInTheDocument();
    expect(screen.getByText(TEAMS_PAGE_TEXTS.secretsMasked)).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: TEAMS_PAGE_TEXTS.tabs.members }));
    expect(await screen.findByText(ada.name)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove user/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: TEAM_MEMBERS_TEXTS.addMembers })).not.toBeInTheDocument();
  });
});

describe('the Members tab', () => {
  it("says the team has no members yet, then adds two chosen among the non-members: '{names} added to the team successfully'", async () => {
    const { user, backend, empty } = open('/settings/teams/:empty?tab=members', { members: {} });
    expect(await screen.findByText(TEAM_MEMBERS_TEXTS.empty)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: TEAM_MEMBERS_TEXTS.addMembers }));
    const dialog = await screen.findByRole('dialog', { name: TEAM_MEMBERS_TEXTS.modalTitle });
    const add = within(dialog).getByRole('button', { name: TEAM_MEMBERS_TEXTS.add });
    expect(add).toBeDisabled();
    await user.click(await within(dialog).findByRole('checkbox', { name: new RegExp(ada.name) }));
    await user.click(within(dialog).getByRole('checkbox', { name: new RegExp(bob.name) }));
    await user.click(add);

    expect(await screen.findByText(TEAM_TOASTS.membersAdded([ada.name, bob.name]))).toBeInTheDocument();
    expect(backend.writes).toEqual([
      {
        method: 'POST',
        path: '/api/db/team_members',
        params: {},
        body: [
          { team_id: empty.id, person_id: ada.id },
          { team_id: empty.id, person_id: bob.id },
        ],
      },
    ]);
    const table = await screen.findByRole('table', { name: 'Members of Databases' });
    expect(await within(table).findByText(ada.name)).toBeInTheDocument();
    expect(within(table).getByText(bob.email!)).toBeInTheDocument();
  });

  it('offers only the users who are not members', async () => {
    const { user } = open('/settings/teams/:platform?tab=members');
    await screen.findByRole('table', { name: 'Members of Platform' });
    await user.click(await screen.findByRole('button', { name: TEAM_MEMBERS_TEXTS.addMembers }));
    const dialog = await screen.findByRole('dialog', { name: TEAM_MEMBERS_TEXTS.modalTitle });
    await within(dialog).findByRole('checkbox', { name: new RegExp(bob.name) });
    const offered = within(dialog)
      .getAllByRole('checkbox')
      .map((box) => box.closest('label')?.textContent ?? '');
    expect(offered.some((text) => text.includes(ada.name))).toBe(false);
    expect(offered.some((text) => text.includes(carol.name))).toBe(true);
  });

  it("removes a user from this team only after confirmation: '{name} removed from team successfully'", async () => {
    const { user, backend, platform } = open('/settings/teams/:platform?tab=members');
    const table = await screen.findByRole('table', { name: 'Members of Platform' });
    await user.click(
      await within(table).findByRole('button', { name: `${TEAM_MEMBERS_TEXTS.removeUser} ${ada.name}` }),
    );
    const confirm = await screen.findByRole('alertdialog', {
      name: TEAM_MEMBERS_TEXTS.removeConfirm(ada.name, 'Platform'),
    });
    await user.click(within(confirm).getByRole('button', { name: TEAM_MEMBERS_TEXTS.remove }));

    expect(await screen.findByText(TEAM_TOASTS.memberRemoved(ada.name))).toBeInTheDocument();
    expect(backend.writes).toEqual([
      {
        method: 'DELETE',
        path: '/api/db/team_members',
        params: { team_id: `eq.${platform.id}`, person_id: `eq.${ada.id}` },
        body: undefined,
      },
    ]);
    expect(await screen.findByText(TEAM_MEMBERS_TEXTS.empty)).toBeInTheDocument();
  });

  it("toasts the server's message when adding fails, and keeps the modal open", async () => {
    const { user } = open('/settings/teams/:empty?tab=members');
    server.use(
      http.post('*/api/db/team_members', () =>
        HttpResponse.json({ code: '23503', message: `No person has id ${carol.id}.` }, { status: 409 }),
      ),
    );
    await user.click(await screen.findByRole('button', { name: TEAM_MEMBERS_TEXTS.addMembers }));
    const dialog = await screen.findByRole('dialog', { name: TEAM_MEMBERS_TEXTS.modalTitle });
    await user.click(await within(dialog).findByRole('checkbox', { name: new RegExp(carol.name) }));
    await user.click(within(dialog).getByRole('button', { name: TEAM_MEMBERS_TEXTS.add }));
    expect(await screen.findByText(`No person has id ${carol.id}.`)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: TEAM_MEMBERS_TEXTS.modalTitle })).toBeInTheDocument();
  });
});

describe('the Job History tab', () => {
  it("lists the runs recorded against this team (resource_type 'team', resource_id)", async () => {
    const { user, platform } = open('/settings/teams/:platform');
    const requests: URLSearchParams[] = [];
    server.use(
      http.get('*/api/db/job_histories', ({ request }) => {
        requests.push(new URL(request.url).searchParams);
        return HttpResponse.json([], { headers: { 'content-range': '*/0' } });
      }),
      http.get('*/api/db/job_history_names', () => HttpResponse.json([])),
    );
    await teamForm();
    await user.click(screen.getByRole('tab', { name: TEAMS_PAGE_TEXTS.tabs.jobHistory }));
    await waitFor(() => expect(requests.length).toBeGreaterThan(0));
    expect(requests.at(-1)!.get('resource_type.filter')).toBe('team');
    expect(requests.at(-1)!.get('resource_id')).toBe(`eq.${platform.id}`);
    expect(await screen.findByText(VIEW_MESSAGES.emptyTable)).toBeInTheDocument();
  });
});
