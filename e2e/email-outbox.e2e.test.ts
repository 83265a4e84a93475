import { mkdir } from 'node:fs/promises';
import {
  EMAIL_OUTBOX_STARTUP_WARNING,
  EMAIL_OUTBOX_TEXTS,
  IDENTITY_MESSAGES,
  USERS_PAGE_TEXTS,
  VIEW_MESSAGES,
  userInvitedMessage,
} from '@lookout/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signIn as signInAs, unexpectedErrors, watchConsole } from './support/browser.js';
import { makeDataDir, startLookout, type LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'Lookout-admin-e2e-1';
const INVITEE = { first: 'Nina', last: 'Newcomer', email: 'nina@example.com', password: 'Copper-Meadow-Lantern-27' };

/**
 * Issue 20 item 6 in a real browser against the built server, with no SMTP server: the start-up
 * warning points at the email outbox; the admin invites a user, opens Settings > Email outbox,
 * reads the invitation link from the message, and the invited user signs up with it. The link
 * never reaches the server's log.
 */
describe('the email outbox without SMTP, in Chromium', () => {
  let server: LookoutServer;
  let browser: Browser;
  let admin: BrowserContext;
  let removeData: () => Promise<void>;
  let link = '';

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    const data = await makeDataDir();
    removeData = data.remove;
    server = await startLookout({
      dataDir: data.dir,
      env: { LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL, LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD, LOOKOUT_SMTP_URL: '' },
    });
    browser = await launchBrowser();
    admin = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  });
  afterAll(async () => {
    await admin?.close();
    await browser?.close();
    await server?.stop();
    await removeData?.();
  });

  const signIn = (page: Page, email: string, password: string) => signInAs(page, server.url, email, password);

  it('says at start that mail is kept in the outbox at Settings > Email outbox', async () => {
    await expect.poll(() => server.output()).toContain(EMAIL_OUTBOX_STARTUP_WARNING);
  });

  it('lets the admin invite a user and read the invitation link in Settings > Email outbox', async () => {
    const page = await admin.newPage();
    const { errors } = watchConsole(page);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);

    await page.goto(`${server.url}/settings/users`);
    await page.getByRole('table', { name: USERS_PAGE_TEXTS.title }).waitFor();
    await page.getByRole('button', { name: USERS_PAGE_TEXTS.invite }).click();
    const invite = page.getByRole('dialog', { name: USERS_PAGE_TEXTS.invite });
    await invite.getByLabel('First Name').fill(INVITEE.first);
    await invite.getByLabel('Last Name').fill(INVITEE.last);
    await invite.getByLabel('Email').fill(INVITEE.email);
    await invite.getByLabel('Role').selectOption('viewer');
    await invite.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText(userInvitedMessage(`${INVITEE.first} ${INVITEE.last}`)).waitFor();
    await invite.getByRole('button', { name: 'Done' }).click();
    await invite.waitFor({ state: 'detached' });

    // Settings > Email outbox, from the sidebar.
    const nav = page.getByRole('navigation', { name: 'Main' });
    const settings = nav.getByRole('button', { name: 'Settings' });
    if ((await settings.getAttribute('aria-expanded')) !== 'true') await settings.click();
    await nav.getByRole('link', { name: EMAIL_OUTBOX_TEXTS.title }).click();
    await page.waitForURL((url) => url.pathname === '/settings/email-outbox');
    const table = page.getByRole('table', { name: EMAIL_OUTBOX_TEXTS.title });
    const row = table.getByRole('row').filter({ hasText: INVITEE.email });
    await row.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Recipient',
      'Subject',
      'Status',
      'Attempts',
      'Created',
      'Last error',
    ]);
    await row.getByText(EMAIL_OUTBOX_TEXTS.statuses.queued).waitFor();
    await page.getByRole('status').filter({ hasText: EMAIL_OUTBOX_TEXTS.smtpMissing }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}email-outbox.png` });

    await row.click();
    const message = page.getByRole('dialog', { name: 'You are invited to Lookout' });
    await message.getByText(`To ${INVITEE.email}`).waitFor();
    const body = (await message.locator('pre').textContent()) ?? '';
    link = /(https?:\/\/\S+\/api\/\.ory\/self-service\/recovery\?\S+)/.exec(body)?.[1] ?? '';
    expect(link.startsWith(`${server.url}/api/.ory/self-service/recovery?`)).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}email-outbox-message.png` });
    await message.getByRole('button', { name: EMAIL_OUTBOX_TEXTS.message.close }).click();
    await message.waitFor({ state: 'detached' });

    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  it('lets the invited user complete sign-up with the link read from the outbox', async () => {
    expect(link).not.toBe('');
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/profile-settings');
    const password = page.getByTestId('settings-section-password');
    await password.waitFor();
    await password.getByLabel('Password').fill(INVITEE.password);
    await password.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your changes have been saved!').waitFor();

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: IDENTITY_MESSAGES.signOut }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await signIn(page, INVITEE.email, INVITEE.password);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText(IDENTITY_MESSAGES.greeting(`${INVITEE.first} ${INVITEE.last}`)).waitFor();
    await page.keyboard.press('Escape');

    // A viewer has no Settings at all, and the outbox's address shows Unauthorized.
    await page.goto(`${server.url}/settings/email-outbox`);
    await page.getByText(VIEW_MESSAGES.unauthorized).waitFor();

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();

    // Neither the link nor its one-time token was ever written to the server's log.
    const token = new URL(link).searchParams.get('token') ?? '';
    expect(token).not.toBe('');
    expect(server.output()).not.toContain(link);
    expect(server.output()).not.toContain(`token=${token}`);
  });
});
