import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { TOPOLOGY_SETTINGS_TEXTS, TOPOLOGY_TEXTS, WHAT_CHANGED_TEXTS } from '@lookout/contracts';
import type pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

/** The Topology document typed into the settings form: a shop with a database and an API. */
const TOPOLOGY_YAML = `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata:
  name: shop
  namespace: default
spec:
  type: Shop
  icon: shop
  schedule: "@every 1h"
  components:
    - name: Orders DB
      type: Database
      checks:
        - selector:
            labelSelector: app=orders-db
      properties:
        - name: tier
          text: gold
          headline: true
    - name: API
      type: Service
      properties:
        - name: region
          text: eu-west-1
`;

/**
 * The topology journey of issue 14 in Chromium against the built server on its own
 * PostgreSQL: a topology written in /settings/topologies runs into components; /topology shows
 * the shop's card, its page the children with the panels; a snapshot downloads as
 * `shop-snapshot.zip`; a catalog item is linked; a failing check turns the database's card red
 * at the page's refresh rate, without a reload, and its recovery turns it back.
 */
describe('the topology in Chromium', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  let server: LookoutServer;
  let db: pg.Client;
  let lookout: ConsoleSession;
  let context: BrowserContext;
  let target: http.Server;
  let targetStatus = 200;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole();
    ({ server, db } = lookout);

    // A real HTTP check against a server of the test's own, which the database component
    // selects by label; the test makes it fail and recover by changing the answer.
    target = http.createServer((_request, response) => {
      response.statusCode = targetStatus;
      response.end('ok');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => target.close(resolve)));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const canary = await db.query<{ id: string }>(
      `INSERT INTO canaries (name, spec) VALUES ('shop-checks', $1) RETURNING id`,
      [JSON.stringify({ interval: 5, http: [{ name: 'orders-db-port', url, labels: { app: 'orders-db' } }] })],
    );
    const checks = await db.query(`SELECT 1 FROM checks WHERE canary_id = $1`, [canary.rows[0]!.id]);
    expect(checks.rowCount).toBe(1);
    await db.query(
      `INSERT INTO config_items (config_class, type, name, config, health)
       VALUES ('Postgres', 'Postgres::Database', 'orders-rds', '{}', 'healthy')`,
    );

    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true }));
  }, 180_000);
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await lookout?.stop();
  });

  /** The card of a component on the current page. */
  const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

  it('creates a topology in the settings form and sees it run into cards', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/settings/topologies`);
    await page.getByRole('link', { name: TOPOLOGY_SETTINGS_TEXTS.add }).click();
    await page.waitForURL((url) => url.pathname === '/settings/topologies/new');
    const editor = page.getByRole('textbox', { name: TOPOLOGY_SETTINGS_TEXTS.spec });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    // Typed as one insertion, so the editor does not re-indent the lines as they arrive.
    await page.keyboard.insertText(TOPOLOGY_YAML);
    await page.getByRole('button', { name: TOPOLOGY_SETTINGS_TEXTS.save }).click();
    await page.waitForURL((url) => url.pathname === '/settings/topologies');
    const table = page.getByRole('table', { name: TOPOLOGY_SETTINGS_TEXTS.title });
    await table.getByText('shop', { exact: true }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}topology-settings.png` });

    // '/' leads to the Dashboard; the run fills it within the planner's first rounds.
    await page.goto(`${server.url}/`);
    await page.waitForURL((url) => url.pathname === '/topology');
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('group', { name: 'Filters' }).waitFor();
          return card(page, 'shop').count();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBe(1);
    await page.screenshot({ path: `${ARTIFACTS}topology-cards.png` });
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  }, 120_000);

  it('opens the shop: children, panels, snapshot and a catalog link', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/topology`);
    await card(page, 'shop').getByRole('link', { name: 'shop' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/topology/'));
    await card(page, 'Orders DB').waitFor();
    await card(page, 'API').waitFor();
    await card(page, 'Orders DB').getByText('gold').waitFor();
    const details = page.getByRole('region', { name: TOPOLOGY_TEXTS.panels.details });
    await details.getByRole('link', { name: 'shop', exact: true }).waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('shop').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}topology-component.png` });

    // Snapshot of the shop from the sidebar: the first range, a zip named after it.
    await page.getByRole('button', { name: TOPOLOGY_TEXTS.actions.snapshot }).click();
    const dialog = page.getByRole('dialog', { name: TOPOLOGY_TEXTS.snapshot.title('shop') });
    await dialog.waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: TOPOLOGY_TEXTS.snapshot.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('shop-snapshot.zip');
    const saved = `${ARTIFACTS}topology-shop-snapshot.zip`;
    await download.saveAs(saved);
    await dialog.waitFor({ state: 'hidden' });

    // Link the shop to a catalog item: the picker asks the catalog, the panel lists the link.
    await page.getByRole('button', { name: TOPOLOGY_TEXTS.actions.linkToCatalog }).click();
    const link = page.getByRole('dialog', { name: TOPOLOGY_TEXTS.link.title });
    await link.getByRole('searchbox').fill('orders');
    await link.getByRole('option', { name: /orders-rds/ }).click();
    await link.getByRole('button', { name: TOPOLOGY_TEXTS.link.submit }).click();
    await page.getByText(TOPOLOGY_TEXTS.link.success).waitFor();
    await page.getByRole('button', { name: TOPOLOGY_TEXTS.panels.catalog, exact: true }).click();
    await page
      .getByRole('region', { name: TOPOLOGY_TEXTS.panels.catalog })
      .getByRole('link', { name: 'orders-rds' })
      .waitFor();

    // The database's checks panel names the selected check.
    await card(page, 'Orders DB').getByRole('link', { name: 'Orders DB' }).click();
    await page.getByRole('button', { name: TOPOLOGY_TEXTS.panels.checks, exact: true }).click();
    await page
      .getByRole('region', { name: TOPOLOGY_TEXTS.panels.checks })
      .getByRole('link', { name: 'orders-db-port' })
      .waitFor();
    await page.screenshot({ path: `${ARTIFACTS}topology-panels.png` });
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  }, 120_000);

  it('turns the database card red when its check fails, and back when it recovers, without a reload', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/topology`);
    await card(page, 'shop').getByRole('link', { name: 'shop' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/topology/'));
    // Refresh every 15 s (the refresh rate select keeps it in the address).
    await page.getByLabel('Refresh rate').selectOption('15s');
    const orders = card(page, 'Orders DB');
    await expect.poll(() => orders.getAttribute('data-health'), { timeout: 60_000 }).toBe('healthy');
    const loaded = page.url();

    targetStatus = 500;
    await expect.poll(() => orders.getAttribute('data-health'), { timeout: 60_000, interval: 1_000 }).toBe('unhealthy');
    expect(await orders.getAttribute('class')).toContain('border-t-red-300');
    await page.screenshot({ path: `${ARTIFACTS}topology-unhealthy.png` });

    // While it is unhealthy, its own page's 'What changed' names the check that failed.
    const detail = await context.newPage();
    const ordersHref = await orders.getByRole('link', { name: 'Orders DB' }).getAttribute('href');
    await detail.goto(`${server.url}${ordersHref}`);
    await detail.getByRole('button', { name: WHAT_CHANGED_TEXTS.title, exact: true }).click();
    const changed = detail.getByRole('region', { name: WHAT_CHANGED_TEXTS.title });
    await changed.getByRole('link', { name: 'orders-db-port' }).first().waitFor({ timeout: 30_000 });
    await changed.getByText(WHAT_CHANGED_TEXTS.checkStatus.unhealthy, { exact: true }).first().waitFor();
    await detail.screenshot({ path: `${ARTIFACTS}topology-what-changed.png` });
    await detail.close();

    targetStatus = 200;
    await expect.poll(() => orders.getAttribute('data-health'), { timeout: 60_000, interval: 1_000 }).toBe('healthy');
    // Same document all along: the page never reloaded.
    expect(page.url()).toBe(loaded);
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  }, 180_000);

  it('shows the embeddable card at /view/topology/{id}', async () => {
    const page = await context.newPage();
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM components WHERE name = 'Orders DB' AND deleted_at IS NULL`,
    );
    await page.goto(`${server.url}/view/topology/${rows[0]!.id}`);
    await card(page, 'Orders DB').waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}topology-view.png` });
    await page.goto(`${server.url}/view/topology/00000000-0000-7000-8000-00000000dead`);
    await page.getByText(TOPOLOGY_TEXTS.notFound).waitFor();
    await page.close();
  }, 60_000);
});
