import { mkdir } from 'node:fs/promises';
import { CATALOG_CHANGES_TEXTS, CATALOG_INSIGHTS_TEXTS } from '@lookout/contracts';
import type pg from 'pg';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

/**
 * /catalog/changes and /catalog/insights of issue 13 in a real browser against the built
 * server on a PostgreSQL of the test's own, with items, changes and insights written to it:
 * the default 7-day window, a severity filter as a removable chip, the change dialog with its
 * diff, an item's Changes tab following its child downstream, and an insight's detail panel.
 */
describe('catalog changes and insights in Chromium', () => {
  let server: LookoutServer;
  let db: pg.Client;
  let lookout: ConsoleSession;
  let context: BrowserContext;
  let deploymentId: string;
  let podId: string;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole();
    ({ server, db } = lookout);

    const deployment = await db.query<{ id: string }>(
      `INSERT INTO config_items (config_class, type, name, health, status, tags, config)
       VALUES ('Kubernetes', 'Kubernetes::Deployment', 'payments', 'healthy', 'Running', '{"namespace": "prod"}',
               '{"kind": "Deployment"}')
       RETURNING id`,
    );
    deploymentId = deployment.rows[0]!.id;
    const items = await db.query<{ id: string; name: string }>(
      `INSERT INTO config_items (config_class, type, name, health, status, tags, config, parent_id, deleted_at)
       VALUES ('Kubernetes', 'Kubernetes::Pod', 'payments-7d9f', 'unhealthy', 'CrashLoopBackOff', '{"namespace": "prod"}',
               '{"kind": "Pod"}', $1, NULL),
              ('Kubernetes', 'Kubernetes::Pod', 'payments-old', 'healthy', 'Running', '{"namespace": "prod"}',
               '{"kind": "Pod"}', $1, now() - interval '1 hour')
       RETURNING id, name`,
      [deploymentId],
    );
    podId = items.rows.find((row) => row.name === 'payments-7d9f')!.id;
    const goneId = items.rows.find((row) => row.name === 'payments-old')!.id;
    await db.query(
      `INSERT INTO config_changes (config_id, change_type, severity, source, summary, diff, patches, created_by, external_created_by, created_at)
       VALUES ($1, 'diff', 'info', 'kubernetes', 'image changed',
               E'--- before\\n+++ after\\n@@ -1,3 +1,3 @@\\n kind: Pod\\n spec:\\n-  image: payments:1.3\\n+  image: payments:1.4\\n',
               '{"spec": {"image": "payments:1.4"}}', NULL, 'deployer@example.com', now() - interval '1 hour'),
              ($1, 'BackOff', 'high', 'kubernetes', 'Back-off restarting failed container', NULL, NULL, NULL, NULL,
               now() - interval '10 minutes'),
              ($1, 'Pulled', 'info', 'kubernetes', 'an old pull outside the week', NULL, NULL, NULL, NULL,
               now() - interval '10 days'),
              ($2, 'Killing', 'medium', 'kubernetes', 'change of a deleted pod', NULL, NULL, NULL, NULL,
               now() - interval '2 hours')`,
      [podId, goneId],
    );
    await db.query(
      `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, message, source, analysis, first_observed, last_observed)
       VALUES ($1, 'privileged-container', 'security', 'high', 'open', $2, 'kubernetes', '{"container": "app"}',
               now() - interval '2 days', now()),
              ($1, 'restarts', 'reliability', 'medium', 'open', 'Restarted 5 times', 'kubernetes', NULL,
               now() - interval '1 day', now())`,
      [podId, `The container runs privileged. ${'It can reach the host. '.repeat(40)}`],
    );
    // A component that stands for the pod: the insights' Component filter finds its insights.
    await db.query(
      `INSERT INTO components (name, external_id, status, config_id) VALUES ('Payments', 'payments', 'healthy', $1)`,
      [podId],
    );
    await db.query(`INSERT INTO components (name, external_id, status) VALUES ('Checkout', 'checkout', 'healthy')`);
    await db.query('SELECT lookout_refresh_config_item_summaries()');

    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
  });
  afterAll(async () => {
    await lookout?.stop();
  });

  it('lists the week of changes, filters by severity with a chip and opens the diff', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/catalog`);
    await page.getByRole('navigation', { name: 'Catalog pages' }).getByRole('link', { name: 'Changes' }).click();
    await page.waitForURL((url) => url.pathname === '/catalog/changes');
    const table = page.getByRole('table', { name: CATALOG_CHANGES_TEXTS.title });
    await table.getByRole('row').filter({ hasText: 'image changed' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'Back-off restarting' }).waitFor();
    // Outside the default 7 days, and of a deleted item while 'Hide Deleted Config Changes' is on.
    await expect(table.getByText('an old pull outside the week').count()).resolves.toBe(0);
    await expect(table.getByText('change of a deleted pod').count()).resolves.toBe(0);
    await expect(page.getByTestId('changes-total').textContent()).resolves.toBe('2 changes');
    await page.screenshot({ path: `${ARTIFACTS}catalog-changes.png` });

    await page.getByRole('button', { name: /^Severity:/ }).click();
    await page.getByRole('button', { name: 'Include high' }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => url.searchParams.get('severity') === 'high:1');
    const chips = page.getByRole('list', { name: 'Active filters' });
    await chips.getByText('high').waitFor();
    await page.getByTestId('changes-total').filter({ hasText: '1 change' }).waitFor();
    await expect(table.getByText('image changed').count()).resolves.toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}catalog-changes-chip.png` });
    await chips.getByRole('button', { name: `${CATALOG_CHANGES_TEXTS.clearFilter} Severity` }).click();
    await page.waitForURL((url) => !url.searchParams.has('severity'));
    await table.getByRole('row').filter({ hasText: 'image changed' }).waitFor();

    await page.getByRole('switch', { name: CATALOG_CHANGES_TEXTS.hideDeleted }).click();
    await table.getByRole('row').filter({ hasText: 'change of a deleted pod' }).waitFor();

    await table.getByRole('row').filter({ hasText: 'image changed' }).click();
    const dialog = page.getByRole('dialog');
    const diff = dialog.getByTestId('change-diff');
    await diff.locator('tr[data-kind="add"]').filter({ hasText: 'image: payments:1.4' }).waitFor();
    await diff.locator('tr[data-kind="remove"]').filter({ hasText: 'image: payments:1.3' }).waitFor();
    await dialog.getByText('deployer@example.com').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}catalog-changes-diff.png` });
    await page.keyboard.press('Escape');
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  it("shows an item's changes with its child downstream, and without when switched off", async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/catalog/${deploymentId}/changes`);
    const table = page.getByRole('table', { name: CATALOG_CHANGES_TEXTS.title });
    await table.getByRole('row').filter({ hasText: 'image changed' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}catalog-item-changes.png` });
    await page.getByRole('switch', { name: CATALOG_CHANGES_TEXTS.downstream }).click();
    await page.waitForURL((url) => url.searchParams.get('downstream') === 'false');
    await table.getByText(CATALOG_CHANGES_TEXTS.empty).waitFor();
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  it('lists insights, filters them and opens one', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/catalog/changes`);
    await page.getByRole('navigation', { name: 'Catalog pages' }).getByRole('link', { name: 'Insights' }).click();
    await page.waitForURL((url) => url.pathname === '/catalog/insights');
    const table = page.getByRole('table', { name: CATALOG_INSIGHTS_TEXTS.title });
    await table.getByRole('row').filter({ hasText: 'privileged-container' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'restarts' }).waitFor();
    const cut = await table.getByTestId('insight-message').first().textContent();
    expect(cut!.length).toBeLessThanOrEqual(501);
    await page.screenshot({ path: `${ARTIFACTS}catalog-insights.png` });

    // By component (rpc/lookup_analysis_by_component, filtered in the browser): the pod's
    // component has both, another component none.
    const component = page.getByRole('combobox', { name: CATALOG_INSIGHTS_TEXTS.filters.component });
    await component.selectOption({ label: 'Checkout' });
    await table.getByText(CATALOG_INSIGHTS_TEXTS.empty).waitFor();
    await component.selectOption({ label: 'Payments' });
    await table.getByRole('row').filter({ hasText: 'restarts' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'privileged-container' }).waitFor();

    await page.getByRole('combobox', { name: CATALOG_INSIGHTS_TEXTS.filters.severity }).selectOption('high');
    await page.waitForURL((url) => url.searchParams.get('severity') === 'high');
    await table.getByRole('row').filter({ hasText: 'restarts' }).waitFor({ state: 'detached' });

    await table.getByRole('row').filter({ hasText: 'privileged-container' }).click();
    const dialog = page.getByRole('dialog');
    const message = dialog.getByTestId('insight-detail-message');
    await message.waitFor();
    expect((await message.textContent())!.length).toBeGreaterThan(800);
    await dialog.getByText('"container": "app"').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}catalog-insight.png` });
    await page.keyboard.press('Escape');

    // The item's Insights tab lists the same, for this item only.
    await page.goto(`${server.url}/catalog/${podId}/insights`);
    const tab = page.getByRole('table', { name: CATALOG_INSIGHTS_TEXTS.title });
    await tab.getByRole('row').filter({ hasText: 'restarts' }).waitFor();
    await tab.getByRole('row').filter({ hasText: 'privileged-container' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}catalog-item-insights.png` });
    await page.goto(`${server.url}/catalog/${deploymentId}/insights`);
    await page.getByText(CATALOG_INSIGHTS_TEXTS.empty).waitFor();
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });
});
