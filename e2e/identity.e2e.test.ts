import { mkdir } from 'node:fs/promises';
import { IDENTITY_MESSAGES } from '@lookout/contracts';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchConsole, unexpectedErrors } from './support/browser.js';
import { ADMIN, startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

/**
 * The identity journey of issue 4 in a real browser against the built server: the admin
 * signs in, enables TOTP and backup codes in /profile-settings, signs out, signs in with
 * password + TOTP, then again with password + a backup code.
 */
describe('sign-in, two-factor setup and second-factor sign-in in Chromium', () => {
  let server: LookoutServer;
  let lookout: ConsoleSession;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole({ postgres: false });
    ({ server } = lookout);
    // Signing in is what this test is about, so the session starts signed out.
    ({ browser, context } = await lookout.openBrowser({ viewport: { width: 1280, height: 860 } }, { signIn: false }));
  });
  afterAll(async () => {
    await lookout?.stop();
  });

  const path = (page: Page) => {
    const url = new URL(page.url());
    return `${url.pathname}${url.search}`;
  };

  async function signInWithPassword(page: Page) {
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.signInTitle }).waitFor();
    await page.getByLabel('E-Mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async function signOut(page: Page) {
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: IDENTITY_MESSAGES.signOut }).click();
    await page.waitForURL((url) => url.pathname === '/login');
  }

  let totpSecret = '';
  let backupCodes: string[] = [];
  let lastTotpStep = -1;
  /**
   * A code an authenticator app shows for the secret read off the settings page. The server
   * accepts each code once, and only of a later time step than the last code it accepted, so
   * this takes the current step or the next (the server allows one step of clock drift) and
   * waits for the next step when both are used up.
   */
  const freshTotp = async (): Promise<string> => {
    const totp = new TOTP({ secret: Secret.fromBase32(totpSecret), digits: 6, period: 30, algorithm: 'SHA1' });
    for (;;) {
      const current = totp.counter();
      const step = Math.max(current, lastTotpStep + 1);
      if (step <= current + 1) {
        lastTotpStep = step;
        return totp.generate({ timestamp: step * totp.period * 1000 });
      }
      await new Promise((resolve) => setTimeout(resolve, totp.remaining() + 100));
    }
  };
  /** A 4xx answer is part of a flow (a wrong password, a refused code); the browser logs each. */

  it('sends a signed-out visitor to sign-in and back, and greets the admin in the user menu', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/no/such/page?x=1`);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('return_to')).toBe('/no/such/page?x=1');
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.signInTitle }).waitFor();
    expect(await page.getByRole('link', { name: IDENTITY_MESSAGES.recoverAccount }).count()).toBe(1);
    // Registration is invite-only by default: no link to it.
    expect(await page.getByRole('link', { name: IDENTITY_MESSAGES.createAccount }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}identity-login.png` });

    // A wrong password re-renders the flow with Kratos's message.
    await page.getByLabel('E-Mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'The provided credentials are invalid' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}identity-login-wrong-password.png` });

    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/no/such/page');
    expect(path(page)).toBe('/no/such/page?x=1');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText(IDENTITY_MESSAGES.greeting('Admin')).waitFor();
    await page.getByTestId('version-line').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}identity-user-menu.png` });
    await page.getByRole('menuitem', { name: IDENTITY_MESSAGES.yourProfile }).click();
    await page.waitForURL((url) => url.pathname === '/profile-settings');
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  it('lets an invited user set a password from a recovery code, verify the address and sign in', async () => {
    // The admin invites through the Kratos admin API with a session token from an API login.
    const loginFlow = (await (await fetch(`${server.url}/api/.ory/self-service/login/api`)).json()) as { id: string };
    const login = (await (
      await fetch(`${server.url}/api/.ory/self-service/login?flow=${loginFlow.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ method: 'password', identifier: ADMIN.email, password: ADMIN.password }),
      })
    ).json()) as { session_token: string };
    const admin = { authorization: `Bearer ${login.session_token}`, 'content-type': 'application/json' };
    const invited = (await (
      await fetch(`${server.url}/api/.ory/admin/identities`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({
          schema_id: 'default',
          traits: { email: 'olive@example.com', name: { first: 'Olive', last: 'Ops' } },
        }),
      })
    ).json()) as { id: string };
    const recovery = (await (
      await fetch(`${server.url}/api/.ory/admin/recovery/code`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ identity_id: invited.id }),
      })
    ).json()) as { recovery_link: string; recovery_code: string };

    const invitee = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await invitee.newPage();
    const { errors } = watchConsole(page);
    await page.goto(recovery.recovery_link);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.recoverAccount }).waitFor();
    await page.getByLabel('Recovery code').fill(recovery.recovery_code);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/profile-settings');
    await page.getByText('You successfully recovered your account.', { exact: false }).waitFor();
    const password = page.getByTestId('settings-section-password');
    await password.getByLabel('Password').fill('Olive-new-password-1');
    await password.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your changes have been saved!').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}identity-invited-password-set.png` });

    // No SMTP server is configured: the verification code waits in the email outbox, where
    // the admin reads it (never in the server log).
    await page.goto(`${server.url}/verification`);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.verifyAccount }).waitFor();
    await page.getByLabel('Email').fill('olive@example.com');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByLabel('Verification code').waitFor();
    const outbox = (await (
      await fetch(
        `${server.url}/api/.ory/admin/courier/messages?recipient=olive@example.com&status=queued&page_size=1`,
        { headers: admin },
      )
    ).json()) as { template_type: string; body: string }[];
    expect(outbox[0]?.template_type).toBe('verification_code_valid');
    const code = /following code:\s+(\d{6})/.exec(outbox[0]?.body ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    // The log holds many numbers (times, durations): only the code standing alone would count.
    expect(server.output()).not.toMatch(new RegExp(`(?<![\\d.])${code}(?![\\d.])`));
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByText('You successfully verified your email address.').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}identity-invited-verified.png` });

    await page.goto(`${server.url}/`);
    await signOut(page);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.signInTitle }).waitFor();
    await page.getByLabel('E-Mail').fill('olive@example.com');
    await page.getByLabel('Password').fill('Olive-new-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => ['/', '/topology', '/health'].includes(url.pathname));
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText(IDENTITY_MESSAGES.greeting('Olive Ops')).waitFor();
    expect(unexpectedErrors(errors)).toEqual([]);
    await invitee.close();
  });

  it('enables TOTP and backup codes in /profile-settings', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/profile-settings`);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.yourProfile }).waitFor();
    for (const title of Object.values(IDENTITY_MESSAGES.settingsSections).filter((t) => t !== 'Social sign-in')) {
      await page.getByRole('heading', { name: title, exact: true }).waitFor();
    }
    const totp = page.getByTestId('settings-section-totp');
    await totp.getByRole('img', { name: 'Authenticator app QR code' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}identity-settings.png` });
    await totp.screenshot({ path: `${ARTIFACTS}identity-settings-totp.png` });
    await page
      .getByTestId('settings-section-webauthn')
      .screenshot({ path: `${ARTIFACTS}identity-settings-webauthn.png` });

    totpSecret = (await totp.getByTestId('flow-text-totp_secret_key').locator('code').textContent())?.trim() ?? '';
    expect(totpSecret).toMatch(/^[A-Z2-7]+=*$/);
    await totp.getByLabel('Verify code').fill(await freshTotp());
    await totp.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your changes have been saved!').waitFor();
    await totp.getByRole('button', { name: 'Unlink TOTP Authenticator App' }).waitFor();

    // With a second factor in place the aal1 session no longer suffices for settings (Kratos's
    // highest_available): the next change asks for the second factor and comes back here.
    const lookup = page.getByTestId('settings-section-lookup_secret');
    await lookup.getByRole('button', { name: 'Generate new backup recovery codes' }).click();
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.twoFactorTitle }).waitFor();
    expect(new URL(page.url()).searchParams.get('return_to')).toMatch(/^\/profile-settings\?flow=/);
    await page.getByLabel('Authentication code').fill(await freshTotp());
    await page.getByRole('button', { name: 'Use Authenticator' }).click();
    await page.waitForURL((url) => url.pathname === '/profile-settings');
    await lookup.getByRole('button', { name: 'Generate new backup recovery codes' }).click();
    const list = lookup.getByRole('list');
    await list.waitFor();
    backupCodes = (await list.getByRole('listitem').allTextContents()).map((text) => text.trim());
    expect(backupCodes.length).toBeGreaterThanOrEqual(10);
    await lookup.screenshot({ path: `${ARTIFACTS}identity-backup-codes.png` });
    await lookup.getByRole('button', { name: 'Confirm backup recovery codes' }).click();
    await page.getByText('Your changes have been saved!').waitFor();
    await lookup.getByRole('button', { name: 'Disable this method' }).waitFor();

    await signOut(page);
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  it('signs in with password, then the TOTP code', async () => {
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/login`);
    await signInWithPassword(page);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.twoFactorTitle }).waitFor();
    expect(new URL(page.url()).searchParams.get('aal')).toBe('aal2');
    await page.screenshot({ path: `${ARTIFACTS}identity-two-factor.png` });

    await page.getByLabel('Authentication code').fill(await freshTotp());
    await page.getByRole('button', { name: 'Use Authenticator' }).click();
    await page.waitForURL((url) => ['/', '/topology', '/health'].includes(url.pathname));
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText(IDENTITY_MESSAGES.greeting('Admin')).waitFor();
    await page.keyboard.press('Escape');
    await signOut(page);
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.close();
  });

  it('signs in with password, then a backup code, which works only once', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await signInWithPassword(page);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.twoFactorTitle }).waitFor();
    const [first] = backupCodes;
    if (!first) throw new Error('no backup code was captured');
    await page.getByLabel('Backup recovery code').fill(first);
    await page.getByRole('button', { name: 'Use backup recovery code' }).click();
    await page.waitForURL((url) => ['/', '/topology', '/health'].includes(url.pathname));
    await page.getByRole('button', { name: 'User menu' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}identity-signed-in.png` });
    await signOut(page);

    // The same code again is refused with Kratos's message.
    await signInWithPassword(page);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.twoFactorTitle }).waitFor();
    await page.getByLabel('Backup recovery code').fill(first);
    await page.getByRole('button', { name: 'Use backup recovery code' }).click();
    await page.getByText(/already been used|not valid/).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}identity-backup-code-reused.png` });

    // Someone who cannot pass the second factor can sign out from that page.
    await page.getByRole('button', { name: IDENTITY_MESSAGES.signOut }).click();
    await page.waitForURL((url) => url.pathname === '/login' && !url.searchParams.has('aal'));
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.signInTitle }).waitFor();
    await page.close();
  });

  it('shows the flow error, bad session and registration pages with the spec texts', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/bad-session?error_code=BAD_SESSION`);
    await page
      .getByRole('heading', {
        name: 'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.',
      })
      .waitFor();
    await page.goto(`${server.url}/bad-session?error_code=OTHER`);
    await page.getByRole('heading', { name: 'Unknown error' }).waitFor();
    expect(await page.getByRole('link', { name: 'Go back' }).getAttribute('href')).toBe('/');

    // An unknown flow error id leads home, which (signed out) leads to sign-in.
    await page.goto(`${server.url}/error?id=00000000-0000-0000-0000-000000000000`);
    await page.waitForURL((url) => url.pathname === '/login');

    await page.goto(`${server.url}/registration`);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.createAccount }).waitFor();
    await page.getByText(IDENTITY_MESSAGES.registrationClosed).waitFor();
    await page.goto(`${server.url}/recovery`);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.recoverAccount }).waitFor();
    await page.getByLabel('Email').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}identity-recovery.png` });
    await page.close();
  });
  it('registers a security key in /profile-settings and signs in with it (virtual authenticator)', async () => {
    // WebAuthn needs a domain for its relying party: server.url is on localhost, not 127.0.0.1.
    const base = server.url;
    const keyContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await keyContext.newPage();
    const { errors } = watchConsole(page);
    const cdp = await keyContext.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'usb',
        hasResidentKey: false,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await page.goto(`${base}/login`);
    await signInWithPassword(page);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.twoFactorTitle }).waitFor();
    await page.getByLabel('Authentication code').fill(await freshTotp());
    await page.getByRole('button', { name: 'Use Authenticator' }).click();
    await page.waitForURL((url) => ['/', '/topology', '/health'].includes(url.pathname));

    await page.goto(`${base}/profile-settings`);
    const keys = page.getByTestId('settings-section-webauthn');
    await keys.getByLabel('Name of the security key').fill('YubiKey');
    await keys.getByRole('button', { name: 'Add security key' }).click();
    await page.getByText('Your changes have been saved!').waitFor();
    await keys.getByRole('button', { name: 'Remove security key "YubiKey"' }).waitFor();
    await keys.screenshot({ path: `${ARTIFACTS}identity-settings-security-key.png` });

    await signOut(page);
    await signInWithPassword(page);
    await page.getByRole('heading', { name: IDENTITY_MESSAGES.twoFactorTitle }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}identity-two-factor-with-key.png` });
    await page.getByRole('button', { name: 'Sign in with hardware key' }).click();
    // Signing out from /profile-settings brings the user back there after signing in.
    await page.waitForURL((url) => url.pathname === '/profile-settings');
    await keys.getByRole('button', { name: 'Remove security key "YubiKey"' }).waitFor();
    expect(unexpectedErrors(errors)).toEqual([]);
    await keyContext.close();
  });
});
