import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  NOTIFICATION_HISTORY_TEXTS,
  NOTIFICATION_MESSAGES,
  NOTIFICATION_RULES_TEXTS,
  NOTIFICATION_SILENCES_TEXTS,
  NOTIFICATION_TRACE_OUTCOME_TEXTS,
  SILENCE_LINK_TEXT,
} from '@lookout/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const CHECK_NAME = 'shop-home';

/** Starts a local HTTP server on a free port. */
async function listen(handler: (request: IncomingMessage, body: string) => number): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.writeHead(handler(request, body), { 'content-type': 'text/plain' });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/**
 * The notifications journey of issue 15 in Chromium against the built server: a rule to a local
 * webhook is made in the UI; a failing check sends to it; the send history shows the row and its
 * details; 'why did this notify?' explains it; the check drawer's Silence link adds a silence,
 * after which the next failure is recorded as Silenced.
 */
describe('notifications in Chromium', () => {
  let lookout: ConsoleSession;
  let server: LookoutServer;
  let context: BrowserContext;
  let page: Page;
  let target: Server;
  let receiver: Server;
  let targetStatus = 200;
  const delivered: { path: string; body: string }[] = [];
  let checkId = '';

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    target = await listen(() => targetStatus);
    receiver = await listen((request, body) => {
      delivered.push({ path: request.url ?? '', body });
      return 200;
    });
    lookout = await startConsole({ postgres: false });
    ({ server } = lookout);
    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
    page = await context.newPage();
    await page.goto(server.url);

    // A canary whose check calls the local target, and a webhook connection to the receiver,
    // through the APIs the console uses (their own pages are covered by their journeys).
    const setup = await page.evaluate(
      async ({ targetUrl, hookUrl, name }) => {
        const applied = await fetch('/api/canary/apply', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            apiVersion: 'canaries.flanksource.com/v1',
            kind: 'Canary',
            metadata: { name: 'shop', namespace: 'default' },
            spec: { schedule: '@every 1h', http: [{ name, url: targetUrl, responseCodes: [200] }] },
          }),
        });
        const { checks } = (await applied.json()) as { checks: { id: string }[] };
        const connection = await fetch('/api/db/connections', {
          method: 'POST',
          headers: { 'content-type': 'application/json', prefer: 'return=representation' },
          body: JSON.stringify({ name: 'shop-hook', namespace: 'default', type: 'webhook', url: hookUrl }),
        });
        return { checkId: checks[0]!.id, connection: connection.status };
      },
      { targetUrl: `${urlOf(target)}/`, hookUrl: `${urlOf(receiver)}/hook`, name: CHECK_NAME },
    );
    expect(setup.connection).toBe(201);
    checkId = setup.checkId;
    await runCheck(); // passes first, so the next failure is a change
  }, 180_000);
  afterAll(async () => {
    await lookout?.stop();
    await new Promise((resolve) => target?.close(resolve));
    await new Promise((resolve) => receiver?.close(resolve));
  });

  /** Runs the check now, as the drawer's Run Now does. */
  const runCheck = () =>
    page.evaluate(async (id) => {
      const run = await fetch(`/api/canary/run/check/${id}`, { method: 'POST' });
      return run.status;
    }, checkId);

  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();

  it('creates a rule to the webhook from the Rules page', async () => {
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/notifications/rules`);
    await page.getByRole('heading', { level: 1, name: NOTIFICATION_RULES_TEXTS.title }).waitFor();
    await page.getByText(NOTIFICATION_MESSAGES.emptyRules).waitFor();
    await page.getByRole('button', { name: NOTIFICATION_RULES_TEXTS.add }).click();
    const dialog = page.getByRole('dialog', { name: NOTIFICATION_RULES_TEXTS.createTitle });
    await dialog.getByLabel('Title').fill('Shop down');
    await dialog.getByLabel('check.failed').check();
    await dialog.getByRole('tab', { name: 'Others' }).click();
    const connection = dialog.getByRole('combobox', { name: 'Connection' });
    await connection.locator('option', { hasText: 'shop-hook (webhook)' }).waitFor({ state: 'attached' });
    await connection.selectOption({ label: 'shop-hook (webhook)' });
    await dialog.getByRole('combobox', { name: 'Repeat Interval' }).selectOption('1h');
    await page.screenshot({ path: `${ARTIFACTS}notifications-rule-dialog.png` });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(NOTIFICATION_MESSAGES.ruleCreated);
    const row = page
      .getByRole('table', { name: NOTIFICATION_RULES_TEXTS.table })
      .getByRole('row', { name: /Shop down/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('connection://default/shop-hook');
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('sends to the webhook when the check fails, and shows the send with its details', async () => {
    targetStatus = 500;
    expect(await runCheck()).toBe(200);
    await expect.poll(() => delivered.length, { timeout: 60_000, interval: 500 }).toBeGreaterThan(0);
    expect(delivered[0]!.path).toBe('/hook');
    expect(delivered[0]!.body).toContain(CHECK_NAME);

    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/notifications`);
    const table = page.getByRole('table', { name: NOTIFICATION_HISTORY_TEXTS.table });
    const row = table.getByRole('row', { name: new RegExp(CHECK_NAME) });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await row.count()) > 0 ? await row.first().textContent() : '';
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toContain('Sent');
    expect(await row.first().textContent()).toContain('check.failed');
    await page.screenshot({ path: `${ARTIFACTS}notifications-history.png` });

    await row.first().getByText('check.failed').click();
    await page.waitForURL((url) => url.searchParams.has('id'));
    const details = page.getByRole('dialog', { name: NOTIFICATION_HISTORY_TEXTS.details.title });
    // The rendered Markdown message, as the webhook received it.
    await details.getByLabel(NOTIFICATION_HISTORY_TEXTS.details.body).getByText(CHECK_NAME).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}notifications-details.png` });

    // Why did it notify: the rule listed the event, had no filter, and queued the message.
    await details.getByRole('link', { name: NOTIFICATION_HISTORY_TEXTS.details.why }).click();
    await page.waitForURL((url) => url.pathname === '/notifications/why');
    await page.getByText(NOTIFICATION_TRACE_OUTCOME_TEXTS.queued).first().waitFor();
    await page.screenshot({ path: `${ARTIFACTS}notifications-why.png` });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('silences the check from its drawer; the next failure is recorded as Silenced', async () => {
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/health?hidePassing=false&groupBy=no-group&checkId=${checkId}`);
    const drawer = page.getByRole('dialog', { name: new RegExp(CHECK_NAME) });
    await drawer.getByRole('link', { name: SILENCE_LINK_TEXT }).click();
    await page.waitForURL((url) => url.pathname === '/notifications/silences/add');
    expect(new URL(page.url()).searchParams.get('check_id')).toBe(checkId);
    expect(await page.getByRole('radio', { name: 'Check' }).getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => page.getByRole('combobox', { name: 'Check' }).inputValue()).toBe(checkId);
    await page.getByRole('combobox', { name: 'For' }).selectOption('1d');
    await page.getByLabel('Reason').fill('shop maintenance');
    await page.screenshot({ path: `${ARTIFACTS}notifications-silence-add.png` });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => url.pathname === '/notifications/silences');
    const silences = page.getByRole('table', { name: NOTIFICATION_SILENCES_TEXTS.table });
    await silences.getByRole('row', { name: /shop maintenance/ }).waitFor();
    await silences.getByRole('link', { name: CHECK_NAME }).waitFor();
    await silences.getByRole('cell', { name: 'Admin', exact: true }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}notifications-silences.png` });

    // Passing, then failing again: the failure is recorded as silenced and nothing is sent.
    const sentBefore = delivered.length;
    targetStatus = 200;
    await runCheck();
    targetStatus = 500;
    await runCheck();
    await page.goto(`${server.url}/notifications?status=silenced:1`);
    const silencedRow = page
      .getByRole('table', { name: NOTIFICATION_HISTORY_TEXTS.table })
      .getByRole('row', { name: new RegExp(CHECK_NAME) });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return silencedRow.count();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);
    expect(await silencedRow.first().textContent()).toContain('Silenced');
    expect(delivered.length).toBe(sentBefore);
    await page.screenshot({ path: `${ARTIFACTS}notifications-silenced-history.png` });

    // Why didn't it notify: the silence held it back.
    await silencedRow.first().getByText('check.failed').click();
    const details = page.getByRole('dialog', { name: NOTIFICATION_HISTORY_TEXTS.details.title });
    await details.getByRole('link', { name: NOTIFICATION_HISTORY_TEXTS.details.why }).click();
    await page.waitForURL((url) => url.pathname === '/notifications/why');
    await page.getByText(NOTIFICATION_TRACE_OUTCOME_TEXTS.silenced).first().waitFor();
    await page.screenshot({ path: `${ARTIFACTS}notifications-why-silenced.png` });

    // The rule's statistics count the one message sent.
    await page.goto(`${server.url}/notifications/rules`);
    const rule = page
      .getByRole('table', { name: NOTIFICATION_RULES_TEXTS.table })
      .getByRole('row', { name: /Shop down/ });
    await rule.waitFor();
    await expect.poll(async () => (await rule.getByRole('cell').nth(6).textContent()) ?? '').toBe('1');
    await page.screenshot({ path: `${ARTIFACTS}notifications-rules.png` });
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
