import { NOTIFICATION_HISTORY_TEXTS } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers, propertyFixture } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { IDS, notificationHandlers, sentRow } from '@/test/notifications-backend';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const table = () => screen.findByRole('table', { name: NOTIFICATION_HISTORY_TEXTS.table }, { timeout: 15_000 });

describe('/notifications (spec 3 section 2.10)', () => {
  it('lists sends newest first with the spec statuses, repeat-interval shown as Repeated', async () => {
    const { handlers, seen } = notificationHandlers();
    server.use(...handlers);
    renderApp({ path: '/notifications', navigation });
    await within(await table()).findAllByText('api-health');
    const rows = within(await table()).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Age', 'Resource', 'Status', 'Event']);
    expect(within(rows[1]!).getByText('Error')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/\(x3 over 2 hours\)/)).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Repeated')).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('link', { name: 'api-health' })).toHaveAttribute(
      'href',
      `/health?checkId=${IDS.check}`,
    );
    expect(Object.fromEntries(seen.history![0]!)).toEqual({
      select: '*',
      order: 'created_at.desc',
      limit: '50',
      offset: '0',
    });
    expect(document.title).toBe('Notifications | Lookout');
  });

  it('filters by status and resource type with <column>.filter', async () => {
    const { handlers, seen } = notificationHandlers();
    server.use(...handlers);
    const user = userEvent.setup();
    renderApp({ path: '/notifications', navigation });
    await table();
    await user.click(screen.getByRole('button', { name: /^Status:/ }));
    await user.click(await screen.findByRole('button', { name: /Include Repeated/i }));
    await waitFor(() => expect(seen.history!.at(-1)!.get('status.filter')).toBe('repeat-interval'));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: /^Resource Type:/ }));
    await user.click(await screen.findByRole('button', { name: /Exclude Canary/i }));
    await waitFor(() => expect(seen.history!.at(-1)!.get('resource_type.filter')).toBe('!canary'));
  });

  it('opens a row’s details through ?id: body in a sandboxed frame, error, count, duration', async () => {
    const { handlers, seen } = notificationHandlers();
    server.use(...handlers);
    const user = userEvent.setup();
    renderApp({ path: '/notifications', navigation });
    await within(await table()).findAllByText('api-health');
    const rows = within(await table()).getAllByRole('row');
    await user.click(within(rows[1]!).getByText('check.failed'));
    const dialog = await screen.findByRole('dialog', { name: 'Notification Details' });
    await waitFor(() => expect(seen.history!.some((params) => params.get('id') === `eq.${IDS.send}`)).toBe(true));
    const frame = await within(dialog).findByTitle('Body');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain('<b>api-health</b>');
    expect(within(dialog).getByText(/"status": 502/)).toBeInTheDocument();
    expect(within(dialog).getByText('1.5s')).toBeInTheDocument();
    expect(within(dialog).getByText(/^3 \(x3 over 2 hours\)$/)).toBeInTheDocument();
    expect(within(dialog).getByText('Unknown')).toBeInTheDocument();
    // Why: exactly the event this send came from.
    expect(within(dialog).getByRole('link', { name: NOTIFICATION_HISTORY_TEXTS.details.why })).toHaveAttribute(
      'href',
      `/notifications/why?resource_id=${IDS.check}&history_id=${IDS.send}`,
    );
  });

  it('shows a Markdown body as text, never as markup', async () => {
    const { handlers } = notificationHandlers({
      history: [{ ...sentRow, body: '**Check**: <img src=x onerror=alert(1)> api-health' }],
    });
    server.use(...handlers);
    renderApp({ path: `/notifications?id=${IDS.send}`, navigation });
    const dialog = await screen.findByRole('dialog', { name: 'Notification Details' }, { timeout: 15_000 });
    const body = await within(dialog).findByLabelText('Body');
    expect(body.tagName).toBe('PRE');
    expect(body.textContent).toBe('**Check**: <img src=x onerror=alert(1)> api-health');
    expect(dialog.querySelector('img')).toBeNull();
  });

  it('opens the details from the address and says when the row does not exist', async () => {
    const { handlers } = notificationHandlers({ history: [] });
    server.use(...handlers);
    renderApp({ path: `/notifications?id=${IDS.send}`, navigation });
    const dialog = await screen.findByRole('dialog', { name: 'Notification Details' }, { timeout: 15_000 });
    expect(await within(dialog).findByText('Notification not found')).toBeInTheDocument();
  });

  it('shows an empty state', async () => {
    const { handlers } = notificationHandlers({ history: [] });
    server.use(...handlers);
    renderApp({ path: '/notifications', navigation });
    expect(
      await screen.findByText('No notifications have been sent yet.', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
  });

  it('shows the bell linking here, and neither bell nor page with settings.notifications disabled', async () => {
    const { handlers } = notificationHandlers();
    server.use(...handlers);
    const first = renderApp({ path: '/notifications', navigation });
    await table();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Notifications' })).toHaveAttribute(
      'href',
      '/notifications',
    );
    first.unmount();

    server.use(
      ...consoleStartupHandlers({
        userId: TEST_USER.id,
        properties: [propertyFixture({ name: 'settings.notifications.disable', value: 'true' })],
      }),
    );
    renderApp({ path: '/notifications', navigation });
    expect(await screen.findByText(/not found/i, {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(within(screen.getByRole('banner')).queryByRole('link', { name: 'Notifications' })).not.toBeInTheDocument();
  });
});
