import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECRET_TOASTS, SECRETS_PAGE_TEXTS } from '@lookout/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const PASSWORD = 'e2e-secret-value-93b1f0';
const REPLACED = 'e2e-replaced-value-41d7aa';

/**
 * The secret store's journey in a real browser against the built server: the admin adds a
 * secret at Settings > Secrets, a canary's http check reads its password from it and passes
 * against a real server with basic auth, the value is replaced (write-only: the page shows
 * only that it is set) and the check follows, then the secret is deleted. No answer the
 * browser received and no line the server logged holds a value.
 */
describe('the secrets page in Chromium', () => {
  let lookout: ConsoleSession;
  let server: LookoutServer;
  let target: http.Server;
  let targetUrl: string;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const answers: Promise<string>[] = [];

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    // A server that wants `ops` with the first password.
    const expected = `Basic ${Buffer.from(`ops:${PASSWORD}`).toString('base64')}`;
    target = http.createServer((request, response) => {
      const ok = request.headers.authorization === expected;
      response.writeHead(ok ? 200 : 401, ok ? {} : { 'www-authenticate': 'Basic realm="e2e"' });
      response.end(ok ? 'welcome' : 'no');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;

    lookout = await startConsole({ postgres: false, env: { LOG_LEVEL: 'debug' } });
    ({ server } = lookout);
    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
    page = await context.newPage();
    ({ errors } = watchConsole(page));
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/')) answers.push(response.text().catch(() => ''));
    });
    await page.goto(server.url);
  }, 120_000);
  afterAll(async () => {
    await lookout?.stop();
    await new Promise((resolve) => target?.close(resolve));
  });

  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
  const secretRow = (name: string) =>
    page.getByRole('table', { name: SECRETS_PAGE_TEXTS.title }).getByRole('row', { name });

  /** Applies the canary and runs its check now, as the API the console uses; the run's result. */
  const applyAndRun = () =>
    page.evaluate(async (url) => {
      const applied = await fetch('/api/canary/apply', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          apiVersion: 'canaries.flanksource.com/v1',
          kind: 'Canary',
          metadata: { name: 'login-page', namespace: 'default' },
          spec: {
            schedule: '@every 1h',
            http: [
              {
                name: 'login',
                url,
                authentication: {
                  username: { value: 'ops' },
                  password: { valueFrom: { secretKeyRef: { name: 'web-login', key: 'password' } } },
                },
              },
            ],
          },
        }),
      });
      const { checks } = (await applied.json()) as { checks: { id: string }[] };
      const run = await fetch(`/api/canary/run/check/${checks[0]!.id}`, { method: 'POST' });
      return ((await run.json()) as { result: { status: boolean; message: string } }).result;
    }, targetUrl);

  it('adds a secret from Settings > Secrets', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('link', { name: SECRETS_PAGE_TEXTS.menu, exact: true }).click();
    await page.waitForURL(`${server.url}/settings/secrets`);
    await page.getByRole('heading', { level: 1, name: SECRETS_PAGE_TEXTS.title }).waitFor();
    await page.getByText(SECRETS_PAGE_TEXTS.empty).waitFor();
    expect(await page.title()).toBe('Secrets | Lookout');

    await page.getByRole('button', { name: SECRETS_PAGE_TEXTS.add }).click();
    const dialog = page.getByRole('dialog', { name: SECRETS_PAGE_TEXTS.titleNew });
    await dialog.getByLabel('Name', { exact: true }).fill('web-login');
    await dialog.getByLabel('Key 1').fill('password');
    await dialog.getByLabel('Value 1').fill(PASSWORD);
    await dialog.getByRole('button', { name: SECRETS_PAGE_TEXTS.addKey }).click();
    await dialog.getByLabel('Key 2').fill('username');
    await dialog.getByLabel('Value 2').fill('ops');
    await page.screenshot({ path: `${ARTIFACTS}secrets-new.png` });
    await dialog.getByRole('button', { name: SECRETS_PAGE_TEXTS.save }).click();
    await toast(SECRET_TOASTS.created('web-login'));
    await secretRow('web-login').waitFor();
    expect(await secretRow('web-login').textContent()).toContain('password, username');
    await page.screenshot({ path: `${ARTIFACTS}secrets-list.png` });
  });

  it('lets a canary read its password from it and pass against a real server', async () => {
    expect(await applyAndRun()).toMatchObject({ status: true });
  });

  it('shows a stored value only as set, and replaces it', async () => {
    await secretRow('web-login').click();
    const dialog = page.getByRole('dialog', { name: SECRETS_PAGE_TEXTS.titleEdit('web-login') });
    await dialog.getByText('secret://web-login/password').waitFor();
    expect(await dialog.getByText(SECRETS_PAGE_TEXTS.valueSet, { exact: true }).count()).toBe(2);
    expect(await dialog.getByLabel('Value 1').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}secrets-edit.png` });

    await dialog.getByRole('button', { name: `${SECRETS_PAGE_TEXTS.replace} password` }).click();
    await dialog.getByLabel('Value 1').fill(REPLACED);
    await page.screenshot({ path: `${ARTIFACTS}secrets-replace.png` });
    await dialog.getByRole('button', { name: SECRETS_PAGE_TEXTS.update }).click();
    await toast(SECRET_TOASTS.updated('web-login'));
    // The check reads the new value at once (the server still wants the old one).
    expect(await applyAndRun()).toMatchObject({ status: false, message: 'expected status 2xx, got 401' });
  });

  it('deletes the secret after confirmation; the check then says what is missing', async () => {
    await secretRow('web-login').click();
    const dialog = page.getByRole('dialog', { name: SECRETS_PAGE_TEXTS.titleEdit('web-login') });
    await dialog.getByRole('button', { name: SECRETS_PAGE_TEXTS.delete }).click();
    const confirm = page.getByRole('alertdialog', { name: SECRETS_PAGE_TEXTS.deleteConfirm('secret', 'web-login') });
    await page.screenshot({ path: `${ARTIFACTS}secrets-delete-confirm.png` });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(SECRET_TOASTS.deleted('web-login'));
    await page.getByText(SECRETS_PAGE_TEXTS.empty).waitFor();
    expect(await applyAndRun()).toMatchObject({
      status: false,
      message:
        "could not read the password from secret 'web-login' key 'password' (no secret 'web-login' in namespace 'default'; add it at Settings > Secrets)",
    });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('never sent a value to the browser or wrote one to the log', async () => {
    const bodies = await Promise.all(answers);
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) {
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toContain(REPLACED);
    }
    const log = server.output();
    expect(log).toContain('Secret store entry created');
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(REPLACED);
  });
});
