import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INCIDENT_MESSAGES, INCIDENT_UI_TEXTS, LOGS_TEXTS } from '@lookout/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  journaldUnavailable,
  startJournalNamespace,
  type JournalNamespace,
} from '../apps/server/test/journald-namespace.js';
import { launchBrowser, signIn, unexpectedErrors, watchConsole } from './support/browser.js';
import { makeDataDir, startLookout, type LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'Lookout-admin-e2e-1';
const INCIDENT = 'Checkout payments failing';
// journald in a namespace of its own when the machine allows it (root, systemd-journald).
const noJournal = journaldUnavailable();

/**
 * The logs journey of issue 19 in a real browser against the built server: a topology whose
 * component has a file logs selector (and a journald one), the lines in /logs, a search, and
 * selected lines attached to a new incident as log evidence.
 */
describe('the logs page in Chromium', () => {
  let server: LookoutServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let journal: JournalNamespace | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];

  /** A call to the API with the browser's session. */
  const api = (path: string, method = 'GET', body?: unknown) =>
    page.evaluate(
      async ({ path, method, body }) => {
        const response = await fetch(path, {
          method,
          headers: { 'content-type': 'application/json', prefer: 'return=representation' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, json: (await response.json().catch(() => null)) as unknown };
      },
      { path, method, body },
    );

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    const logDir = await mkdtemp(join(tmpdir(), 'lookout-e2e-logs-'));
    cleanups.push(() => rm(logDir, { recursive: true, force: true }));
    const start = Date.now() - 200_000;
    const lines = Array.from({ length: 200 }, (_, index) =>
      JSON.stringify({
        time: new Date(start + index * 1000).toISOString(),
        level: index % 50 === 49 ? 'error' : 'info',
        msg: index % 50 === 49 ? `payment ${index} declined by the bank` : `order ${index} placed`,
      }),
    );
    await writeFile(join(logDir, 'checkout.log'), `${lines.join('\n')}\n`);
    if (!noJournal) {
      journal = await startJournalNamespace(`lookout-e2e-${process.pid}`);
      cleanups.push(() => journal?.stop() ?? Promise.resolve());
      await journal.write('checkout', ['journal says hello', 'journal says goodbye']);
    }
    const data = await makeDataDir();
    cleanups.push(data.remove);
    server = await startLookout({
      dataDir: data.dir,
      // Log backends may read only the directories listed here: the journal needs none (ADR 0043).
      env: { LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL, LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD, LOOKOUT_LOG_FILE_ROOTS: logDir },
    });
    cleanups.push(() => server.stop());
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    page = await context.newPage();
    ({ errors } = watchConsole(page));
    await signIn(page, server.url, ADMIN_EMAIL, ADMIN_PASSWORD);

    const backends = [{ name: 'checkout-files', spec: { file: { paths: [join(logDir, '*.log')], format: 'json' } } }];
    if (journal) backends.push({ name: 'journal', spec: { journald: { namespace: journal.namespace } } } as never);
    for (const backend of backends) expect((await api('/api/db/logging_backends', 'POST', backend)).status).toBe(201);
    const logs = [
      { name: 'app', type: 'checkout-files' },
      ...(journal ? [{ name: 'journal', type: 'journal', labels: { SYSLOG_IDENTIFIER: 'checkout' } }] : []),
    ];
    const topology = await api('/api/db/topologies', 'POST', {
      name: 'shop',
      namespace: 'default',
      spec: { type: 'Shop', schedule: '@every 1h', components: [{ name: 'checkout', type: 'Service', logs }] },
    });
    expect(topology.status).toBe(201);
    // The planner runs a new topology at once; its components then list their selectors.
    for (let waited = 0; ; waited += 1_000) {
      const listed = await api('/api/db/components_with_logs?select=name');
      if ((listed.json as unknown[]).length === 1) break;
      if (waited > 60_000) throw new Error('the topology run made no component with logs');
      await page.waitForTimeout(1_000);
    }
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }, 120_000);

  const table = () => page.getByRole('table', { name: 'Logs' });

  it('opens Logs from the sidebar and reads a file selector, newest first', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: LOGS_TEXTS.title }).click();
    await page.waitForURL((url) => url.pathname === '/logs');
    await page.getByText(LOGS_TEXTS.selectComponent).waitFor();
    await page.getByLabel(LOGS_TEXTS.componentLabel).selectOption({ label: 'checkout' });
    await table().getByText('order 198 placed').waitFor();
    const first = await table().getByRole('row').nth(1).textContent();
    expect(first).toContain('payment 199 declined by the bank');
    expect(first).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}\.\d{2}\.\d{3}/);
    expect(new URL(page.url()).searchParams.get('topologyId')).toMatch(/^[0-9a-f-]{36}$/);
    await page.screenshot({ path: `${ARTIFACTS}logs-file.png` });
  }, 60_000);

  it('searches, and says when nothing matches', async () => {
    await page.getByPlaceholder(LOGS_TEXTS.queryPlaceholder).fill('declined');
    await page.waitForURL((url) => url.searchParams.get('query') === 'declined');
    await expect.poll(() => table().getByRole('row').count(), { timeout: 15_000 }).toBe(5); // header + 4
    await page.getByText('4 of 4 lines').waitFor();
    await page.getByPlaceholder(LOGS_TEXTS.queryPlaceholder).fill('no such words');
    await page.getByText(LOGS_TEXTS.noMatches).waitFor();
    await page.getByPlaceholder(LOGS_TEXTS.queryPlaceholder).fill('declined');
    await table().getByText('payment 49 declined by the bank').waitFor();
  }, 60_000);

  it('attaches selected lines to a new incident as log evidence', async () => {
    await page.getByRole('checkbox', { name: 'Select line 1' }).check();
    await page.getByRole('checkbox', { name: 'Select line 2' }).check();
    await page.getByRole('button', { name: `${LOGS_TEXTS.attach} (2)` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: INCIDENT_UI_TEXTS.link.incident }).fill(INCIDENT);
    await dialog.getByRole('option', { name: INCIDENT_UI_TEXTS.link.create(INCIDENT) }).click();
    await page.screenshot({ path: `${ARTIFACTS}logs-link.png` });
    await dialog.getByRole('button', { name: INCIDENT_MESSAGES.linkButton }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: INCIDENT_MESSAGES.linked }).first().waitFor();
    const evidences = await api('/api/db/evidences?type=eq.log&select=type,component_id,evidence');
    const [evidence] = evidences.json as { component_id: string; evidence: { lines: { message: string }[] } }[];
    expect(evidence?.component_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(evidence?.evidence.lines.map((line) => line.message)).toEqual([
      'payment 149 declined by the bank',
      'payment 199 declined by the bank',
    ]);
  }, 60_000);

  it('reads a journald selector', async () => {
    if (noJournal) return console.warn(`SKIPPED logs e2e journald step: ${noJournal}`);
    await page.getByPlaceholder(LOGS_TEXTS.queryPlaceholder).fill('');
    await page.getByLabel(LOGS_TEXTS.selectorLabel).selectOption('journal');
    await table().getByText('journal says goodbye').waitFor({ timeout: 20_000 });
    await table().getByText('SYSLOG_IDENTIFIER=checkout').first().waitFor();
    await page.screenshot({ path: `${ARTIFACTS}logs-journald.png` });
    expect(unexpectedErrors(errors)).toEqual([]);
  }, 60_000);
});
