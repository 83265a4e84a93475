import { mkdir } from 'node:fs/promises';
import { AGENT_PING_PATH, AGENT_PUSH_USERNAME, AGENT_TOKEN_SHOWN_ONCE_WARNING, AGENTS_TEXTS } from '@lookout/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const AGENT = 'edge-journey';
const texts = AGENTS_TEXTS.drawer;

/**
 * The agents page of issue 18 in a real browser against the built server: the admin creates an
 * agent, reads its token in the Installation Instructions, finds it in the list, and deletes
 * it with its resources; the token stops working and what the agent pushed is gone.
 */
describe('the agents page in Chromium', () => {
  let lookout: ConsoleSession;
  let page: Page;
  let errors: string[];
  let token = '';
  let agentId = '';

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole();
    const { context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } });
    page = await context.newPage();
    ({ errors } = watchConsole(page));
  }, 120_000);
  afterAll(async () => {
    await lookout?.stop();
  });

  const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
  const ping = (password: string) =>
    fetch(`${lookout.server.url}${AGENT_PING_PATH}?agent_name=${AGENT}`, {
      headers: { authorization: `Basic ${Buffer.from(`${AGENT_PUSH_USERNAME}:${password}`).toString('base64')}` },
    });

  it('creates an agent and shows the installation instructions with its token once', async () => {
    await page.goto(`${lookout.server.url}/agents`);
    await page.getByRole('heading', { level: 1, name: AGENTS_TEXTS.title }).waitFor();
    await page.getByRole('table', { name: AGENTS_TEXTS.table }).getByText('No data available').waitFor();
    await page.getByRole('button', { name: AGENTS_TEXTS.add }).click();
    const drawer = page.getByRole('dialog', { name: texts.createTitle });
    await drawer.getByLabel(texts.name, { exact: true }).fill(AGENT);
    await drawer.getByRole('button', { name: 'Add properties' }).click();
    await drawer.getByLabel('Properties Name 1').fill('region');
    await drawer.getByLabel('Properties Value 1').fill('eu-west-1');
    await drawer.getByRole('switch', { name: texts.kubernetes }).click();
    await drawer.getByLabel(texts.scrapeInterval).selectOption('5m');
    await page.screenshot({ path: `${ARTIFACTS}agents-create-drawer.png` });
    await drawer.getByRole('button', { name: texts.next }).click();

    const modal = page.getByRole('dialog', { name: AGENTS_TEXTS.install.title });
    await modal.waitFor();
    await toast(AGENTS_TEXTS.toasts.created);
    await modal.getByText(AGENT_TOKEN_SHOWN_ONCE_WARNING).waitFor();
    await modal.getByRole('tab', { name: AGENTS_TEXTS.install.helm }).click();
    const helm = await modal.getByLabel(AGENTS_TEXTS.install.helmSnippet, { exact: true }).innerText();
    token = /upstream\.password=('?)([^'\s\\]+)\1/.exec(helm)?.[2] ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect(helm).toContain(`agentName=${AGENT}`);
    expect(helm).toContain(lookout.server.url);
    await page.screenshot({ path: `${ARTIFACTS}agents-install-instructions.png` });
    // The token works: the upstream knows the agent by it.
    expect((await ping(token)).status).toBe(200);
    await modal.getByRole('button', { name: AGENTS_TEXTS.install.done }).click();
    await modal.waitFor({ state: 'detached' });
  });

  it('lists the agent, Online after its ping, and opens its drawer by ?id=', async () => {
    const row = page.getByRole('table', { name: AGENTS_TEXTS.table }).getByRole('row', { name: new RegExp(AGENT) });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row.getByText(AGENTS_TEXTS.status.online).waitFor();
    agentId = (
      await lookout.db.query<{ id: string }>('SELECT id FROM agents WHERE name = $1 AND deleted_at IS NULL', [AGENT])
    ).rows[0]!.id;
    // The backlog the agent reports with its pings (beyond the original), under its status.
    await lookout.db.query(
      `UPDATE agents SET push_queue_length = 42, push_oldest_unpushed_at = now() - interval '5 minutes' WHERE id = $1`,
      [agentId],
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row.getByText(AGENTS_TEXTS.backlog(42, '5m')).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}agents-list.png` });
    await row.click();
    await page.waitForURL(`${lookout.server.url}/agents?*id=${agentId}*`);
    const drawer = page.getByRole('dialog', { name: texts.editTitle });
    expect(await drawer.getByLabel(texts.name, { exact: true }).inputValue()).toBe(AGENT);
    expect(await drawer.getByLabel('Properties Value 1').inputValue()).toBe('eu-west-1');
    expect(await drawer.getByLabel(texts.scrapeInterval).inputValue()).toBe('5m');
    await page.screenshot({ path: `${ARTIFACTS}agents-edit-drawer.png` });
  });

  it('deletes the agent with what it pushed: the token stops working and its checks are gone', async () => {
    // What the agent pushed, stored under its id as the upstream receiver stores it.
    const canary = (
      await lookout.db.query<{ id: string }>(
        `INSERT INTO canaries (name, spec, agent_id) VALUES ('edge-canary', '{"http":[]}', $1) RETURNING id`,
        [agentId],
      )
    ).rows[0]!.id;
    await lookout.db.query(
      `INSERT INTO checks (canary_id, type, name, spec, status, agent_id) VALUES ($1, 'http', 'edge-web', '{}', 'healthy', $2)`,
      [canary, agentId],
    );
    const drawer = page.getByRole('dialog', { name: texts.editTitle });
    await drawer.getByRole('button', { name: texts.delete }).click();
    const question = page.getByRole('dialog', { name: AGENTS_TEXTS.delete.cleanupTitle });
    await question.getByRole('button', { name: AGENTS_TEXTS.delete.yes }).click();
    const confirm = page.getByRole('alertdialog', { name: AGENTS_TEXTS.delete.confirmTitle });
    await confirm.getByRole('button', { name: AGENTS_TEXTS.delete.confirm }).click();
    // Polled as text, so a failure names the toast that came instead (the server's message).
    await expect
      .poll(() => page.locator('[data-sonner-toast]').allInnerTexts(), { timeout: 15_000 })
      .toContain(AGENTS_TEXTS.toasts.deleted);
    await page.getByRole('table', { name: AGENTS_TEXTS.table }).getByText('No data available').waitFor();

    expect((await ping(token)).status).toBe(401);
    const live = await lookout.db.query(
      `SELECT 1 FROM checks WHERE agent_id = $1 AND deleted_at IS NULL
       UNION ALL SELECT 1 FROM canaries WHERE agent_id = $1 AND deleted_at IS NULL`,
      [agentId],
    );
    expect(live.rows).toEqual([]);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
