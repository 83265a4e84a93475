import { mkdir } from 'node:fs/promises';
import { EVENT_QUEUE_PAGE_TEXTS, JOB_HISTORY_TEXTS, SELF_CANARY_NAME } from '@lookout/contracts';
import type pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

/**
 * Issue 12 parts 3 and 4 in a real browser against the built server on a PostgreSQL of the
 * test's own: the admin opens Settings → Jobs History, filters it, opens a run's details, and
 * opens Settings → Event Queue with its most common error. Besides the runs Lookout records
 * itself (SyncCanary of `lookout-self`, the health jobs), the test writes the rows a catalog
 * scraper and a dead notification would leave, which this build cannot produce yet.
 */
describe('Jobs History and Event Queue in Chromium', () => {
  let server: LookoutServer;
  let db: pg.Client;
  let lookout: ConsoleSession;
  let context: BrowserContext;
  let selfCanaryId: string;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole();
    ({ server, db } = lookout);

    selfCanaryId = (
      await db.query<{ id: string }>('SELECT id FROM canaries WHERE name = $1 AND deleted_at IS NULL', [
        SELF_CANARY_NAME,
      ])
    ).rows[0]!.id;
    await db.query(
      `INSERT INTO job_history (name, status, resource_type, resource_id, success_count, error_count, duration_millis,
                                details, hostname, time_start, time_end, created_at) VALUES
         ('ScrapeKubernetes', 'FAILED', 'config_scraper', '0192a5d4-0000-7000-8000-00000000c0de', 12, 2, 3400,
          '{"errors": {"pod/payments-7d9f": {"error": "pods \\"payments-7d9f\\" is forbidden: User cannot get resource"},
                       "node/worker-2": {"error": "context deadline exceeded"}},
            "scrape_summary": {"pods": 12, "nodes": 3, "skipped": 2}}',
          'replica-a', now() - interval '20 minutes', now() - interval '20 minutes', now() - interval '20 minutes'),
         ('PushTopology', 'WARNING', NULL, NULL, 40, 1, 820,
          '{"errors": ["component api-gateway: no owner"], "summary": {"pushed": 40, "skipped": 1}}',
          'replica-a', now() - interval '2 hours', now() - interval '2 hours', now() - interval '2 hours')`,
    );
    await db.query(
      `INSERT INTO event_queue (name, event_id, properties, error, attempts, last_attempt, created_at) VALUES
         ('notification.send', '0192a5d4-0000-7000-8000-0000000000e1', '{"id": "n1"}',
          'smtp: 550 mailbox unavailable', 4, now() - interval '5 minutes', now() - interval '3 hours')`,
    );

    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
  });
  afterAll(async () => {
    await lookout?.stop();
  });

  async function openSettingsItem(page: Page, label: string): Promise<void> {
    const nav = page.getByRole('navigation', { name: 'Main' });
    const settings = nav.getByRole('button', { name: 'Settings' });
    // On a settings page the group is open already; a click would close it.
    await settings.waitFor();
    if ((await settings.getAttribute('aria-expanded')) !== 'true') await settings.click();
    await nav.getByRole('link', { name: label }).click();
  }

  it('lists job runs, filters them, links resources and opens the details of a run', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/health`);
    await openSettingsItem(page, JOB_HISTORY_TEXTS.title);
    await page.waitForURL((url) => url.pathname === '/settings/jobs');
    await page.getByRole('heading', { name: JOB_HISTORY_TEXTS.title, level: 1 }).waitFor();
    expect(await page.title()).toBe('Jobs History | Lookout');

    // The default view: everything but SUCCESS in the last 2 days.
    const table = page.getByRole('table', { name: JOB_HISTORY_TEXTS.table });
    const scrape = table.getByRole('row').filter({ hasText: 'ScrapeKubernetes' });
    await scrape.waitFor();
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'PushTopology' }).count()).toBe(1);
    expect(await table.getByRole('row').filter({ hasText: 'SyncCanary' }).count()).toBe(0);
    expect(await scrape.textContent()).toContain('Failed');
    expect(await scrape.textContent()).toContain('Catalog Scraper');
    await page.getByRole('button', { name: 'Status: !Success' }).waitFor();
    await page.getByRole('button', { name: 'Time range: Last 2 days' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}job-history.png` });

    // Every status: Lookout's own runs appear, the canary sync linked to its canary.
    await page.getByRole('button', { name: 'Status: !Success' }).click();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.keyboard.press('Escape');
    const sync = table.getByRole('row').filter({ hasText: 'SyncCanary' }).first();
    await sync.waitFor();
    expect(await sync.getByRole('link', { name: SELF_CANARY_NAME }).getAttribute('href')).toBe(
      `/settings/canaries/${selfCanaryId}`,
    );
    expect(new URL(page.url()).searchParams.get('status')).toBe('');

    // Only failed runs of one job, kept in the address.
    await page.getByRole('button', { name: 'Status: All' }).click();
    await page.getByRole('button', { name: 'Include Failed' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Job Name: All' }).click();
    await page.getByRole('button', { name: 'Include ScrapeKubernetes' }).click();
    await page.keyboard.press('Escape');
    await page.getByLabel(JOB_HISTORY_TEXTS.filters.duration).selectOption('1s');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    const search = new URL(page.url()).searchParams;
    expect(search.get('status')).toBe('FAILED:1');
    expect(search.get('name')).toBe('ScrapeKubernetes:1');
    expect(search.get('duration')).toBe('1s');
    await page.screenshot({ path: `${ARTIFACTS}job-history-filtered.png` });

    // A reload shows the same list.
    await page.reload();
    await table.getByRole('row').filter({ hasText: 'ScrapeKubernetes' }).waitFor();
    expect(await table.getByRole('row').count()).toBe(2);

    // The run's details open on Errors; its scrape summary is the other tab.
    await table.getByRole('row').filter({ hasText: 'ScrapeKubernetes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Details for job ScrapeKubernetes' });
    await dialog.waitFor();
    expect(await dialog.getByRole('tab').allTextContents()).toEqual([
      JOB_HISTORY_TEXTS.details.errors,
      JOB_HISTORY_TEXTS.details.scrapeSummary,
    ]);
    expect(await dialog.getByRole('tab', { name: 'Errors' }).getAttribute('aria-selected')).toBe('true');
    await dialog.getByText('pod/payments-7d9f').waitFor();
    await dialog.getByText('context deadline exceeded').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}job-history-details.png` });
    await dialog.getByRole('tab', { name: JOB_HISTORY_TEXTS.details.scrapeSummary }).click();
    await dialog.getByText('"skipped": 2').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  it('opens the Event Queue page with the most common error of a failing event', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/settings/jobs`);
    await openSettingsItem(page, EVENT_QUEUE_PAGE_TEXTS.title);
    await page.waitForURL((url) => url.pathname === '/settings/event-queue-status');
    await page.getByRole('heading', { name: EVENT_QUEUE_PAGE_TEXTS.title, level: 1 }).waitFor();

    const table = page.getByRole('table', { name: EVENT_QUEUE_PAGE_TEXTS.table });
    const failing = table.getByRole('row').filter({ hasText: 'notification.send' });
    await failing.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(
      Object.values(EVENT_QUEUE_PAGE_TEXTS.columns),
    );
    const cells = await failing.getByRole('cell').allTextContents();
    expect(cells.slice(0, 4)).toEqual(['notification.send', '0', '1', '4']);
    await page.screenshot({ path: `${ARTIFACTS}event-queue.png` });

    await failing.click();
    const dialog = page.getByRole('dialog', { name: EVENT_QUEUE_PAGE_TEXTS.error.title });
    await dialog.getByText('smtp: 550 mailbox unavailable').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}event-queue-error.png` });
    await dialog.getByRole('button', { name: EVENT_QUEUE_PAGE_TEXTS.error.close }).click();
    await dialog.waitFor({ state: 'detached' });

    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });
});
