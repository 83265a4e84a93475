import { CANARY_FORM_TEXTS, HEALTH_PAGE_TEXTS, IDENTITY_MESSAGES } from '@lookout/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchConsole } from './support/browser.js';
import { makeDataDir, startLookout, type LookoutServer } from './support/lookout-server.js';

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'Lookout-admin-e2e-1';

/**
 * Records the page's Content-Security-Policy violations from the first script on, next to the
 * console errors `watchConsole` records, so a journey can assert the policy refused nothing
 * the console needs.
 */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  // Page code as text: this project compiles without the DOM's types.
  await page.addInitScript({
    content: `
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        window.__cspViolations.push(
          event.violatedDirective + ' refused ' + (event.blockedURI || 'inline') + ' (' + event.sourceFile + ':' + event.lineNumber + ')',
        );
      });
    `,
  });
  return () => page.evaluate<string[]>('window.__cspViolations ?? []');
}

/**
 * Issue 10 item 7 in a real browser against the built server: the security headers are sent,
 * and the console works under them (sign-in, the Health dashboard, the YAML editor, the API
 * docs) with no CSP violation and no console error; another page cannot frame it. Issue 20
 * item 3: the assets arrive precompressed, cached as immutable.
 */
describe('the console under its security headers, in Chromium', () => {
  let server: LookoutServer;
  let browser: Browser;
  let context: BrowserContext;
  let removeData: () => Promise<void>;

  beforeAll(async () => {
    const data = await makeDataDir();
    removeData = data.remove;
    server = await startLookout({
      dataDir: data.dir,
      env: { LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL, LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await removeData?.();
  });

  it('sends the headers with the page and precompressed, immutable assets; signs in and shows /health', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    const violations = await watchCsp(page);
    const scripts: Array<{ url: string; headers: Record<string, string> }> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.push({ url: response.url(), headers: response.headers() });
    });

    const document = await page.goto(`${server.url}/login`);
    const headers = document?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('same-origin');
    expect(headers['x-content-type-options']).toBe('nosniff');

    await page.getByRole('heading', { name: IDENTITY_MESSAGES.signInTitle }).waitFor();
    const bundles = scripts.filter((script) => /\/assets\/.+\.js$/.test(new URL(script.url).pathname));
    expect(bundles.length).toBeGreaterThan(0);
    // Every script of a kilobyte or more has a brotli copy; smaller ones travel as they are.
    expect(bundles.some((script) => script.headers['content-encoding'] === 'br')).toBe(true);
    for (const script of bundles) {
      expect(script.headers['cache-control'], script.url).toBe('public, max-age=31536000, immutable');
      expect(script.headers.vary, script.url).toMatch(/accept-encoding/i);
    }

    await page.getByLabel('E-Mail').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // '/' leads to the topology Dashboard; the health page is one click away in the sidebar.
    await page.waitForURL((url) => url.pathname === '/topology');
    await page.getByRole('group', { name: 'Filters' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: HEALTH_PAGE_TEXTS.title }).click();
    await page.waitForURL((url) => url.pathname === '/health');
    await page.getByRole('heading', { name: HEALTH_PAGE_TEXTS.title, level: 1 }).waitFor();
    await page.getByRole('table', { name: HEALTH_PAGE_TEXTS.checksTable }).waitFor();

    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs the check editor (form, YAML editor) under the policy', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    const violations = await watchCsp(page);
    await page.goto(`${server.url}/settings/canaries/new`);
    const form = page.getByRole('form', { name: 'Health check' });
    await form.getByRole('tab', { name: CANARY_FORM_TEXTS.yamlTab }).click();
    await form.getByRole('textbox', { name: 'Canary YAML' }).getByText('kind: Canary').waitFor();
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders the API docs under the policy', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    const violations = await watchCsp(page);
    const response = await page.goto(`${server.url}/api/docs`);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.getByText('Lookout API').first().waitFor();
    await page.locator('.opblock').first().waitFor();
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('cannot be framed by another page', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    // A page of another origin (an empty document) that tries to frame the console.
    await page.setContent(`<iframe id="victim" src="${server.url}/login" width="800" height="600"></iframe>`);
    await expect.poll(() => errors.some((error) => /frame-ancestors|refused to display/i.test(error))).toBe(true);
    const frame = page.frames().find((candidate) => candidate.url().startsWith(server.url));
    const rendered = frame
      ? await frame
          .locator('#root')
          .count()
          .catch(() => 0)
      : 0;
    expect(rendered).toBe(0);
    await page.close();
  });
});
