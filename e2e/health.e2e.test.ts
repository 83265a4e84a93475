import { mkdir } from 'node:fs/promises';
import {
  CANARY_FORM_TEXTS,
  CHECK_DRAWER_TEXTS,
  HEALTH_PAGE_TEXTS,
  SELF_CANARY_NAME,
  SETTINGS_RESOURCES,
} from '@lookout/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
/** The checks of the canary a new installation creates (docs/health.md, "First run"). */
const SELF_CHECKS = ['lookout-api-health', 'lookout-postgres', 'localhost-dns'];

/**
 * The Health journey of issue 6 in a real browser against the built server: a new install's
 * `lookout-self` canary shows live checks on /health; the admin shows passing checks, opens a
 * check's drawer, runs it now, and sees the run in its history.
 */
describe('the health dashboard and check drawer in Chromium', () => {
  let server: LookoutServer;
  let lookout: ConsoleSession;
  let context: BrowserContext;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole({ postgres: false });
    ({ server } = lookout);
    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
  });
  afterAll(async () => {
    await lookout?.stop();
  });

  /** Passing and failing counts of the header, once the summary has loaded. */
  async function counts(page: Page): Promise<{ passing: number; failing: number }> {
    const text = (await page.getByLabel('Check counts').textContent()) ?? '';
    const passing = /(\d+) passing/.exec(text)?.[1];
    const failing = /(\d+) failing/.exec(text)?.[1];
    return { passing: Number(passing ?? -1), failing: Number(failing ?? -1) };
  }

  it("shows the lookout-self canary's checks with live status", async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/health`);
    await page.getByRole('heading', { name: HEALTH_PAGE_TEXTS.title, level: 1 }).waitFor();
    expect(await page.title()).toBe('Health | Lookout');

    // The checks are due at once on a new install; their first results arrive within seconds.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await counts(page)).passing;
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(SELF_CHECKS.length);
    expect((await counts(page)).failing).toBe(0);

    // Passing checks are hidden by default (spec 2 section 2.2).
    const hidePassing = page.getByRole('switch', { name: HEALTH_PAGE_TEXTS.hidePassing });
    expect(await hidePassing.getAttribute('aria-checked')).toBe('true');
    const table = page.getByRole('table', { name: HEALTH_PAGE_TEXTS.checksTable });
    await table.getByText('No data available').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}health-dashboard-default.png` });

    // A click on the switch's label toggles it, as on the switch.
    await page
      .getByRole('complementary', { name: 'Filters' })
      .getByText(HEALTH_PAGE_TEXTS.hidePassing, { exact: true })
      .click();
    await page.waitForURL((url) => url.searchParams.get('hidePassing') === 'false');
    // The address changes first; the switch follows on the next render.
    await expect.poll(() => hidePassing.getAttribute('aria-checked')).toBe('false');
    // Grouped by canary name by default: one group row, expanded to its three checks by a click
    // anywhere on it (here its Uptime cell).
    const group = table.getByRole('row', { name: new RegExp(SELF_CANARY_NAME) });
    await group.waitFor();
    await group.getByRole('cell').nth(2).click();
    expect(await group.getAttribute('aria-expanded')).toBe('true');
    for (const name of SELF_CHECKS) {
      const row = table.getByRole('row', { name: new RegExp(name) });
      await row.waitFor();
      expect(await row.getByRole('img', { name: 'healthy' }).getAttribute('data-colour')).toBe('green');
      expect(await row.textContent()).toMatch(/100\.0%/);
    }
    expect(await page.getByRole('tab', { name: 'default' }).count()).toBe(1);
    await page.screenshot({ path: `${ARTIFACTS}health-dashboard.png` });

    // Search narrows the table and stays in the address.
    await page.getByPlaceholder(HEALTH_PAGE_TEXTS.searchPlaceholder).fill('postgres');
    await page.waitForURL((url) => url.searchParams.get('query') === 'postgres');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await page.getByRole('button', { name: 'Clear search' }).click();

    expect(errors).toEqual([]);
    await page.close();
  });

  it("opens a check's drawer, runs it now and shows the run in its history", async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/health?hidePassing=false&groupBy=no-group`);
    const table = page.getByRole('table', { name: HEALTH_PAGE_TEXTS.checksTable });
    await table.getByRole('row', { name: /lookout-api-health/ }).click();
    await page.waitForURL((url) => url.searchParams.has('checkId'));

    const drawer = page.getByRole('dialog', { name: /lookout-api-health/ });
    await drawer.waitFor();
    await drawer.getByRole('list', { name: 'Labels' }).getByText('app: lookout').waitFor();
    await drawer.getByText(CHECK_DRAWER_TEXTS.latencyP99).waitFor();
    await drawer.getByRole('img', { name: /Health Overview: \d+ points/ }).waitFor();
    const history = drawer.getByRole('table', { name: CHECK_DRAWER_TEXTS.history.table });
    // While the history loads the table is busy and holds skeleton rows: count only real runs.
    await history.and(page.locator(':not([aria-busy])')).getByRole('row').nth(1).waitFor();
    const runsBefore = (await history.getByRole('row').count()) - 1;
    expect(runsBefore).toBeGreaterThan(0);
    // Uptime counts the same runs as the history (every run of this check passes).
    const passedInUptime = async () => Number(/(\d+) passed/.exec((await drawer.textContent()) ?? '')?.[1] ?? -1);
    await expect.poll(passedInUptime).toBeGreaterThanOrEqual(runsBefore);
    await page.screenshot({ path: `${ARTIFACTS}health-drawer.png` });

    await drawer.getByRole('button', { name: CHECK_DRAWER_TEXTS.runNow }).click();
    const result = drawer.getByRole('status');
    await result.getByText(CHECK_DRAWER_TEXTS.runPassed).waitFor();
    // The run is stored and the history is read again: it has one row more (or two, should the
    // scheduler's next run land meanwhile).
    await expect.poll(async () => (await history.getByRole('row').count()) - 1).toBeGreaterThanOrEqual(runsBefore + 1);
    // …and Uptime counts it at once (one check's hour is computed live, not from the snapshot).
    await expect.poll(passedInUptime).toBeGreaterThanOrEqual(runsBefore + 1);
    await page.screenshot({ path: `${ARTIFACTS}health-drawer-run-now.png` });

    // The history's duration filter refuses what is not in ms or s.
    await drawer.getByRole('combobox', { name: 'Duration' }).selectOption('custom');
    await drawer.getByRole('textbox', { name: CHECK_DRAWER_TEXTS.history.customDuration }).fill('2m');
    await drawer.getByText(CHECK_DRAWER_TEXTS.history.durationError).waitFor();

    await drawer.getByRole('tab', { name: CHECK_DRAWER_TEXTS.tabs.spec }).click();
    await drawer.getByLabel('Check spec').getByText('/api/health', { exact: false }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}health-drawer-spec.png` });

    const edit = drawer.getByRole('link', { name: CHECK_DRAWER_TEXTS.edit });
    expect(await edit.getAttribute('href')).toMatch(/^\/settings\/canaries\/[0-9a-f-]{36}$/);

    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('checkId'));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens lookout-self in the editor, read-only as the system owns it', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/health?hidePassing=false&groupBy=no-group`);
    await page
      .getByRole('table', { name: HEALTH_PAGE_TEXTS.checksTable })
      .getByRole('row', { name: /lookout-postgres/ })
      .click();
    await page.getByRole('dialog').getByRole('link', { name: CHECK_DRAWER_TEXTS.edit }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/settings/canaries/'));
    const form = page.getByRole('form', { name: 'Health check' });
    await form.getByText(CANARY_FORM_TEXTS.readOnly('System')).waitFor();
    expect(await form.getByRole('button', { name: CANARY_FORM_TEXTS.update }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}health-editor-read-only.png`, fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('adds a health check from the form; its failing check shows on the dashboard', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/health`);
    await page.getByRole('link', { name: HEALTH_PAGE_TEXTS.addCheck }).click();
    await page.waitForURL((url) => url.pathname === '/settings/canaries/new');
    const form = page.getByRole('form', { name: 'Health check' });

    // Saving the empty form names what is missing.
    await form.getByRole('button', { name: CANARY_FORM_TEXTS.save }).click();
    await form.getByRole('alert').first().getByText('metadata.name: is required').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}health-editor-validation.png`, fullPage: true });

    await form.getByLabel('Name *').first().fill('shop');
    await form.getByLabel('Schedule *').selectOption('@every 30s');
    await form.getByRole('button', { name: CANARY_FORM_TEXTS.removeCheck }).click();
    await form.getByRole('combobox', { name: 'Check type' }).selectOption('tcp');
    await form.getByRole('button', { name: CANARY_FORM_TEXTS.addCheck }).click();
    const tcp = form.getByRole('group', { name: /tcp/ });
    await tcp.getByLabel('Name *').fill('closed-port');
    await tcp.getByLabel('Endpoint *').fill('127.0.0.1:1');
    await tcp.getByLabel('Threshold (ms)').fill('soon');
    await tcp.getByText(CANARY_FORM_TEXTS.numberError).waitFor();
    await tcp.getByLabel('Threshold (ms)').fill('1000');

    // The YAML tab shows the same canary; a misspelt field is named.
    await form.getByRole('tab', { name: CANARY_FORM_TEXTS.yamlTab }).click();
    const editor = form.getByRole('textbox', { name: 'Canary YAML' });
    await editor.getByText('endpoint: 127.0.0.1:1').waitFor();
    await editor.getByText('thresholdMillis: 1000').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('timout: 5');
    await form.getByRole('alert').getByText('spec.tcp[0].timout: unknown field').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}health-editor-yaml.png`, fullPage: true });
    for (let i = 0; i < 'timout: 5'.length + 1; i += 1) await page.keyboard.press('Backspace');
    await expect.poll(() => form.getByRole('alert').count()).toBe(0);

    await form.getByRole('button', { name: CANARY_FORM_TEXTS.save }).click();
    await page.getByText(CANARY_FORM_TEXTS.created('shop')).waitFor();
    // Saving returns to the Health Checks list, where its row opens it again.
    await page.waitForURL((url) => url.pathname === SETTINGS_RESOURCES.canaries.path);
    await page
      .getByRole('table', { name: SETTINGS_RESOURCES.canaries.title })
      .getByRole('row', { name: /shop/ })
      .click();
    await page.waitForURL((url) => /^\/settings\/canaries\/[0-9a-f-]{36}$/.test(url.pathname));
    await form.getByRole('button', { name: CANARY_FORM_TEXTS.update }).waitFor();
    expect(await form.getByLabel('Name *').first().getAttribute('readonly')).not.toBeNull();

    await page.goto(`${server.url}/health?groupBy=no-group`);
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await counts(page)).failing;
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(1);
    const row = page
      .getByRole('table', { name: HEALTH_PAGE_TEXTS.checksTable })
      .getByRole('row', { name: /closed-port/ });
    expect(await row.getByRole('img', { name: 'unhealthy' }).getAttribute('data-colour')).toBe('red');
    await page.getByRole('tab', { name: 'default' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}health-dashboard-failing.png` });
    expect(errors).toEqual([]);
    await page.close();
  });
});
