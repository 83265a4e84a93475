import { mkdir } from 'node:fs/promises';
import { CATALOG_TEXTS, INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import type pg from 'pg';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

/**
 * The catalog journey of issue 13 in a real browser against the built server on a PostgreSQL
 * of the test's own, with items, changes and an insight written to it: /catalog shows the
 * summary by class and type, a type opens the item table, an item opens its page with the
 * document, its Changes tab opens the change dialog with the diff.
 */
describe('the catalog in Chromium', () => {
  let server: LookoutServer;
  let db: pg.Client;
  let lookout: ConsoleSession;
  let context: BrowserContext;
  let podId: string;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole();
    ({ server, db } = lookout);

    const items = await db.query<{ id: string; name: string }>(
      `INSERT INTO config_items (config_class, type, name, health, status, tags, labels, config, cost_total_1d, cost_total_30d)
       VALUES ('Kubernetes', 'Kubernetes::Pod', 'payments-7d9f', 'unhealthy', 'CrashLoopBackOff',
               '{"namespace": "prod", "cluster": "eu-west"}', '{"app": "payments", "app.kubernetes.io/part-of": "shop"}',
               '{"kind": "Pod", "metadata": {"name": "payments-7d9f"}, "spec": {"image": "payments:1.4"}}', 2, 30),
              ('Kubernetes', 'Kubernetes::Pod', 'web-5c8b', 'healthy', 'Running', '{"namespace": "prod"}', '{"app": "web"}',
               '{"kind": "Pod"}', 1, 30),
              ('Kubernetes', 'Kubernetes::Deployment', 'payments', 'healthy', 'Running', '{"namespace": "prod"}', '{}',
               '{"kind": "Deployment"}', NULL, NULL)
       RETURNING id, name`,
    );
    podId = items.rows.find((row) => row.name === 'payments-7d9f')!.id;
    await db.query(
      `INSERT INTO config_changes (config_id, change_type, severity, source, summary, diff, patches, created_at)
       VALUES ($1, 'diff', 'info', 'kubernetes', 'image changed',
               '--- a\n+++ b\n-  image: payments:1.3\n+  image: payments:1.4', '{"spec": {"image": "payments:1.4"}}', now() - interval '1 hour'),
              ($1, 'BackOff', 'high', 'kubernetes', 'Back-off restarting failed container', NULL, NULL, now() - interval '10 minutes')`,
      [podId],
    );
    await db.query(
      `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, message, first_observed, last_observed)
       VALUES ($1, 'privileged-container', 'security', 'high', 'open', 'The container runs privileged.', now(), now())`,
      [podId],
    );
    await db.query('SELECT lookout_refresh_config_item_summaries()');

    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
  });
  afterAll(async () => {
    await lookout?.stop();
  });

  it('walks /catalog → a type → an item → its changes → the change dialog', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    // The old address leads to the catalog.
    await page.goto(`${server.url}/configs`);
    await page.waitForURL((url) => url.pathname === '/catalog');
    await page.getByRole('link', { name: CATALOG_TEXTS.title }).first().waitFor();
    const summary = page.getByRole('table', { name: CATALOG_TEXTS.title });
    await summary.getByRole('cell', { name: 'Pod', exact: true }).waitFor();
    await expect(
      summary.getByRole('row').filter({ hasText: 'Pod' }).first().getByTestId('change-count').textContent(),
    ).resolves.toBe('2');
    await page.screenshot({ path: `${ARTIFACTS}catalog-summary.png` });

    await summary.getByRole('cell', { name: 'Pod', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('configType') === 'Kubernetes::Pod');
    await page.getByRole('row').filter({ hasText: 'payments-7d9f' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}catalog-table.png` });

    await page.getByRole('row').filter({ hasText: 'payments-7d9f' }).click();
    await page.waitForURL((url) => url.pathname === `/catalog/${podId}`);
    await expect(page.getByTestId('config-document').textContent()).resolves.toContain('payments:1.4');
    await page.getByText('part-of: shop').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}catalog-item.png` });

    await page.getByRole('tab', { name: /Changes/ }).click();
    await page.waitForURL((url) => url.pathname === `/catalog/${podId}/changes`);
    await page.getByRole('row').filter({ hasText: 'image changed' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('+  image: payments:1.4').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}catalog-change.png` });
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  it('links the item to a new incident from its side panel, as config evidence', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/catalog/${podId}`);
    await page.getByRole('button', { name: CATALOG_TEXTS.panel.linkToIncident }).click();
    const link = page.getByRole('dialog', { name: INCIDENT_MESSAGES.linkTitle });
    await link.getByRole('textbox', { name: INCIDENT_UI_TEXTS.link.incident }).fill('Payments pod crashes');
    await link
      .getByRole('listbox', { name: INCIDENT_UI_TEXTS.link.incident })
      .getByRole('option', { name: INCIDENT_UI_TEXTS.link.create('Payments pod crashes') })
      .click();
    await link.getByRole('button', { name: INCIDENT_MESSAGES.linkButton }).click();
    await page.getByText(INCIDENT_MESSAGES.linked).waitFor();
    const evidence = await db.query<{ type: string; description: string; title: string }>(
      `SELECT e.type, e.description, i.title FROM evidences e
         JOIN hypotheses h ON h.id = e.hypothesis_id JOIN incidents i ON i.id = h.incident_id
        WHERE e.config_id = $1`,
      [podId],
    );
    expect(evidence.rows).toEqual([{ type: 'config', description: 'payments-7d9f', title: 'Payments pod crashes' }]);
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });
});
