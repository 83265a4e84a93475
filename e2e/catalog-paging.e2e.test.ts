import { mkdir, writeFile } from 'node:fs/promises';
import { CATALOG_LIMITS, CATALOG_TEXTS } from '@lookout/contracts';
import pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
// The bench's data set at a size the regular suite can afford; the judged size is
// E2E_CATALOG_ITEMS=100000 E2E_CATALOG_CHANGES=1000000 (docs/catalog.md has the timings).
const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const ITEMS = positive('E2E_CATALOG_ITEMS', 5_000);
const CHANGES = positive('E2E_CATALOG_CHANGES', 20_000);
const TYPE = 'Kubernetes::Pod';
const SCROLLER = '[data-testid="data-table-scroll"]';

type SeedModule = {
  seedCatalog: (pool: pg.Pool, size: { items: number; changes: number; changeDays: number }) => Promise<object>;
};

/**
 * The item table of issue 13 in Chromium on the catalog bench's seed: a type of thousands of
 * items loads a page of rows at a time as the table is scrolled to its very end, shows the
 * server's total, sorts through the server and opens an item.
 */
describe('the catalog item table at scale in Chromium', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  const timings: Record<string, number> = {};
  let server: LookoutServer;
  let pool: pg.Pool;
  let lookout: ConsoleSession;
  let context: BrowserContext;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole({ postgresFlags: ['-c', 'max_wal_size=4GB'] });
    ({ server } = lookout);
    pool = new pg.Pool({ connectionString: lookout.databaseUrl, max: 2 });
    cleanups.push(() => pool.end());
    // The bench's own seed (a plain .mjs module, loaded by address so the e2e types stay strict).
    const seedModule = new URL('../bench/catalog/seed.mjs', import.meta.url).href;
    const { seedCatalog } = (await import(seedModule)) as SeedModule;
    const started = Date.now();
    await seedCatalog(pool, { items: ITEMS, changes: CHANGES, changeDays: 30 });
    await pool.query('SELECT lookout_refresh_config_item_summaries()');
    timings.seedSeconds = (Date.now() - started) / 1000;

    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
  }, 1_800_000);
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await lookout?.stop();
  });

  /** The type's live items in the table's order (type and name ascending, id last). */
  const ordered = async (order: string) =>
    (
      await pool.query<{ id: string; name: string }>(
        `SELECT id, name FROM config_items WHERE type = $1 AND deleted_at IS NULL ORDER BY ${order}`,
        [TYPE],
      )
    ).rows;

  const rowNamed = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

  it('pages a big type from the server while scrolling to its end, sorts by the server and opens a row', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    const pages: { limit: string | null; offset: string | null; order: string; rows: number }[] = [];
    page.on('response', async (response) => {
      const url = new URL(response.url());
      if (url.pathname !== '/api/db/configs' || response.status() >= 300) return;
      const body: unknown = await response.json().catch(() => []);
      pages.push({
        limit: url.searchParams.get('limit'),
        offset: url.searchParams.get('offset'),
        order: url.searchParams.get('order') ?? '',
        rows: Array.isArray(body) ? body.length : -1,
      });
    });
    const rows = await ordered('type, name, id');
    const total = rows.length;
    expect(total).toBeGreaterThan(CATALOG_LIMITS.tablePageSize * 3);

    let started = Date.now();
    await page.goto(`${server.url}/catalog`);
    const summary = page.getByRole('table', { name: CATALOG_TEXTS.title });
    await summary.getByRole('cell', { name: 'Pod', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('configType') === TYPE);
    await rowNamed(page, rows[0]!.name).waitFor();
    timings.firstRowsMs = Date.now() - started;
    await expect(page.getByTestId('catalog-total').textContent()).resolves.toBe(
      `${total.toLocaleString('en-US')} ${CATALOG_TEXTS.items}`,
    );
    await page.screenshot({ path: `${ARTIFACTS}catalog-paging-top.png` });
    // Virtualised: one page until scrolled, and only the rows in view are drawn.
    expect(pages).toHaveLength(1);
    await expect(page.getByRole('row').count()).resolves.toBeLessThan(100);

    // Scroll to the end again and again: each time the last loaded row shows, the next page loads.
    started = Date.now();
    const last = rows.at(-1)!;
    while ((await rowNamed(page, last.name).count()) === 0) {
      const height = await page.locator(SCROLLER).evaluate((element) => {
        element.scrollTop = element.scrollHeight;
        return element.scrollHeight;
      });
      // Until the next page made the list longer, or the last row is drawn.
      await expect
        .poll(
          async () =>
            (await page.locator(SCROLLER).evaluate((element) => element.scrollHeight)) > height ||
            (await rowNamed(page, last.name).count()) > 0,
          { timeout: 60_000 },
        )
        .toBe(true);
    }
    timings.scrollToEndMs = Date.now() - started;
    timings.pagesLoaded = pages.length;
    await page.screenshot({ path: `${ARTIFACTS}catalog-paging-end.png` });
    await expect(page.getByRole('row').count()).resolves.toBeLessThan(100);
    // Every call was one page, each page started where the one before ended, and together they are the type.
    expect(pages.every((p) => p.limit === String(CATALOG_LIMITS.tablePageSize))).toBe(true);
    expect(pages.map((p) => Number(p.offset))).toEqual(
      Array.from({ length: pages.length }, (_, i) => i * CATALOG_LIMITS.tablePageSize),
    );
    expect(pages.reduce((sum, p) => sum + p.rows, 0)).toBe(total);
    // A row from the middle, reached by scrolling, is the one the database orders there.
    const middle = rows[Math.floor(total / 2)]!;
    await page.locator(SCROLLER).evaluate(
      (element, [index, rowHeight]: readonly [number, number]) => {
        element.scrollTop = index * rowHeight - 200;
      },
      [Math.floor(total / 2), CATALOG_LIMITS.rowEstimate],
    );
    await rowNamed(page, middle.name).waitFor();

    // Sort by name, descending, through the server (by type, the default, is by name ascending
    // within one type): the address carries it and the first row is the database's.
    started = Date.now();
    const nameHeader = page.getByRole('columnheader', { name: /^Name/ }).getByRole('button');
    await nameHeader.click();
    await page.waitForURL((url) => url.searchParams.get('sortBy') === 'name');
    if (new URL(page.url()).searchParams.get('sortOrder') !== 'desc') {
      await nameHeader.click();
      await page.waitForURL((url) => url.searchParams.get('sortOrder') === 'desc');
    }
    const byName = await ordered('name desc, id');
    await rowNamed(page, byName[0]!.name).waitFor();
    timings.sortMs = Date.now() - started;
    await expect(page.getByRole('row').nth(1).textContent()).resolves.toContain(byName[0]!.name);
    // The new order starts at the top with one page, whatever the old scroll position was.
    await expect
      .poll(() => pages.filter((p) => p.order === 'name.desc,id.asc').map((p) => p.offset), { timeout: 30_000 })
      .toEqual(['0']);
    await expect(page.locator(SCROLLER).evaluate((element) => element.scrollTop)).resolves.toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}catalog-paging-sorted.png` });

    await rowNamed(page, byName[0]!.name).click();
    await page.waitForURL((url) => url.pathname === `/catalog/${byName[0]!.id}`);
    await page.getByTestId('config-document').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}catalog-paging-item.png` });
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();

    const result = { items: ITEMS, changes: CHANGES, type: TYPE, typeItems: total, ...timings };
    await writeFile(`${ARTIFACTS}catalog-paging.json`, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`catalog paging: ${JSON.stringify(result)}\n`);
  }, 1_200_000);
});
