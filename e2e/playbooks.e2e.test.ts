import { mkdir } from 'node:fs/promises';
import { PLAYBOOK_TEXTS, PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
/** A check of the canary every new installation has (docs/health.md, "First run"). */
const CHECK = 'lookout-api-health';
const TITLE = 'Greet the check';
/** Typed into the spec editor: one exec action on the self-check, printing a link. */
const SPEC = [
  'category: Diagnostics',
  'checks:',
  `  - name: ${CHECK}`,
  'actions:',
  '  - name: greet',
  '    exec:',
  '      script: echo "hello {{ .check.name }} see https://example.com/docs"',
  '',
].join('\n');

/**
 * The playbook journey of issue 16 in a real browser against the built server: an admin
 * creates a playbook with an exec action from /playbooks, runs it on a check from the check
 * drawer's Playbooks menu, follows the run until it completes and reads its output.
 */
describe('playbooks in Chromium', () => {
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

  it('creates a playbook, runs it on a check from the drawer and shows its output', async () => {
    const page = await context.newPage();
    const watched = watchConsole(page);

    // Create it from the list page.
    await page.goto(`${server.url}/playbooks`);
    await page.getByRole('link', { name: PLAYBOOK_UI_TEXTS.menu }).waitFor();
    await page.getByRole('button', { name: PLAYBOOK_UI_TEXTS.create }).click();
    const form = page.getByRole('dialog', { name: PLAYBOOK_UI_TEXTS.form.createTitle });
    await form.getByRole('textbox', { name: PLAYBOOK_UI_TEXTS.form.title }).fill(TITLE);
    const editor = form.getByRole('textbox', { name: PLAYBOOK_UI_TEXTS.form.spec });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    // A spec the schema refuses names the field.
    await page.keyboard.insertText('actions:\n  - name: greet\n    exec: {}\n');
    await form.getByRole('button', { name: PLAYBOOK_UI_TEXTS.form.save }).click();
    await form.getByText('spec.actions[0].exec.script', { exact: false }).waitFor();
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(SPEC);
    await page.screenshot({ path: `${ARTIFACTS}playbooks-form.png` });
    await form.getByRole('button', { name: PLAYBOOK_UI_TEXTS.form.save }).click();
    await page.getByText(PLAYBOOK_TEXTS.toasts.created).waitFor();
    const group = page.getByRole('region', { name: 'Diagnostics' });
    await group.getByRole('listitem', { name: TITLE }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}playbooks-list.png` });

    // The run modal's picker finds the check through the resource search, bounded by the spec.
    await group.getByRole('listitem', { name: TITLE }).getByRole('button', { name: PLAYBOOK_TEXTS.run }).click();
    const picker = page.getByRole('dialog', { name: TITLE });
    const searched = page.waitForRequest(
      (request) => request.url().endsWith('/api/resources/search') && request.postData()?.includes('"search"') === true,
    );
    await picker.getByRole('searchbox').fill('api-health');
    expect((await searched).postDataJSON()).toEqual({ checks: [{ name: CHECK, search: 'api-health', limit: 50 }] });
    const choice = picker.getByRole('combobox', { name: PLAYBOOK_TEXTS.resourceKinds.check });
    await choice.getByRole('option', { name: new RegExp(`^${CHECK}`) }).waitFor({ state: 'attached' });
    await picker.getByRole('button', { name: PLAYBOOK_UI_TEXTS.modal.cancel }).click();

    // Run it on the self-check from the check drawer.
    const checks = (await page.evaluate(
      (name) => fetch(`/api/db/checks?name=eq.${name}&select=id`).then((response) => response.json()),
      CHECK,
    )) as { id: string }[];
    expect(checks).toHaveLength(1);
    await page.goto(`${server.url}/health?checkId=${checks[0]!.id}`);
    const drawer = page.getByRole('dialog', { name: new RegExp(CHECK) });
    await drawer.waitFor();
    await drawer.getByRole('button', { name: PLAYBOOK_UI_TEXTS.checkMenu.label }).click();
    await page.getByRole('menuitem', { name: TITLE }).click();
    const modal = page.getByRole('dialog', { name: TITLE });
    await modal.getByText(PLAYBOOK_TEXTS.noParameters).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}playbooks-run-modal.png` });
    await modal.getByRole('button', { name: PLAYBOOK_TEXTS.run, exact: true }).click();

    // The run page follows the run until it completes and shows the step's output.
    await page.waitForURL((url) => /^\/playbooks\/runs\/[0-9a-f-]{36}$/.test(url.pathname));
    const header = page.getByRole('region', { name: 'Run' });
    try {
      await header.getByText('completed', { exact: true }).waitFor({ timeout: 60_000 });
    } finally {
      // The state it reached, for a look when it never completes.
      await page.screenshot({ path: `${ARTIFACTS}playbooks-run-waiting.png` });
    }
    const output = page.getByRole('region', { name: PLAYBOOK_UI_TEXTS.runDetail.output });
    await output.getByText(`hello ${CHECK} see`, { exact: false }).waitFor({ timeout: 30_000 });
    const link = output.getByRole('link', { name: 'https://example.com/docs' });
    expect(await link.getAttribute('href')).toBe('https://example.com/docs');
    await page.screenshot({ path: `${ARTIFACTS}playbooks-run.png` });

    // The run is listed, newest first, within the last 7 days.
    await page.goto(`${server.url}/playbooks/runs`);
    const table = page.getByRole('table', { name: PLAYBOOK_UI_TEXTS.runsTitle });
    const row = table.getByRole('row', { name: new RegExp(TITLE) });
    await row.waitFor();
    // Triggered By names the admin who started it.
    await row.getByText('Admin').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}playbooks-runs.png` });
    expect(unexpectedErrors(watched.errors)).toEqual([]);
    await page.close();
  });
});
