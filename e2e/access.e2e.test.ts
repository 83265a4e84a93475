import { mkdir } from 'node:fs/promises';
import {
  EMAIL_OUTBOX_TEXTS,
  FEATURE_FLAG_MESSAGES,
  FEATURE_FLAGS_PAGE_TEXTS,
  IDENTITY_MESSAGES,
  SECRETS_PAGE_TEXTS,
  USERS_PAGE_TEXTS,
  VIEW_MESSAGES,
  userInvitedMessage,
} from '@lookout/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signIn as signInAs, unexpectedErrors, watchConsole } from './support/browser.js';
import { makeDataDir, startLookout, type LookoutServer } from './support/lookout-server.js';
import { ADMIN_SETTINGS_MENU, ADMIN_SETTINGS_MENU_WITHOUT_USERS } from './support/settings-menu.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'Lookout-admin-e2e-1';

interface Invitee {
  firstName: string;
  lastName: string;
  email: string;
  role: 'editor' | 'viewer';
  password: string;
  link?: string;
}

const editor: Invitee = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  role: 'editor',
  password: 'Quiet-Harbor-Lamp-81',
};
const viewer: Invitee = {
  firstName: 'Alan',
  lastName: 'Turing',
  email: 'alan@example.com',
  role: 'viewer',
  password: 'Amber-Forest-Kite-42',
};

// Editors read connections (not write), and neither the secret store nor the email outbox.
const EDITOR_SETTINGS = ADMIN_SETTINGS_MENU.filter(
  (title) => title !== SECRETS_PAGE_TEXTS.menu && title !== EMAIL_OUTBOX_TEXTS.title,
);

/**
 * The access journey of issue 5 in a real browser against the built server: the admin
 * invites an editor and a viewer (no SMTP, so the invite answers with the link); each opens
 * their link, chooses a password, signs in and sees exactly the menus and actions their role
 * allows; the viewer gets the Unauthorized view on /settings/users; a feature flag set on the
 * Feature Flags page removes the Users menu item and route.
 */
