import { mkdir } from 'node:fs/promises';
import {
  SETTINGS_RESOURCES,
  SETTINGS_RESOURCE_TEXTS,
  SETTINGS_RESOURCE_TOASTS,
  VIEW_MESSAGES,
} from '@lookout/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const rules = SETTINGS_RESOURCES.incident_rules;

/**
 * The generic settings resources in a real browser against the built server (issue 18 item 3):
 * the admin creates an incident rule from Settings > Incident Rules, the server refuses a spec
 * that does not validate, the rule is listed with the generic columns, is updated with its
 * name fixed, and is soft-deleted; the data API agrees at each step.
 */
describe('the settings resource pages in Chromium', () => {
  let lookout: ConsoleSession;
  let server: LookoutServer;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole({ postgres: false });
    ({ server } = lookout);
    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
    page = await context.newPage();
    ({ errors } = watchConsole(page));
    await page.goto(server.url);
  }, 120_000);
  afterAll(async () => {
    await lookout?.stop();
  });

  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
  const list = () => page.getByRole('table', { name: rules.title });
  const ruleRow = (name: string) => list().getByRole('row', { name });
  /** The rule's row as the data API holds it. */
  const stored = (name: string) =>
    page.evaluate(async (ruleName) => {
      const response = await fetch(`/api/db/incident_rules?name=eq.${encodeURIComponent(ruleName)}&select=*`);
      return (await response.json()) as { id: string; spec: Record<string, unknown>; deleted_at: string | null }[];
    }, name);

  it('creates an incident rule from Settings > Incident Rules; a spec the server refuses stays on the form', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('link', { name: rules.title, exact: true }).click();
    await page.waitForURL(`${server.url}${rules.path}`);
    await page.getByRole('heading', { level: 1, name: rules.title }).waitFor();
    await page.getByText(VIEW_MESSAGES.emptyTable).waitFor();
    const headers = await list().getByRole('columnheader').allTextContents();
    expect(headers).toEqual([
      'Name',
      'Source',
      'Job Status',
      'Last Run',
      'Last Failed',
      'Tags',
      'Created',
      'Updated',
      'Created By',
    ]);

    await page.getByRole('link', { name: rules.add }).click();
    await page.getByRole('heading', { level: 1, name: rules.titleNew }).waitFor();
    const form = page.getByRole('form', { name: rules.name });
    await form.getByLabel(SETTINGS_RESOURCE_TEXTS.fields.name).fill('payments-down');
    // The template's priority as text: the server's validation refuses it.
    await page.getByRole('textbox', { name: SETTINGS_RESOURCE_TEXTS.fields.spec }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('priority: high');
    await form.getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.save }).click();
    await form.getByRole('alert').filter({ hasText: 'Invalid incident rule: spec.priority' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`${rules.path}/new`);
    await page.screenshot({ path: `${ARTIFACTS}settings-rule-refused.png` });

    await page.getByRole('textbox', { name: SETTINGS_RESOURCE_TEXTS.fields.spec }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('priority: 2');
    await form.getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.save }).click();
    await toast(SETTINGS_RESOURCE_TOASTS.created('payments-down'));
    await page.waitForURL(`${server.url}${rules.path}`);
    const row = ruleRow('payments-down');
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('UI');
    expect(await row.textContent()).toContain('Admin');
    const [saved] = await stored('payments-down');
    expect(saved?.spec).toEqual({ priority: 2 });
    await page.screenshot({ path: `${ARTIFACTS}settings-rules-list.png` });
  });

  it('edits the rule with its name fixed, and Update returns to the list', async () => {
    await ruleRow('payments-down').click();
    await page.waitForURL((url) => /^\/settings\/incident_rules\/[0-9a-f-]{36}$/.test(url.pathname));
    const form = page.getByRole('form', { name: rules.name });
    await expect.poll(() => form.getByLabel(SETTINGS_RESOURCE_TEXTS.fields.name).isDisabled()).toBe(true);
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Spec', 'Job History']);
    await page.getByRole('textbox', { name: SETTINGS_RESOURCE_TEXTS.fields.spec }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('priority: 7');
    await page.screenshot({ path: `${ARTIFACTS}settings-rule-edit.png` });
    await form.getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.update }).click();
    await toast(SETTINGS_RESOURCE_TOASTS.updated('payments-down'));
    await page.waitForURL(`${server.url}${rules.path}`);
    await ruleRow('payments-down').waitFor();
    const [saved] = await stored('payments-down');
    expect(saved?.spec).toEqual({ priority: 7 });
  });

  it('soft-deletes the rule after confirmation: gone from the list, kept with deleted_at', async () => {
    await ruleRow('payments-down').click();
    const form = page.getByRole('form', { name: rules.name });
    await form.getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.delete }).click();
    const confirm = page.getByRole('alertdialog', { name: SETTINGS_RESOURCE_TEXTS.deleteConfirm('payments-down') });
    await confirm.getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.delete }).click();
    await toast(SETTINGS_RESOURCE_TOASTS.deleted('payments-down'));
    await page.waitForURL(`${server.url}${rules.path}`);
    await page.getByText(VIEW_MESSAGES.emptyTable).waitFor();
    const [saved] = await stored('payments-down');
    expect(saved?.deleted_at).not.toBeNull();

    // An id that matches no live rule: 'No resources found'.
    await page.goto(`${server.url}${rules.path}/${saved!.id}`);
    await page.getByText(SETTINGS_RESOURCE_TEXTS.notFound).waitFor();
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
