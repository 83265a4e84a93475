import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

describe('the console shell in Chromium', () => {
  let server: LookoutServer;
  let lookout: ConsoleSession;
  let context: BrowserContext;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole({ postgres: false });
    ({ server } = lookout);
    // The console sits behind sign-in: sign in once as the admin; the pages share the session.
    ({ context } = await lookout.openBrowser({ viewport: { width: 1280, height: 800 } }));
  });
  afterAll(async () => {
    await lookout?.stop();
  });

  async function openPage(path: string): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}${path}`);
    return { page, errors };
  }

  it('loads the shell, shows the frontend and backend versions, and a not-found page for a missing route', async () => {
    const { page, errors } = await openPage('/');
    await expect.poll(() => page.title()).toMatch(/Lookout$/);

    await page.getByRole('button', { name: 'User menu' }).click();
    const versionLine = page.getByTestId('version-line');
    await versionLine.waitFor();
    await expect.poll(() => versionLine.textContent()).toMatch(/frontend 1\.0\.788.*backend \d+\.\d+\.\d+/);
    await page.screenshot({ path: `${ARTIFACTS}shell-user-menu.png` });
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.title()).toBe('Page not found | Lookout');
    await page.screenshot({ path: `${ARTIFACTS}shell-not-found.png` });

    expect(errors).toEqual([]);
    await page.close();
  });

  it('collapses the sidebar on a narrow window', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 900, height: 700 });
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/`);
    const sidebar = page.getByRole('navigation').first();
    await sidebar.waitFor();
    const width = await sidebar.evaluate((element) => element.getBoundingClientRect().width);
    expect(width).toBeLessThan(120);
    await page.screenshot({ path: `${ARTIFACTS}shell-narrow.png` });
    expect(errors).toEqual([]);
    await page.close();
  });
});