describe('roles, permissions and feature flags in Chromium', () => {
  let server: LookoutServer;
  let browser: Browser;
  let admin: BrowserContext;
  let removeData: () => Promise<void>;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    const data = await makeDataDir();
    removeData = data.remove;
    server = await startLookout({
      dataDir: data.dir,
      env: {
        LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL,
        LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD,
        // A flag from the server's configuration: source local, read-only on the flags page.
        LOOKOUT_PROPERTIES: 'logs.disable=true',
      },
    });
    browser = await launchBrowser();
    admin = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await admin.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.close();
  });
  afterAll(async () => {
    await admin?.close();
    await browser?.close();
    await server?.stop();
    await removeData?.();
  });

  const signIn = (page: Page, email: string, password: string) => signInAs(page, server.url, email, password);

  /** The labels of the Settings submenu, or null when the sidebar has no Settings at all. */
  async function settingsMenu(page: Page): Promise<string[] | null> {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    const button = nav.getByRole('button', { name: 'Settings' });
    if ((await button.count()) === 0) return null;
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    const list = nav.getByRole('list', { name: 'Settings' });
    await list.waitFor();
    return (await list.getByRole('link').allTextContents()).map((text) => text.trim());
  }

  async function usersTable(page: Page) {
    const table = page.getByRole('table', { name: USERS_PAGE_TEXTS.title });
    await table.waitFor();
    return table;
  }

  async function invite(page: Page, invitee: Invitee) {
    await page.getByRole('button', { name: USERS_PAGE_TEXTS.invite }).click();
    const dialog = page.getByRole('dialog', { name: USERS_PAGE_TEXTS.invite });
    await dialog.waitFor();
    await dialog.getByLabel('First Name').fill(invitee.firstName);
    await dialog.getByLabel('Last Name').fill(invitee.lastName);
    await dialog.getByLabel('Email').fill(invitee.email);
    await dialog.getByLabel('Role').selectOption(invitee.role);
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText(userInvitedMessage(`${invitee.firstName} ${invitee.lastName}`)).waitFor();
    const link = dialog.getByRole('textbox', { name: 'Invitation link' });
    await link.waitFor();
    invitee.link = await link.inputValue();
    expect(invitee.link).toMatch(/\/api\/\.ory\/self-service\/recovery\?/);
    return dialog;
  }

  it('lets the admin invite an editor and a viewer, handing over each link', async () => {
    const page = await admin.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/`);
    // The email outbox is the admin's alone (the editor's menu below lacks it).
    expect(await settingsMenu(page)).toEqual(ADMIN_SETTINGS_MENU);
    await page.getByRole('link', { name: USERS_PAGE_TEXTS.title }).click();
    await page.waitForURL((url) => url.pathname === '/settings/users');
    const table = await usersTable(page);
    await table.getByText(ADMIN_EMAIL).waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Name',
      'Email',
      'Roles',
      'State',
      'Created At',
      'Actions',
    ]);

    const dialog = await invite(page, editor);
    await page.screenshot({ path: `${ARTIFACTS}access-invite-link.png` });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await (await invite(page, viewer)).getByRole('button', { name: 'Done' }).click();

    const graceRow = table.getByRole('row').filter({ hasText: editor.email });
    await graceRow.getByText('editor').waitFor();
    const alanRow = table.getByRole('row').filter({ hasText: viewer.email });
    await alanRow.getByText('viewer').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}access-admin-users.png` });

    // The validation texts of spec 1, section 5, straight from the form.
    await page.getByRole('button', { name: USERS_PAGE_TEXTS.invite }).click();
    const empty = page.getByRole('dialog', { name: USERS_PAGE_TEXTS.invite });
    await empty.getByRole('button', { name: 'Invite', exact: true }).click();
    for (const text of [
      'Please provide valid first name',
      'Please provide valid last name',
      'Please provide valid email',
      'Please select any role',
    ]) {
      await empty.getByText(text, { exact: true }).waitFor();
    }
    await page.screenshot({ path: `${ARTIFACTS}access-invite-validation.png` });
    await page.keyboard.press('Escape');

    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  /** Opens the invitation link in a fresh browser, chooses a password, signs out and back in. */
  async function acceptInvitation(
    invitee: Invitee,
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    if (!invitee.link) throw new Error(`no invitation link for ${invitee.email}`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(invitee.link);
    await page.waitForURL((url) => url.pathname === '/profile-settings');
    const password = page.getByTestId('settings-section-password');
    await password.waitFor();
    await password.getByLabel('Password').fill(invitee.password);
    await password.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your changes have been saved!').waitFor();

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: IDENTITY_MESSAGES.signOut }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await signIn(page, invitee.email, invitee.password);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText(IDENTITY_MESSAGES.greeting(`${invitee.firstName} ${invitee.lastName}`)).waitFor();
    await page.keyboard.press('Escape');
    return { context, page, errors };
  }

  it('lets the editor in with Settings, reading users without Invite or Actions, and writing flags', async () => {
    const { context, page, errors } = await acceptInvitation(editor);
    expect(await settingsMenu(page)).toEqual(EDITOR_SETTINGS);

    await page.goto(`${server.url}/settings/users`);
    const table = await usersTable(page);
    await table.getByText(viewer.email).waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Name',
      'Email',
      'Roles',
      'State',
      'Created At',
    ]);
    expect(await page.getByRole('button', { name: USERS_PAGE_TEXTS.invite }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Actions for/ }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}access-editor-users.png` });

    await page.goto(`${server.url}/settings/feature-flags`);
    await page.getByRole('table', { name: FEATURE_FLAGS_PAGE_TEXTS.title }).waitFor();
    await page.getByRole('button', { name: FEATURE_FLAGS_PAGE_TEXTS.add }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}access-editor-flags.png` });

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('lets the viewer in without Settings, shows Unauthorized on /settings/users and flags read-only', async () => {
    const { context, page, errors } = await acceptInvitation(viewer);
    expect(await settingsMenu(page)).toBeNull();
    await page.screenshot({ path: `${ARTIFACTS}access-viewer-home.png` });

    await page.goto(`${server.url}/settings/users`);
    await page.getByText(VIEW_MESSAGES.unauthorized).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.getByRole('button', { name: USERS_PAGE_TEXTS.invite }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}access-viewer-unauthorized.png` });

    await page.goto(`${server.url}/settings/feature-flags`);
    const flags = page.getByRole('table', { name: FEATURE_FLAGS_PAGE_TEXTS.title });
    await flags.getByText('logs.disable').waitFor();
    expect(await page.getByRole('button', { name: FEATURE_FLAGS_PAGE_TEXTS.add }).count()).toBe(0);

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it("keeps a local flag read-only, and a flag set on the Feature Flags page removes Users' menu item and route", async () => {
    const page = await admin.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/settings/feature-flags`);
    const flags = page.getByRole('table', { name: FEATURE_FLAGS_PAGE_TEXTS.title });
    await flags.getByText('logs.disable').click();
    const local = page.getByRole('dialog', { name: 'Feature Flag' });
    await local.getByText(FEATURE_FLAG_MESSAGES.localReadOnly).waitFor();
    expect(await local.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}access-local-flag.png` });
    await page.keyboard.press('Escape');
    await local.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: FEATURE_FLAGS_PAGE_TEXTS.add }).click();
    const add = page.getByRole('dialog', { name: 'Add Feature Flag' });
    await add.getByRole('button', { name: 'Save' }).click();
    await add.getByText(FEATURE_FLAG_MESSAGES.required).waitFor();
    await add.getByLabel('Name').fill('settings.users.disable');
    await add.getByLabel('Value').fill('true');
    await add.getByLabel('Description').fill('Users are managed in the company directory');
    await add.getByRole('button', { name: 'Save' }).click();
    await page.getByText(FEATURE_FLAG_MESSAGES.added).waitFor();
    await flags.getByText('settings.users.disable').waitFor();
    // The menus follow at once, without a reload (the email outbox goes with the Users page).
    await expect.poll(() => settingsMenu(page)).toEqual(ADMIN_SETTINGS_MENU_WITHOUT_USERS);
    await page.screenshot({ path: `${ARTIFACTS}access-feature-flags.png` });

    await page.goto(`${server.url}/settings/users`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}access-users-disabled.png` });

    // Removing the flag brings the page back.
    await page.goto(`${server.url}/settings/feature-flags`);
    await flags.getByText('settings.users.disable').click();
    const edit = page.getByRole('dialog', { name: 'Edit Feature Flag' });
    await edit.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(FEATURE_FLAG_MESSAGES.removed).waitFor();
    await expect.poll(() => settingsMenu(page)).toEqual(ADMIN_SETTINGS_MENU);
    await page.goto(`${server.url}/settings/users`);
    await usersTable(page);

    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });
});
