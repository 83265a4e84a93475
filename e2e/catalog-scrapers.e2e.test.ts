import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_LINK_TOASTS, RELATIONSHIP_TEXTS, SCRAPER_TOASTS, SCRAPERS_PAGE_TEXTS } from '@lookout/contracts';
import type pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

/** Replaces the whole text of the page's YAML editor (CodeMirror) with `text`. */
async function replaceEditorText(page: Page, label: string, text: string) {
  await page.getByRole('textbox', { name: label }).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/**
 * Issue 13's scraper pages and Relationships tab in a real browser against the built server:
 * a file scraper created from /catalog/scrapers (a wrong spec first, refused with the field
 * named) scrapes a temporary folder; its Job History shows the run with its Scrape Summary;
 * a scraped item's Relationships tab shows its related items as a graph (a group of 3 of one
 * type, expanded by a click) and a table, and links and unlinks another item by hand.
 */
describe('catalog scrapers and relationships in Chromium', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  let server: LookoutServer;
  let db: pg.Client;
  let lookout: ConsoleSession;
  let context: BrowserContext;
  let folder: string;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    folder = await mkdtemp(join(tmpdir(), 'lookout-e2e-scrape-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    await writeFile(join(folder, 'shop.yaml'), 'id: shop\nname: shop\nkind: Service\nreplicas: 2\n');
    await writeFile(join(folder, 'orders-db.yaml'), 'id: orders-db\nname: orders-db\nkind: Database\nsize: 10Gi\n');
    // The file scraper may read this folder only (LOOKOUT_SCRAPE_FILE_ROOTS, docs/catalog.md).
    lookout = await startConsole({ env: { LOOKOUT_SCRAPE_FILE_ROOTS: folder } });
    ({ server, db } = lookout);

    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await lookout?.stop();
  });

  it('creates a file scraper from the UI and shows its run in Job History', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/catalog/scrapers`);
    await page.getByRole('table', { name: SCRAPERS_PAGE_TEXTS.title }).waitFor();
    await page.getByRole('link', { name: SCRAPERS_PAGE_TEXTS.add }).click();
    await page.waitForURL((url) => url.pathname === '/catalog/scrapers/new');
    const form = page.getByRole('form', { name: 'Scraper' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('local-files');

    // A spec the server refuses: the wrong field is named under the editor.
    await replaceEditorText(page, 'Spec', `schedule: '@every 1h'\nfile:\n  - type: File::Config\n    paths: []\n`);
    await form.getByRole('button', { name: SCRAPERS_PAGE_TEXTS.save }).click();
    await form.getByRole('alert').getByText('spec.file[0].paths: must list at least one path or glob').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}catalog-scraper-invalid.png`, fullPage: true });

    await replaceEditorText(
      page,
      'Spec',
      `schedule: '@every 1h'\nfile:\n  - type: File::Config\n    id: $.id\n    name: $.name\n    paths:\n      - ${folder}/*.yaml\n`,
    );
    await form.getByRole('button', { name: SCRAPERS_PAGE_TEXTS.save }).click();
    await page.getByText(SCRAPER_TOASTS.created('local-files')).waitFor();
    await page.waitForURL((url) => url.pathname === '/catalog/scrapers');
    const row = page
      .getByRole('table', { name: SCRAPERS_PAGE_TEXTS.title })
      .getByRole('row')
      .filter({ hasText: 'local-files' });
    // The generic settings columns (spec 3 section 2.6): Schedule and Namespace are hidden for
    // config scrapers.
    await row.getByText('UI', { exact: true }).waitFor();

    // The planner runs a new scraper within about 10 s; the list shows the run once it is done.
    await expect
      .poll(
        async () => {
          await page
            .getByRole('button', { name: /refresh/i })
            .first()
            .click();
          return row.getByText('Success').count();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBeGreaterThan(0);
    await page.screenshot({ path: `${ARTIFACTS}catalog-scrapers.png`, fullPage: true });

    await row.click();
    await page.waitForURL((url) => /^\/catalog\/scrapers\/[0-9a-f-]{36}$/.test(url.pathname));
    await page.getByRole('tab', { name: SCRAPERS_PAGE_TEXTS.tabs.jobHistory }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'job-history');
    // Every status, successful runs included.
    await page.getByRole('button', { name: 'Status: All' }).waitFor();
    const run = page.getByRole('row').filter({ hasText: 'ScrapeConfig' }).first();
    await run.waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
      await page.screenshot({ path: `${ARTIFACTS}debug-job-history.png`, fullPage: true });
      throw error;
    });
    await run.click();
    const details = page.getByRole('dialog');
    await details.getByRole('tab', { name: 'Scrape Summary' }).waitFor();
    await details.getByText('File::Config').first().waitFor();
    await page.screenshot({ path: `${ARTIFACTS}catalog-scraper-job-history.png`, fullPage: true });
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  it("draws a scraped item's relationships as a graph and a table, and links and unlinks by hand", async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    const items = await db.query<{ id: string; name: string }>(
      `SELECT id, name FROM config_items WHERE name IN ('shop', 'orders-db') AND deleted_at IS NULL`,
    );
    const shop = items.rows.find((item) => item.name === 'shop')!.id;
    // Items under shop (parent edges are hard): 3 volumes are one group, one secret stands alone.
    await db.query(
      `INSERT INTO config_items (parent_id, config_class, type, name, health, status, config)
       SELECT $1::uuid, 'Demo', 'Demo::Volume', 'volume-' || n, 'healthy', 'Bound', '{}'::jsonb FROM generate_series(1, 3) n
       UNION ALL SELECT $1::uuid, 'Demo', 'Demo::Secret', 'shop-secret', 'warning', 'Expiring', '{}'::jsonb`,
      [shop],
    );

    await page.goto(`${server.url}/catalog/${shop}/relationships?view=graph`);
    const graph = page.getByRole('img', { name: RELATIONSHIP_TEXTS.graph });
    await graph.waitFor();
    const group = graph.getByTestId('graph-group');
    await group.getByText('3 Demo::Volume').waitFor();
    await expect(graph.getByTestId('graph-node').count()).resolves.toBe(2);
    await page.screenshot({ path: `${ARTIFACTS}catalog-relationships-graph.png`, fullPage: true });
    await group.click();
    await graph.getByText('volume-3').waitFor();
    await expect(graph.getByTestId('graph-node').count()).resolves.toBe(5);
    await page.getByLabel(RELATIONSHIP_TEXTS.layout).selectOption('LR');
    await page.getByLabel(RELATIONSHIP_TEXTS.edgeStyle).selectOption('step');
    await page.screenshot({ path: `${ARTIFACTS}catalog-relationships-graph-expanded.png`, fullPage: true });

    await page.getByRole('radio', { name: RELATIONSHIP_TEXTS.table }).click();
    const table = page.getByRole('table', { name: RELATIONSHIP_TEXTS.tab });
    await table.getByRole('rowheader', { name: /Demo::Volume \(3\)/ }).waitFor();
    await table.getByText('shop-secret').waitFor();

    // Link shop → orders-db by hand.
    await page.getByRole('button', { name: RELATIONSHIP_TEXTS.link, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: RELATIONSHIP_TEXTS.linkTitle });
    await dialog.getByRole('button', { name: RELATIONSHIP_TEXTS.linkSubmit }).click();
    await dialog.getByText(RELATIONSHIP_TEXTS.linkRequired).waitFor();
    await dialog
      .getByRole('listbox', { name: RELATIONSHIP_TEXTS.linkTarget })
      .selectOption({ label: 'orders-db (File::Config)' });
    await dialog.getByRole('button', { name: RELATIONSHIP_TEXTS.linkSubmit }).click();
    await page.getByText(CONFIG_LINK_TOASTS.linked).waitFor();
    // The new link is soft: the tab turns Soft on to show it (after the toast, so waited for).
    await page.getByRole('switch', { name: RELATIONSHIP_TEXTS.soft, checked: true }).waitFor();
    const linked = table.getByRole('row').filter({ hasText: 'orders-db' });
    await linked.getByText(RELATIONSHIP_TEXTS.manual).waitFor();
    await expect(page.getByRole('tab', { name: /Relationships/ }).textContent()).resolves.toBe('Relationships5');
    await page.screenshot({ path: `${ARTIFACTS}catalog-relationships-table.png`, fullPage: true });

    await linked.getByRole('button', { name: `${RELATIONSHIP_TEXTS.unlink} orders-db` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: RELATIONSHIP_TEXTS.unlink }).click();
    await page.getByText(CONFIG_LINK_TOASTS.unlinked).waitFor();
    await expect.poll(() => table.getByText('orders-db').count()).toBe(0);
    const rows = await db.query(`SELECT 1 FROM config_relationships WHERE config_id = $1`, [shop]);
    expect(rows.rowCount).toBe(0);
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });
});
