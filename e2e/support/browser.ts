import { IDENTITY_MESSAGES } from '@lookout/contracts';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Flags this machine's headless Chromium needs; the last three keep it off the network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** Collects console errors and uncaught page errors so a journey can assert there were none. */
export function watchConsole(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { errors };
}

/** Console errors other than refused calls (a refused call logs 'Failed to load resource'). */
export const unexpectedErrors = (errors: string[]): string[] =>
  errors.filter((error) => !error.startsWith('Failed to load resource'));

/** Signs in on `baseUrl`'s login page with a password and waits for the console. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('heading', { name: IDENTITY_MESSAGES.signInTitle }).waitFor();
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // '/' leads to the first area, /topology (spec 1 section 2.1).
  await page.waitForURL((url) => ['/', '/topology', '/health'].includes(url.pathname));
}
