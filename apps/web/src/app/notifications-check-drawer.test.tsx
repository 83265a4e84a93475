import { NOTIFICATION_TRACE_TEXTS, SILENCE_LINK_TEXT } from '@lookout/contracts';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { checkSummaryFixture, healthHandlers } from '@/test/health-fixtures';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const api = checkSummaryFixture({ name: 'api', status: 'unhealthy' });

const openDrawer = () => {
  server.use(...healthHandlers({ checks: [api], statuses: [] }).handlers);
  renderApp({ path: `/health?checkId=${api.id}`, navigation });
  return screen.findByRole('dialog', { name: /api/ }, { timeout: 15_000 });
};

describe("the check drawer's notification links (spec 3 section 2.10)", () => {
  it("links 'Silence' to the add-silence page with the check and its canary, and asks why", async () => {
    const dialog = await openDrawer();
    const silence = await within(dialog).findByRole('link', { name: SILENCE_LINK_TEXT });
    const target = new URL(silence.getAttribute('href')!, 'http://localhost');
    expect(target.pathname).toBe('/notifications/silences/add');
    expect(Object.fromEntries(target.searchParams)).toEqual({ check_id: api.id, canary_id: api.canary_id });
    expect(within(dialog).getByRole('link', { name: NOTIFICATION_TRACE_TEXTS.link })).toHaveAttribute(
      'href',
      `/notifications/why?resource_id=${api.id}`,
    );
  });

  it('offers no Silence to a viewer (no write on database), only why', async () => {
    server.use(...consoleStartupHandlers({ userId: TEST_USER.id, roles: [] }));
    const dialog = await openDrawer();
    await within(dialog).findByRole('link', { name: NOTIFICATION_TRACE_TEXTS.link });
    expect(within(dialog).queryByRole('link', { name: SILENCE_LINK_TEXT })).not.toBeInTheDocument();
  });

  it('offers neither with settings.notifications disabled', async () => {
    server.use(
      ...consoleStartupHandlers({
        userId: TEST_USER.id,
        properties: [propertyFixture({ name: 'settings.notifications.disable', value: 'true' })],
      }),
    );
    const dialog = await openDrawer();
    await within(dialog).findByText('api');
    expect(within(dialog).queryByRole('link', { name: SILENCE_LINK_TEXT })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('link', { name: NOTIFICATION_TRACE_TEXTS.link })).not.toBeInTheDocument();
  });
});
