import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NOTIFICATION_HISTORY_TEXTS, NOTIFICATION_SILENCES_TEXTS, SILENCE_LINK_TEXT } from '@lookout/contracts';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signIn, unexpectedErrors, watchConsole } from './support/browser.js';
import { makeDataDir, startLookout, type LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'Lookout-admin-e2e-1';

/**
 * Component and catalog notifications (issue 15 items 2 and 4) in Chromium against the built
 * server on its own PostgreSQL: a component turning unhealthy notifies a local webhook; the
 * parent component's 'Silence' adds a recursive silence, after which its child turning
 * unhealthy is recorded as Silenced; a catalog item's 'Silence' opens the form prefilled.
 */
describe('component and catalog notifications in Chromium', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  const delivered: { path: string; body: string }[] = [];
  let server: LookoutServer;
  let db: pg.Client;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const ids = { parent: '', child: '', other: '', config: '' };

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    const postgres = await startTestPostgres({ prefix: 'lookout-e2e-' });
    cleanups.push(postgres.stop);
    const data = await makeDataDir();
    cleanups.push(data.remove);
    server = await startLookout({
      dataDir: data.dir,
      env: {
        DATABASE_URL: postgres.url,
        LOOKOUT_SECRET_KEY: randomBytes(32).toString('hex'),
        LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL,
        LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      },
    });
    cleanups.push(() => server.stop());
    db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    cleanups.push(() => db.end());

    const receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        delivered.push({ path: request.url ?? '', body });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => receiver.close(resolve)));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const component = async (name: string, parentId: string | null) => {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO components (external_id, name, type, status, health, parent_id, path)
         VALUES ($1, $1, 'Service', 'healthy', 'healthy', $2::uuid, $2::uuid::text) RETURNING id`,
        [name, parentId],
      );
      return rows[0]!.id;
    };
    ids.parent = await component('payments', null);
    ids.child = await component('payments-worker', ids.parent);
    ids.other = await component('search', null);
    const config = await db.query<{ id: string }>(
      `INSERT INTO config_items (config_class, type, name, config, health)
       VALUES ('Postgres', 'Postgres::Database', 'orders-rds', '{}', 'healthy') RETURNING id`,
    );
    ids.config = config.rows[0]!.id;
    await db.query(
      `INSERT INTO notifications (title, events, custom_services)
       VALUES ('{{ component.name }} is down', '{component.unhealthy}', $1)`,
      [JSON.stringify([{ url: hook }])],
    );

    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    page = await context.newPage();
    await signIn(page, server.url, ADMIN_EMAIL, ADMIN_PASSWORD);
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const setHealth = (id: string, health: string) =>
    db.query(`UPDATE components SET health = $2, status = $2 WHERE id = $1`, [id, health]);

  it('notifies the webhook when a component turns unhealthy', async () => {
    await setHealth(ids.other, 'unhealthy');
    await expect.poll(() => delivered.length, { timeout: 60_000, interval: 250 }).toBe(1);
    expect(delivered[0]!.body).toContain('search is down');
  });

  it("silences a component and its children from the component page's 'Silence'", async () => {
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/topology/${ids.parent}`);
    await page.getByRole('link', { name: SILENCE_LINK_TEXT }).click();
    await page.waitForURL((url) => url.pathname === '/notifications/silences/add');
    expect(new URL(page.url()).searchParams.get('component_id')).toBe(ids.parent);
    expect(await page.getByRole('radio', { name: 'Component' }).getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => page.getByRole('combobox', { name: 'Component' }).inputValue()).toBe(ids.parent);
    await page.getByLabel('Recursive').check();
    await page.getByLabel('Reason').fill('payments upgrade');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => url.pathname === '/notifications/silences');
    const silences = page.getByRole('table', { name: NOTIFICATION_SILENCES_TEXTS.table });
    await silences.getByRole('row', { name: /payments upgrade/ }).waitFor();

    // The child turns unhealthy: recorded as silenced, nothing more is sent.
    await setHealth(ids.child, 'unhealthy');
    await page.goto(`${server.url}/notifications?status=silenced:1`);
    const row = page
      .getByRole('table', { name: NOTIFICATION_HISTORY_TEXTS.table })
      .getByRole('row', { name: /payments-worker/ });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return row.count();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);
    expect(await row.first().textContent()).toContain('Silenced');
    expect(delivered).toHaveLength(1);
    await page.screenshot({ path: `${ARTIFACTS}notifications-component-silenced.png` });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it("opens the add-silence page for a catalog item from its page's 'Silence'", async () => {
    await page.goto(`${server.url}/catalog/${ids.config}`);
    await page.getByRole('link', { name: SILENCE_LINK_TEXT }).click();
    await page.waitForURL((url) => url.pathname === '/notifications/silences/add');
    expect(new URL(page.url()).searchParams.get('config_id')).toBe(ids.config);
    expect(await page.getByRole('radio', { name: 'Catalog' }).getAttribute('aria-checked')).toBe('true');
  });
});
