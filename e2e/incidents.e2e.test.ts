import { mkdir } from 'node:fs/promises';
import { INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';
import type { LookoutServer } from './support/lookout-server.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const TITLE = 'Checkout latency above target';

/**
 * The incidents journey of issue 17 in a real browser against the built server: create an
 * incident from the list, add a factor hypothesis, see log evidence with its context lines,
 * add a definition of done, move the status through the contributing-factors dialog, add a
 * team responder through the three steps, and read the changelog.
 */
describe('the incident pages in Chromium', () => {
  let lookout: ConsoleSession;
  let server: LookoutServer;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let incidentId = '';

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole({ postgres: false });
    ({ server } = lookout);
    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
    page = await context.newPage();
    ({ errors } = watchConsole(page));
    await page.goto(server.url);
    // A team whose spec offers the email responder type.
    const status = await page.evaluate(async () => {
      const whoami = (await (await fetch('/api/auth/whoami')).json()) as { payload: { user: { id: string } } };
      const response = await fetch('/api/db/teams', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'SRE',
          created_by: whoami.payload.user.id,
          spec: { responder_clients: { email: { defaults: { to: 'sre@example.com' } } } },
        }),
      });
      return `${response.status} ${await response.text()}`;
    });
    expect(status).toMatch(/^201/);
  }, 180_000);
  afterAll(async () => {
    await lookout?.stop();
  });

  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
  const dialog = () => page.getByRole('dialog');

  it('opens Incidents from the sidebar, empty, and creates an incident', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: INCIDENT_UI_TEXTS.menu }).click();
    await page.waitForURL((url) => url.pathname === '/incidents');
    await page.getByText(INCIDENT_MESSAGES.listEmpty).waitFor();
    await page.getByRole('button', { name: INCIDENT_UI_TEXTS.createButton }).click();
    await dialog().getByRole('heading', { name: INCIDENT_MESSAGES.createTitle }).waitFor();
    // The title is required.
    await dialog().getByRole('button', { name: INCIDENT_UI_TEXTS.form.create }).click();
    await dialog().getByText(INCIDENT_MESSAGES.fieldRequired).waitFor();
    await dialog().getByLabel(INCIDENT_UI_TEXTS.form.title).fill(TITLE);
    await dialog().getByLabel(INCIDENT_UI_TEXTS.form.severity).selectOption('high');
    await page.screenshot({ path: `${ARTIFACTS}incidents-create.png` });
    await dialog().getByRole('button', { name: INCIDENT_UI_TEXTS.form.create }).click();
    await page.waitForURL((url) => /^\/incidents\/[0-9a-f-]{36}$/.test(url.pathname));
    incidentId = new URL(page.url()).pathname.split('/')[2] ?? '';
    await page.getByRole('listitem', { name: `Root ${TITLE}` }).waitFor();

    // Back on the list, the open incident is a row; another status filter hides it.
    await page.goto(`${server.url}/incidents`);
    const row = page
      .getByRole('table', { name: INCIDENT_UI_TEXTS.title })
      .getByRole('row', { name: new RegExp(TITLE) });
    await row.waitFor();
    await page.getByLabel(INCIDENT_UI_TEXTS.filters.status).selectOption('closed');
    await page.getByText(INCIDENT_MESSAGES.listEmpty).waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('closed');
    await page.getByLabel(INCIDENT_UI_TEXTS.filters.status).selectOption('open');
    await page.screenshot({ path: `${ARTIFACTS}incidents-list.png` });
    await row.click();
    await page.waitForURL((url) => url.pathname === `/incidents/${incidentId}`);
  });

  it('adds a factor hypothesis and shows log evidence with three context lines', async () => {
    await page.getByRole('button', { name: 'Add Factor' }).click();
    await dialog().getByLabel(INCIDENT_UI_TEXTS.hypothesis.title).fill('Database pool exhausted');
    await dialog().getByRole('button', { name: INCIDENT_UI_TEXTS.hypothesis.save }).click();
    const factor = page.getByRole('listitem', { name: 'Factor Database pool exhausted' });
    await factor.waitFor();
    await expect(factor.getByLabel(INCIDENT_UI_TEXTS.hypothesis.state).inputValue()).resolves.toBe('possible');

    // Log evidence attached to the factor, as the logs page sends it (20 lines, line 10 chosen).
    const hypothesisId = await page.evaluate(async (id) => {
      const rows = (await (await fetch(`/api/db/hypotheses?incident_id=eq.${id}&type=eq.factor`)).json()) as {
        id: string;
      }[];
      return rows[0]?.id ?? '';
    }, incidentId);
    const created = await page.evaluate(async (hypothesis) => {
      const lines = Array.from({ length: 20 }, (_, i) => `pool wait ${i + 1}`);
      const response = await fetch('/api/db/evidences', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          hypothesis_id: hypothesis,
          type: 'log',
          description: 'checkout logs',
          evidence: { lines, selected_lines: [9] },
        }),
      });
      return response.status;
    }, hypothesisId);
    expect(created).toBe(201);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const lines = factor.getByLabel('Evidence lines');
    await lines.waitFor();
    // Line 10 with 3 lines either side: 7 to 13.
    await expect(lines.innerText()).resolves.toMatch(/^7\s+pool wait 7[\s\S]*13\s+pool wait 13$/);
    await expect(lines.innerText()).resolves.not.toContain('pool wait 14');

    // The status is saved in place.
    await factor.getByLabel(INCIDENT_UI_TEXTS.hypothesis.state).selectOption('likely');
    await expect
      .poll(
        () =>
          page.evaluate(async (id) => {
            const rows = (await (await fetch(`/api/db/hypotheses?id=eq.${id}`)).json()) as { status: string }[];
            return rows[0]?.status;
          }, hypothesisId),
        { timeout: 15_000 },
      )
      .toBe('likely');
    await page.screenshot({ path: `${ARTIFACTS}incidents-action-plan.png`, fullPage: true });
  });

  it('moves the status to resolved through the contributing-factors dialog', async () => {
    await page.getByLabel(INCIDENT_UI_TEXTS.details.status).first().selectOption('resolved');
    await dialog().getByRole('heading', { name: INCIDENT_UI_TEXTS.factors.title }).waitFor();
    await dialog().getByRole('button', { name: INCIDENT_UI_TEXTS.factors.add }).click();
    await dialog().getByText(INCIDENT_MESSAGES.selectEvidence).waitFor();
    await dialog().getByRole('checkbox').first().check();
    await page.screenshot({ path: `${ARTIFACTS}incidents-factors.png` });
    await dialog().getByRole('button', { name: INCIDENT_UI_TEXTS.factors.add }).click();
    await toast(INCIDENT_MESSAGES.statusUpdated);
    await page.getByRole('button', { name: new RegExp(INCIDENT_UI_TEXTS.sections.definitionOfDone) }).click();
    await page
      .getByRole('list', { name: INCIDENT_UI_TEXTS.sections.definitionOfDone })
      .getByText('checkout logs')
      .waitFor();
    const incident = await page.evaluate(async (id) => {
      const rows = (await (await fetch(`/api/db/incidents?id=eq.${id}`)).json()) as { status: string }[];
      return rows[0]?.status;
    }, incidentId);
    expect(incident).toBe('resolved');
  });

  it('adds a team responder in three steps', async () => {
    await page.getByRole('button', { name: new RegExp(`^${INCIDENT_UI_TEXTS.sections.details}`) }).click();
    await page.getByRole('button', { name: INCIDENT_MESSAGES.addResponders }).click();
    await dialog().getByLabel(INCIDENT_UI_TEXTS.responders.team).selectOption({ label: 'SRE' });
    await dialog().getByRole('button', { name: INCIDENT_UI_TEXTS.responders.next }).click();
    await dialog().getByRole('radio', { name: 'Email' }).click();
    await dialog().getByRole('button', { name: INCIDENT_UI_TEXTS.responders.next }).click();
    // The team's default fills To; Subject and Body are required.
    await expect(dialog().getByLabel('To').inputValue()).resolves.toBe('sre@example.com');
    await dialog().getByRole('button', { name: INCIDENT_UI_TEXTS.responders.save }).click();
    await dialog().getByText(INCIDENT_MESSAGES.validValue).first().waitFor();
    await dialog().getByLabel('Subject').fill('Checkout incident');
    await dialog().getByLabel('Body').fill('Please look at the checkout pool.');
    await page.screenshot({ path: `${ARTIFACTS}incidents-responder.png` });
    await dialog().getByRole('button', { name: INCIDENT_UI_TEXTS.responders.save }).click();
    await toast(INCIDENT_MESSAGES.responderAdded);
    const responders = page.getByRole('list', { name: INCIDENT_UI_TEXTS.details.responders });
    await responders.getByText('SRE').waitFor();
    await responders.getByText('SRE').click();
    await dialog().getByText(INCIDENT_MESSAGES.timeToAcknowledge).waitFor();
    await page.keyboard.press('Escape');
  });

  it('lists the changes in the changelog', async () => {
    await page.getByRole('button', { name: new RegExp(`^${INCIDENT_UI_TEXTS.sections.changelog}`) }).click();
    const changelog = page.getByRole('list', { name: INCIDENT_UI_TEXTS.sections.changelog });
    await changelog.getByText('Incident created').waitFor();
    await changelog.getByText('Hypothesis created').first().waitFor();
    await changelog.getByText('Responder added').first().waitFor();
    await changelog.getByText('Status updated').first().waitFor();
    await page.screenshot({ path: `${ARTIFACTS}incidents-changelog.png`, fullPage: true });
  });

  it('comments, adds a manual definition of done, and shows the timeline and the report', async () => {
    await page.getByRole('tab', { name: INCIDENT_UI_TEXTS.tabs.comments }).click();
    await page.getByRole('textbox', { name: INCIDENT_UI_TEXTS.comment.placeholder }).fill('Pool raised to 50');
    await page.getByRole('button', { name: INCIDENT_UI_TEXTS.comment.send, exact: true }).click();
    await page.getByRole('list', { name: 'Comments' }).getByText('Pool raised to 50').waitFor();

    await page.getByRole('button', { name: new RegExp(INCIDENT_UI_TEXTS.sections.definitionOfDone) }).click();
    await page.getByRole('button', { name: INCIDENT_UI_TEXTS.dod.add }).click();
    await dialog().getByLabel(INCIDENT_UI_TEXTS.dod.manual).check();
    const add = dialog().getByRole('button', { name: INCIDENT_UI_TEXTS.dod.add_ });
    await expect(add.isDisabled()).resolves.toBe(true);
    await dialog().getByLabel(INCIDENT_UI_TEXTS.dod.comment).fill('Latency under target for a day');
    await add.click();
    await page
      .getByRole('list', { name: INCIDENT_UI_TEXTS.sections.definitionOfDone })
      .getByText('Latency under target for a day')
      .waitFor();

    await page.getByRole('tab', { name: INCIDENT_UI_TEXTS.tabs.timeline }).click();
    await page.getByRole('list', { name: INCIDENT_UI_TEXTS.tabs.timeline }).getByRole('listitem').first().waitFor();
    await page.screenshot({ path: `${ARTIFACTS}incidents-timeline.png`, fullPage: true });
    const href = await page.getByRole('link', { name: INCIDENT_UI_TEXTS.exportReport }).getAttribute('href');
    const report = await page.evaluate(async (url) => (await fetch(url ?? '')).text(), href);
    expect(report).toContain('INC-1');
    expect(report).toContain(TITLE);
  });

  it("links a health check to the incident from the check's drawer", async () => {
    const checkId = await page.evaluate(async () => {
      for (let attempt = 0; attempt < 60; attempt++) {
        const rows = (await (await fetch('/api/db/checks?name=eq.lookout-api-health&select=id')).json()) as {
          id: string;
        }[];
        if (rows[0]) return rows[0].id;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      return '';
    });
    expect(checkId).not.toBe('');
    await page.goto(`${server.url}/health?checkId=${checkId}`);
    const drawer = page.getByRole('dialog', { name: /lookout-api-health/ });
    await drawer.getByRole('button', { name: INCIDENT_MESSAGES.linkTitle }).click();
    const link = page.getByRole('dialog', { name: INCIDENT_MESSAGES.linkTitle });
    await link.getByRole('button', { name: INCIDENT_MESSAGES.linkButton }).click();
    await link.getByText(INCIDENT_MESSAGES.linkIncidentRequired).waitFor();
    await link.getByRole('textbox', { name: INCIDENT_UI_TEXTS.link.incident }).fill('Checkout');
    await link
      .getByRole('listbox', { name: INCIDENT_UI_TEXTS.link.incident })
      .getByRole('option', { name: new RegExp(`INC-1 ${TITLE}`) })
      .click();
    await link
      .getByRole('listbox', { name: INCIDENT_UI_TEXTS.link.hypothesis })
      .getByRole('option', { name: 'Database pool exhausted' })
      .click();
    await page.screenshot({ path: `${ARTIFACTS}incidents-link-check.png` });
    await link.getByRole('button', { name: INCIDENT_MESSAGES.linkButton }).click();
    await toast(INCIDENT_MESSAGES.linked);
    await page.goto(`${server.url}/incidents/${incidentId}`);
    await page
      .getByRole('listitem', { name: 'Factor Database pool exhausted' })
      .getByRole('listitem', { name: 'Evidence lookout-api-health' })
      .waitFor();
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
