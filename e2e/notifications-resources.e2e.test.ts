import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NOTIFICATION_HISTORY_TEXTS, NOTIFICATION_SILENCES_TEXTS, SILENCE_LINK_TEXT } from '@lookout/contracts';
import type pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

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
  let lookout: ConsoleSession;
  let context: BrowserContext;
  let page: Page;
  const ids = { parent: '', child: '', other: '', config: '' };

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole();
    ({ server, db } = lookout);

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

    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
    // One page for all the tests (each opens its address first), on the signed-in session.
    page = await context.newPage();
  }, 180_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await lookout?.stop();
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
