import { PLAYBOOK_UI_TEXTS } from '@lookout/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedInHandlers } from '@/test/identity-handlers';
import { PLAYBOOK_IDS, playbooksBackend } from '@/test/playbooks-backend';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 30_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// Unmounted first: a run page still polling must not reach the reset handlers.
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

const texts = PLAYBOOK_UI_TEXTS.runList;
const DAY = 24 * 60 * 60 * 1000;

describe('/playbooks/runs (spec 2 sections 2.1 and 9)', () => {
  it('lists the last 7 days of runs, 150 a page, newest first, and filters by playbook and status', async () => {
    const backend = playbooksBackend();
    server.use(...backend.handlers);
    const { user, router } = renderApp({ path: '/playbooks/runs', navigation });
    const table = await screen.findByRole('table', { name: PLAYBOOK_UI_TEXTS.runsTitle }, { timeout: 15_000 });
    const row = await within(table).findByRole('row', { name: /Echo/ });
    expect(within(row).getByText('Jane Doe')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'api-health' })).toBeInTheDocument();

    const first = backend.calls.find((call) => call.name === 'runs')!.url.searchParams;
    expect(first.get('limit')).toBe('150');
    expect(first.get('offset')).toBe('0');
    expect(first.get('order')).toBe('created_at.desc');
    const [, from, to] = /^\(start_time\.gte\.(.+),start_time\.lte\.(.+)\)$/.exec(first.get('and') ?? '') ?? [];
    expect(Date.parse(to!) - Date.parse(from!)).toBe(7 * DAY);
    // The playbook, the resource and the person come embedded (ui-calls 3.7).
    expect(first.get('select')).toContain('check:checks(id,name,icon)');

    await user.selectOptions(screen.getByRole('combobox', { name: texts.status }), 'failed');
    await user.selectOptions(screen.getByRole('combobox', { name: texts.playbook }), PLAYBOOK_IDS.echo);
    await waitFor(() => {
      const last = backend.calls.filter((call) => call.name === 'runs').at(-1)!.url.searchParams;
      expect(last.get('status')).toBe('eq.failed');
      expect(last.get('playbook_id')).toBe(`eq.${PLAYBOOK_IDS.echo}`);
    });
    expect(router.state.location.search).toContain('status=failed');

    await user.click(await within(table).findByRole('row', { name: /Echo/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/playbooks/runs/${PLAYBOOK_IDS.run}`));
  });
});
