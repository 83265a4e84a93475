import { mkdir } from 'node:fs/promises';
import { TEAM_MEMBERS_TEXTS, TEAM_TOASTS, TEAMS_PAGE_TEXTS, VIEW_MESSAGES } from '@lookout/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const USERS = [
  { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  { firstName: 'Bob', lastName: 'Builder', email: 'bob@example.com' },
] as const;
const [ADA, BOB] = ['Ada Lovelace', 'Bob Builder'] as const;

/**
 * The Teams journey of issue 12 in a real browser against the built server: the admin creates
 * a team with a spec, adds two users as members, removes one, updates the team (its name fixed) and deletes
 * it, each step with the spec's toast, and the data API agrees at the end.
 */
describe('the teams pages in Chromium', () => {
  let lookout: ConsoleSession;
  let server: LookoutServer;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole({ postgres: false });
    ({ server } = lookout);
    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
    page = await context.newPage();
    ({ errors } = watchConsole(page));
    await page.goto(server.url);
    // Two users to add: invited through the API the Users page uses, from the signed-in page.
    for (const user of USERS) {
      const status = await page.evaluate(
        async (body) =>
          (
            await fetch('/api/auth/invite_user', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ ...body, role: 'viewer' }),
            })
          ).status,
        user,
      );
      expect(status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await lookout?.stop();
  });

  /** Waits for a toast with exactly this text. */
  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
  const teamRow = (name: string) =>
    page.getByRole('table', { name: TEAMS_PAGE_TEXTS.title }).getByRole('row', { name });
  /** The membership rows the data API holds for a team, read as the console reads them. */
  const membersOf = (teamId: string) =>
    page.evaluate(async (id) => {
      const response = await fetch(`/api/db/team_members?team_id=eq.${id}&select=person_id(name)`);
      return ((await response.json()) as { person_id: { name: string } }[]).map((row) => row.person_id.name).sort();
    }, teamId);

  let teamId = '';

  it('creates a team from Settings > Teams, with a spec, and returns to the list', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('link', { name: TEAMS_PAGE_TEXTS.title, exact: true }).click();
    await page.waitForURL(`${server.url}/settings/teams`);
    await page.getByRole('heading', { level: 1, name: TEAMS_PAGE_TEXTS.title }).waitFor();
    await page.getByText(VIEW_MESSAGES.emptyTable).waitFor();
    expect(await page.title()).toBe('Teams | Lookout');

    await page.getByRole('link', { name: TEAMS_PAGE_TEXTS.add }).click();
    await page.getByRole('heading', { level: 1, name: TEAMS_PAGE_TEXTS.titleNew }).waitFor();
    const form = page.getByRole('form', { name: 'Team' });
    expect(await form.getByLabel(TEAMS_PAGE_TEXTS.fields.icon).inputValue()).toBe('group');
    await form.getByRole('button', { name: TEAMS_PAGE_TEXTS.save }).click();
    await form.getByText('This field is required').waitFor();

    await form.getByLabel(TEAMS_PAGE_TEXTS.fields.name).fill('Platform');
    await form.getByRole('textbox', { name: TEAMS_PAGE_TEXTS.fields.spec }).click();
    await page.keyboard.type('notifications:\n- connection: connection://default/slack');
    await page.screenshot({ path: `${ARTIFACTS}teams-new.png` });
    await form.getByRole('button', { name: TEAMS_PAGE_TEXTS.save }).click();
    await toast(TEAM_TOASTS.created('Platform'));
    await page.waitForURL(`${server.url}/settings/teams`);
    await teamRow('Platform').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}teams-list.png` });
  });

  it('adds two members in the Members tab, then removes one', async () => {
    await teamRow('Platform').click();
    await page.waitForURL((url) => /^\/settings\/teams\/[0-9a-f-]{36}$/.test(url.pathname));
    teamId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('tab', { name: TEAMS_PAGE_TEXTS.tabs.members }).click();
    await page.getByText(TEAM_MEMBERS_TEXTS.empty).waitFor();

    await page.getByRole('button', { name: TEAM_MEMBERS_TEXTS.addMembers }).click();
    const dialog = page.getByRole('dialog', { name: TEAM_MEMBERS_TEXTS.modalTitle });
    await dialog.getByRole('checkbox', { name: ADA }).check();
    await dialog.getByRole('checkbox', { name: BOB }).check();
    await page.screenshot({ path: `${ARTIFACTS}teams-add-members.png` });
    await dialog.getByRole('button', { name: TEAM_MEMBERS_TEXTS.add, exact: true }).click();
    await toast(TEAM_TOASTS.membersAdded([ADA, BOB]));
    const members = page.getByRole('table', { name: 'Members of Platform' });
    await members.getByText('bob@example.com').waitFor();
    expect(await membersOf(teamId)).toEqual([ADA, BOB]);
    await page.screenshot({ path: `${ARTIFACTS}teams-members.png` });

    await members.getByRole('button', { name: `${TEAM_MEMBERS_TEXTS.removeUser} ${BOB}` }).click();
    const confirm = page.getByRole('alertdialog', { name: TEAM_MEMBERS_TEXTS.removeConfirm(BOB, 'Platform') });
    await confirm.getByRole('button', { name: TEAM_MEMBERS_TEXTS.remove }).click();
    await toast(TEAM_TOASTS.memberRemoved(BOB));
    await members.getByText('bob@example.com').waitFor({ state: 'detached' });
    expect(await membersOf(teamId)).toEqual([ADA]);
  });

  it('updates the team in the Spec tab, its name fixed, and lists it with one member', async () => {
    await page.getByRole('tab', { name: TEAMS_PAGE_TEXTS.tabs.spec }).click();
    const form = page.getByRole('form', { name: 'Team' });
    // The name cannot change once the team exists (spec 2 section 5).
    expect(await form.getByLabel(TEAMS_PAGE_TEXTS.fields.name).getAttribute('readonly')).not.toBeNull();
    await form.getByLabel(TEAMS_PAGE_TEXTS.fields.icon).fill('users');
    await form.getByRole('button', { name: TEAMS_PAGE_TEXTS.update }).click();
    await toast(TEAM_TOASTS.updated('Platform'));
    await page.waitForURL(`${server.url}/settings/teams`);
    const row = teamRow('Platform');
    await row.waitFor();
    // The generic list has no members column (spec 3 section 2.6): one member left, by the API.
    expect(await membersOf(teamId)).toEqual([ADA]);
    await page.screenshot({ path: `${ARTIFACTS}teams-updated.png` });
  });

  it('deletes the team after confirmation; its membership rows stay', async () => {
    await teamRow('Platform').click();
    const form = page.getByRole('form', { name: 'Team' });
    await form.getByRole('button', { name: TEAMS_PAGE_TEXTS.delete }).click();
    const confirm = page.getByRole('alertdialog', { name: TEAMS_PAGE_TEXTS.deleteConfirm('Platform') });
    await page.screenshot({ path: `${ARTIFACTS}teams-delete-confirm.png` });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(TEAM_TOASTS.deleted('Platform'));
    await page.waitForURL(`${server.url}/settings/teams`);
    await page.getByText(VIEW_MESSAGES.emptyTable).waitFor();
    expect(await membersOf(teamId)).toEqual([ADA]);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
