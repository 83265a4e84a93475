import { CATALOG_TEXTS, INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 30_000 });

const POD = '0192a5d4-0000-7000-8000-000000000001';
const INCIDENT = '0192a5d4-0000-7000-8000-0000000000a1';
const HYPOTHESIS = '0192a5d4-0000-7000-8000-0000000000b1';

const evidences: unknown[] = [];
const server = setupServer(
  http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' })),
  ...signedInHandlers(),
  http.get('*/api/db/config_detail', () =>
    HttpResponse.json([
      {
        id: POD,
        name: 'payments-7d9f',
        type: 'Kubernetes::Pod',
        config_class: 'Kubernetes',
        status: 'Running',
        health: 'healthy',
        labels: {},
        tags: {},
        config: { kind: 'Pod' },
        created_at: '2026-01-01T00:00:00Z',
        updated_at: null,
        deleted_at: null,
        last_scraped_time: null,
        config_scrapers: null,
        summary: { changes: 0, analysis: 0, relationships: 0 },
      },
    ]),
  ),
  http.get('*/api/db/incidents', () =>
    HttpResponse.json([{ id: INCIDENT, title: 'Checkout is slow', incident_id: 'INC-7', hypotheses: [] }]),
  ),
  http.get('*/api/db/hypotheses', () => HttpResponse.json([{ id: HYPOTHESIS, title: 'Pod restarts' }])),
  http.post('*/api/db/evidences', async ({ request }) => {
    evidences.push(await request.json());
    return HttpResponse.json([{ id: 'e1' }], { status: 201 });
  }),
  // Whatever else the console shell reads on the way (counts, menus) answers empty.
  http.get('*/api/db/*', () => HttpResponse.json([])),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  evidences.length = 0;
});
afterAll(() => server.close());

const linkAction = () => screen.queryByRole('button', { name: CATALOG_TEXTS.panel.linkToIncident });
const sidePanel = () => screen.findByRole('complementary', { name: 'payments-7d9f' }, { timeout: 20_000 });

describe('/catalog/{id}: Link to incident (spec 3 section 2.1)', () => {
  it('attaches the item as config evidence to a hypothesis of an existing incident', async () => {
    const { user } = renderApp({ path: `/catalog/${POD}`, navigation });
    await sidePanel();
    await user.click(linkAction()!);
    const dialog = await screen.findByRole('dialog', { name: INCIDENT_MESSAGES.linkTitle });
    const incidents = within(dialog).getByRole('listbox', { name: INCIDENT_UI_TEXTS.link.incident });
    await user.click(await within(incidents).findByRole('option', { name: /Checkout is slow/ }));
    const hypotheses = within(dialog).getByRole('listbox', { name: INCIDENT_UI_TEXTS.link.hypothesis });
    await user.click(await within(hypotheses).findByRole('option', { name: 'Pod restarts' }));
    await user.click(within(dialog).getByRole('button', { name: INCIDENT_MESSAGES.linkButton }));
    await waitFor(() => expect(evidences).toHaveLength(1));
    expect(evidences[0]).toEqual({
      type: 'config',
      config_id: POD,
      description: 'payments-7d9f',
      hypothesis_id: HYPOTHESIS,
      created_by: TEST_USER.id,
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: INCIDENT_MESSAGES.linkTitle })).toBeNull());
  });

  it('is offered to an editor', async () => {
    server.use(...consoleStartupHandlers({ roles: ['editor'] }));
    renderApp({ path: `/catalog/${POD}`, navigation });
    await sidePanel();
    expect(linkAction()).toBeInTheDocument();
  });

  it('is left out for a viewer, who may not write incidents', async () => {
    server.use(...consoleStartupHandlers({ roles: ['viewer'] }));
    renderApp({ path: `/catalog/${POD}`, navigation });
    await sidePanel();
    expect(linkAction()).toBeNull();
  });

  it('is left out while the incidents feature is off', async () => {
    server.use(
      ...consoleStartupHandlers({ properties: [propertyFixture({ name: 'incidents.disable', value: 'true' })] }),
    );
    renderApp({ path: `/catalog/${POD}`, navigation });
    await sidePanel();
    expect(linkAction()).toBeNull();
  });
});
