import { mkdir } from 'node:fs/promises';
import {
  GITOPS_FLUX_WARNING,
  INTEGRATIONS_TEXTS,
  JOB_HISTORY_TEXTS,
  TOPOLOGY_SETTINGS_TEXTS,
} from '@lookout/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedErrors, watchConsole } from './support/browser.js';
import { startConsole, type ConsoleSession } from './support/console-session.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

/** Replaces the whole text of the YAML editor named `label` (CodeMirror) with `text`. */
async function replaceEditorText(page: Page, label: string, text: string) {
  await page.getByRole('textbox', { name: label }).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const TOPOLOGY_YAML = `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata:
  name: shop-systems
  namespace: ops
spec:
  schedule: '@every 1h'
  components:
    - name: checkout
      type: Service
`;

/**
 * Issue 18 item 4 in a real browser against the built server: a Custom Topology added
 * directly from the Add Integration modal is a real topology, listed under Integrations; its
 * detail opens with Spec and Job History; and a GitOps option turns a namespace and values
 * into a Flux manifest, refusing values the chart's schema does not allow.
 */
describe('integrations in Chromium', () => {
  let lookout: ConsoleSession;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    lookout = await startConsole();
    ({ context } = await lookout.openBrowser({ viewport: { width: 1440, height: 1000 } }));
    page = await context.newPage();
    ({ errors } = watchConsole(page));
  });
  afterAll(async () => {
    await lookout?.stop();
  });

  it('adds a Custom Topology directly, lists it, and opens its Spec and Job History', async () => {
    await page.goto(`${lookout.server.url}/settings/integrations`);
    await page.getByRole('table', { name: INTEGRATIONS_TEXTS.title }).waitFor();
    await page.getByRole('button', { name: INTEGRATIONS_TEXTS.add }).click();
    const modal = page.getByRole('dialog', { name: INTEGRATIONS_TEXTS.modal.title });
    await modal.getByRole('link', { name: 'Custom Topology' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/integrations/topologies/new');
    await replaceEditorText(page, TOPOLOGY_SETTINGS_TEXTS.spec, TOPOLOGY_YAML);
    await page.getByRole('button', { name: TOPOLOGY_SETTINGS_TEXTS.save }).click();
    await page.waitForURL((url) => url.pathname === '/settings/integrations');

    // A real row of topologies, created by the admin through the data API.
    const { rows } = await lookout.db.query<{ id: string; namespace: string; created_by: string | null }>(
      "SELECT id, namespace, created_by FROM topologies WHERE name = 'shop-systems' AND deleted_at IS NULL",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.namespace).toBe('ops');
    expect(rows[0]!.created_by).not.toBeNull();

    const row = page
      .getByRole('table', { name: INTEGRATIONS_TEXTS.title })
      .getByRole('row')
      .filter({ hasText: 'shop-systems' });
    await row.waitFor();
    await expect(row.getByRole('img', { name: INTEGRATIONS_TEXTS.typeLabels.topologies }).count()).resolves.toBe(1);
    await expect(row.textContent()).resolves.toContain('ops');
    await page.screenshot({ path: `${ARTIFACTS}integrations-list.png`, fullPage: true });

    await row.click();
    await page.waitForURL((url) => url.pathname === `/settings/integrations/topologies/${rows[0]!.id}`);
    await page.getByRole('tab', { name: TOPOLOGY_SETTINGS_TEXTS.spec }).waitFor();
    await page.getByRole('tab', { name: TOPOLOGY_SETTINGS_TEXTS.jobHistory }).click();
    await page.getByRole('table', { name: JOB_HISTORY_TEXTS.table }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}integrations-job-history.png`, fullPage: true });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('turns a GitOps option into a Flux manifest, naming a field the chart refuses', async () => {
    await page.goto(`${lookout.server.url}/settings/integrations`);
    await page.getByRole('button', { name: INTEGRATIONS_TEXTS.add }).click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('button', { name: 'Prometheus' }).click();
    await modal.getByText(GITOPS_FLUX_WARNING).waitFor();
    await expect(modal.getByRole('textbox', { name: INTEGRATIONS_TEXTS.modal.namespace }).inputValue()).resolves.toBe(
      'mission-control',
    );

    await replaceEditorText(page, INTEGRATIONS_TEXTS.modal.values, 'topologyName: prometheus\nprometheusURL: 42\n');
    await modal
      .getByRole('alert')
      .getByText(/^prometheusURL: /)
      .waitFor();
    await page.screenshot({ path: `${ARTIFACTS}integrations-gitops-invalid.png`, fullPage: true });

    await replaceEditorText(
      page,
      INTEGRATIONS_TEXTS.modal.values,
      'topologyName: prometheus\nprometheusURL: http://prometheus.monitoring.svc:9090\n',
    );
    const manifest = modal.getByLabel(INTEGRATIONS_TEXTS.modal.flux, { exact: true }).and(modal.locator('pre'));
    await manifest.waitFor();
    const text = (await manifest.textContent()) ?? '';
    expect(text).toContain('kind: HelmRelease');
    expect(text).toContain('namespace: mission-control');
    expect(text).toContain('interval: 30m');
    expect(text).toContain('prometheusURL: http://prometheus.monitoring.svc:9090');
    await page.screenshot({ path: `${ARTIFACTS}integrations-gitops.png`, fullPage: true });

    await modal.getByRole('tab', { name: INTEGRATIONS_TEXTS.modal.helm }).click();
    const helm = (await modal.locator('pre').first().textContent()) ?? '';
    expect(helm).toContain('helm upgrade --install');
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
