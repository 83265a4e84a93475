import { mkdir } from 'node:fs/promises';
import { CONNECTIONS_PAGE_TEXTS, CONNECTION_MESSAGES } from '@lookout/contracts';
import { startTestPostgres, type TestPostgres } from '@lookout/embedded-postgres/testing';
import pg from 'pg';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
/** The account the connection signs in with on the test PostgreSQL (scram-sha-256). */
const DB_USER = 'orders_app';
const DB_PASSWORD = 'Orders-e2e-password-1';

/**
 * The Connections journey of issue 12 in a real browser against the built server: an admin
 * adds a postgres connection pointing at a test PostgreSQL, tests it (ok), saves a wrong
 * password and tests again (the server's own error), and deletes it. The password is never
 * read back.
 */
describe('the connections page in Chromium', () => {
  let lookout: ConsoleSession;
  let server: LookoutServer;
  let target: TestPostgres;
  let context: BrowserContext;
  let targetUrl: string;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    target = await startTestPostgres({ prefix: 'lookout-e2e-conn-' });
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE ${DB_USER} LOGIN PASSWORD '${DB_PASSWORD}'`);
    } finally {
      await admin.end();
    }
    // The same server and database, without the superuser's credentials.
    const url = new URL(target.url);
    url.username = '';
    url.password = '';
    targetUrl = url.toString();

    lookout = await startConsole({ postgres: false });
    ({ server } = lookout);
    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
  });
  afterAll(async () => {
    await lookout?.stop();
    await target?.stop();
  });

  const table = (page: Page) => page.getByRole('table', { name: CONNECTIONS_PAGE_TEXTS.title });
  const rowOf = (page: Page, name: string) => table(page).getByRole('row').filter({ hasText: name });

  async function openConnection(page: Page, name: string): Promise<Locator> {
    await rowOf(page, name).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Connection' });
    await dialog.waitFor();
    return dialog;
  }

  async function runTest(page: Page, dialog: Locator): Promise<string> {
    await dialog.getByRole('button', { name: CONNECTIONS_PAGE_TEXTS.test }).click();
    const outcome = dialog.getByTestId('connection-test-outcome');
    await outcome.waitFor({ timeout: 30_000 });
    return (await outcome.textContent()) ?? '';
  }

  it('adds a postgres connection, tests it, breaks its password, tests again and deletes it', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/settings/connections`);
    await page.getByRole('heading', { name: CONNECTIONS_PAGE_TEXTS.title, level: 1 }).waitFor();
    await page.getByText(CONNECTIONS_PAGE_TEXTS.empty).waitFor();
    expect(await page.title()).toBe('Connections | Lookout');
    const settings = page.getByRole('navigation', { name: 'Main' }).getByRole('list', { name: 'Settings' });
    expect(await settings.getByRole('link').first().textContent()).toBe('Connections');
    await page.screenshot({ path: `${ARTIFACTS}connections-empty.png` });

    // Add: the type first, then its form.
    await page.getByRole('button', { name: CONNECTIONS_PAGE_TEXTS.add }).click();
    const picker = page.getByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.chooseType });
    await picker.waitFor();
    await page.screenshot({ path: `${ARTIFACTS}connections-type-picker.png` });
    await picker.getByRole('searchbox').fill('postg');
    await picker.getByRole('button', { name: 'Postgres' }).click();
    const form = page.getByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.add });
    await form.waitFor();
    expect(await form.getByLabel('Namespace', { exact: true }).inputValue()).toBe('default');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await form.getByText(CONNECTION_MESSAGES.required).count()).toBe(4);
    await form.getByLabel('Name', { exact: true }).fill('orders-db');
    await form.getByLabel('URL', { exact: true }).fill(targetUrl);
    await form.getByLabel('Username', { exact: true }).fill(DB_USER);
    await form.getByLabel('Password', { exact: true }).fill(DB_PASSWORD);
    await page.screenshot({ path: `${ARTIFACTS}connections-postgres-form.png` });
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText(CONNECTION_MESSAGES.added).waitFor();
    await rowOf(page, 'orders-db').waitFor();
    expect(await rowOf(page, 'orders-db').textContent()).toContain('Postgres');
    await page.screenshot({ path: `${ARTIFACTS}connections-list.png` });

    // The list never carries the password, only that one is set.
    const listed = await page.request.get(`${server.url}/api/db/connections?select=*&deleted_at=is.null`);
    const body = await listed.text();
    expect(body).not.toContain(DB_PASSWORD);
    expect((JSON.parse(body) as { password: string }[])[0]?.password).toBe('***');

    // Test: the stored credentials work.
    let dialog = await openConnection(page, 'orders-db');
    expect(await dialog.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    expect(await dialog.getByText(CONNECTION_MESSAGES.secretStored).isVisible()).toBe(true);
    expect(await runTest(page, dialog)).toContain(CONNECTION_MESSAGES.testOk);
    await page.screenshot({ path: `${ARTIFACTS}connections-test-ok.png` });

    // Saving without touching the password keeps it.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(CONNECTION_MESSAGES.updated).first().waitFor();
    dialog = await openConnection(page, 'orders-db');
    expect(await runTest(page, dialog)).toContain(CONNECTION_MESSAGES.testOk);

    // A wrong password: the test answers with PostgreSQL's own error.
    await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    dialog = await openConnection(page, 'orders-db');
    const failure = await runTest(page, dialog);
    expect(failure).toContain(`password authentication failed for user "${DB_USER}"`);
    expect(failure).not.toContain('not-the-password');
    await page.screenshot({ path: `${ARTIFACTS}connections-test-failed.png` });

    // Delete, after confirming.
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: CONNECTIONS_PAGE_TEXTS.deleteTitle('orders-db') });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(CONNECTION_MESSAGES.deleted).waitFor();
    await page.getByText(CONNECTIONS_PAGE_TEXTS.empty).waitFor();
    expect(await rowOf(page, 'orders-db').count()).toBe(0);

    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  it('shows a notification type with its service URL and no credential in it', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/settings/connections`);
    await page.getByRole('button', { name: CONNECTIONS_PAGE_TEXTS.add }).click();
    const picker = page.getByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.chooseType });
    await picker.getByRole('button', { name: 'Email' }).click();
    const form = page.getByRole('dialog', { name: CONNECTIONS_PAGE_TEXTS.add });
    expect(await form.getByLabel('Port', { exact: true }).inputValue()).toBe('587');
    expect(await form.getByLabel('Encryption Method', { exact: true }).inputValue()).toBe('Auto');
    await form.getByLabel('Name', { exact: true }).fill('alerts-mail');
    await form.getByLabel('Host', { exact: true }).fill('smtp.example.org');
    await form.getByLabel('Username', { exact: true }).fill('alerts');
    await form.getByLabel('Password', { exact: true }).fill('Mail-e2e-secret');
    await form.getByLabel('From Address', { exact: true }).fill('alerts@example.org');
    await form.getByLabel('From Name', { exact: true }).fill('Lookout');
    await form.getByText('smtp://$(username):$(password)@smtp.example.org:587/').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}connections-email-form.png` });
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText(CONNECTION_MESSAGES.added).waitFor();
    await rowOf(page, 'alerts-mail').waitFor();

    const listed = await page.request.get(
      `${server.url}/api/db/connections?select=url,password,properties&name=eq.alerts-mail`,
    );
    const body = await listed.text();
    expect(body).not.toContain('Mail-e2e-secret');
    const [row] = JSON.parse(body) as { url: string; properties: Record<string, string> }[];
    expect(row?.properties).toMatchObject({ host: 'smtp.example.org', port: '587', from: 'alerts@example.org' });
    expect(row?.url).toMatch(/^smtp:\/\/\$\(username\):/);
    await page.close();
  });
});
