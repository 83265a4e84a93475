import { mkdir } from 'node:fs/promises';
import { FEATURE_FLAGS_PAGE_TEXTS, IDENTITY_MESSAGES, USERS_PAGE_TEXTS, VIEW_MESSAGES } from '@lookout/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchConsole, unexpectedErrors } from './support/browser.js';
import { freePort, makeDataDir, startLookout, type LookoutServer } from './support/lookout-server.js';
import { ADMIN_SETTINGS_MENU_WITHOUT_USERS } from './support/settings-menu.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'Lookout-admin-e2e-1';

/**
 * The console against an external Ory Kratos (KRATOS_PUBLIC_URL) in a real browser. The
 * "Kratos" is a second built Lookout (A) with its built-in identity service, which speaks
 * Kratos's public API at /api/.ory and created the admin identity (address verified) from
 * LOOKOUT_ADMIN_EMAIL. Lookout B proxies /api/.ory to A and has the same admin email, so B
 * grants that person the admin role on first sight.
 *
 * The browser talks to B only, and at `localhost` while B reaches A at `127.0.0.1`: a
 * redirect or form action that pointed at A, or a cookie set for A's host, would leave
 * the page on the wrong origin or signed out, and every request the page makes must stay on B.
 * A's LOOKOUT_PUBLIC_URL is B's origin, as a real Kratos's serve.public.base_url would be.
 *
 * B has no KRATOS_ADMIN_URL: A's admin API (/api/.ory/admin) needs a session with a role
 * that reads identities, and B's admin proxy strips the caller's session, as Kratos's admin
 * API is meant to sit on a trusted network. User administration through a real Kratos admin
 * API is covered by apps/server/src/modules/identity/external-kratos/external-kratos.test.ts.
 */
describe('the console with an external Ory Kratos (KRATOS_PUBLIC_URL) in Chromium', () => {
  let kratos: LookoutServer;
  let lookout: LookoutServer;
  /** B as the browser sees it: another host name than the one B uses for A. */
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  const removers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    const [kratosData, lookoutData] = await Promise.all([makeDataDir(), makeDataDir()]);
    removers.push(kratosData.remove, lookoutData.remove);
    // B asks A only once a browser signs in, so both start together.
    const kratosPort = await freePort();
    const lookoutPort = await freePort();
    const kratosPublicUrl = `http://127.0.0.1:${kratosPort}/api/.ory`;
    base = `http://localhost:${lookoutPort}`;
    [kratos, lookout] = await Promise.all([
      startLookout({
        dataDir: kratosData.dir,
        port: kratosPort,
        env: {
          LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL,
          LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD,
          // As a real Kratos behind Lookout is configured (serve.public.base_url): its flows'
          // actions, redirects and links point at B, whatever Host B's proxy sends it.
          LOOKOUT_PUBLIC_URL: base,
        },
      }),
      startLookout({
        dataDir: lookoutData.dir,
        port: lookoutPort,
        env: { KRATOS_PUBLIC_URL: kratosPublicUrl, LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL },
      }),
    ]);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await Promise.all([lookout?.stop(), kratos?.stop()]);
    await Promise.all(removers.map((remove) => remove()));
  });

  /** A wrong password is a 400 of the flow, which the browser logs; anything else is a real error. */

  /** Every URL the page requests or is sent to that is not on B's origin. */
  function watchOrigins(page: Page): { foreign: string[] } {
    const foreign: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.origin !== base) foreign.push(request.url());
    });
    return { foreign };
  }

  it("finds A's admin API closed to callers without a session, so B runs without KRATOS_ADMIN_URL", async () => {
    expect((await fetch(`${kratos.url}/api/.ory/admin/identities`)).status).toBe(401);
    // B, without KRATOS_ADMIN_URL, refuses its admin API for lack of a session first.
    expect((await fetch(`${lookout.url}/api/.ory/admin/identities`)).status).toBe(401);
  });

  it("signs the admin in through B's proxy to A, grants the admin role, and signs out", async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    const { foreign } = watchOrigins(page);

    await page.goto(`${base}/`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.signInTitle }).waitFor();
    await page.getByLabel('E-Mail').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}external-kratos-login.png` });

    // A wrong password: A's flow comes back through B with Kratos's generic message.
    await page.getByLabel('E-Mail').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'The provided credentials are invalid' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.screenshot({ path: `${ARTIFACTS}external-kratos-wrong-password.png` });

    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => ['/', '/topology', '/health'].includes(url.pathname));
    // A's session cookie, set through B's proxy, belongs to the host the browser talks to.
    const session = (await context.cookies(base)).find((cookie) => cookie.name === 'ory_kratos_session');
    expect(session).toMatchObject({ domain: 'localhost', httpOnly: true });
    const whoami = (cookie: string) =>
      fetch(`${lookout.url}/api/auth/whoami`, { headers: { cookie: `ory_kratos_session=${cookie}` } });
    expect((await whoami(session?.value ?? '')).status).toBe(200);

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText(IDENTITY_MESSAGES.greeting('Admin')).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}external-kratos-user-menu.png` });
    await page.keyboard.press('Escape');

    // B made the person on first sight and, its address verified by A, made them admin: the
    // admin-only Settings entries show, but not Users, since B (without KRATOS_ADMIN_URL)
    // cannot list or manage identities; /settings/users is an address like any unknown one.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Settings' }).click();
    const settings = nav.getByRole('list', { name: 'Settings' });
    await settings.waitFor();
    expect((await settings.getByRole('link').allTextContents()).map((text) => text.trim())).toEqual(
      ADMIN_SETTINGS_MENU_WITHOUT_USERS,
    );
    await settings.getByRole('link', { name: FEATURE_FLAGS_PAGE_TEXTS.title }).click();
    await page.waitForURL((url) => url.pathname === '/settings/feature-flags');
    expect(await page.getByText(VIEW_MESSAGES.unauthorized).count()).toBe(0);
    await page.goto(`${base}/settings/users`);
    await page.getByRole('heading', { name: VIEW_MESSAGES.notFoundTitle }).waitFor();
    expect(await page.getByRole('table', { name: USERS_PAGE_TEXTS.title }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}external-kratos-users.png` });

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: IDENTITY_MESSAGES.signOut }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('E-Mail').waitFor();
    expect((await context.cookies(base)).some((cookie) => cookie.name === 'ory_kratos_session')).toBe(false);
    await page.screenshot({ path: `${ARTIFACTS}external-kratos-signed-out.png` });
    // The session ended at A, not only in this browser: B no longer accepts the old cookie.
    expect((await whoami(session?.value ?? '')).status).toBe(401);
    await page.goto(`${base}/settings/users`);
    await page.waitForURL((url) => url.pathname === '/login');

    expect(foreign).toEqual([]);
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });
});
