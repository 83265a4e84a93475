import { NOTIFICATION_SILENCES_TEXTS } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { IDS, notificationHandlers } from '@/test/notifications-backend';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const table = () => screen.findByRole('table', { name: NOTIFICATION_SILENCES_TEXTS.table }, { timeout: 15_000 });

/** Records `POST /api/notification/silence`, answering with `status`. */
function silenceEndpoint(status = 201) {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.post('*/api/notification/silence', async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      return status < 400
        ? HttpResponse.json({ id: IDS.silence }, { status })
        : HttpResponse.json({ error: 'until must be after from.' }, { status });
    }),
  );
  return bodies;
}

describe('/notifications/silences (spec 3 section 2.10)', () => {
  it('lists silences with their resource, window, source, reason and creator', async () => {
    const { handlers, seen } = notificationHandlers();
    server.use(...handlers);
    renderApp({ path: '/notifications/silences', navigation });
    const row = (await within(await table()).findByText('deploy window')).closest('tr')!;
    expect(await within(row).findByRole('link', { name: 'api-health' })).toHaveAttribute(
      'href',
      `/health?checkId=${IDS.check}`,
    );
    expect(within(row).getByLabelText('Recursive')).toBeInTheDocument();
    expect(within(row).getByText('2 hours')).toBeInTheDocument();
    expect(within(row).getByText('Ann Admin')).toBeInTheDocument();
    expect(Object.fromEntries(seen.silences![0]!)).toMatchObject({ deleted_at: 'is.null', order: 'created_at.desc' });
  });

  it('deletes softly after confirming', async () => {
    const { handlers } = notificationHandlers();
    const patched: { url: string; body: Record<string, unknown> }[] = [];
    server.use(
      ...handlers,
      http.patch('*/api/db/notification_silences', async ({ request }) => {
        patched.push({ url: request.url, body: (await request.json()) as Record<string, unknown> });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    renderApp({ path: '/notifications/silences', navigation });
    // Once the names are in, so the row is not drawn again under the pointer.
    await within(await table()).findByRole('link', { name: 'api-health' });
    await screen.findByText('Ann Admin');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Notification Silence' });
    expect(within(confirm).getByText('Are you sure you want to delete this notification silence?')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(patched).toHaveLength(1));
    expect(new URL(patched[0]!.url).searchParams.get('id')).toBe(`eq.${IDS.silence}`);
    expect(Object.keys(patched[0]!.body)).toEqual(['deleted_at']);
  });

  it('offers neither add nor delete to a viewer, and refuses them the add page', async () => {
    const { handlers } = notificationHandlers();
    server.use(...handlers, ...consoleStartupHandlers({ userId: TEST_USER.id, roles: [] }));
    const first = renderApp({ path: '/notifications/silences', navigation });
    await within(await table()).findByText('deploy window');
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: NOTIFICATION_SILENCES_TEXTS.add })).not.toBeInTheDocument();
    first.unmount();
    renderApp({ path: '/notifications/silences/add', navigation });
    expect(await screen.findByText(/You do not have permission/, {}, { timeout: 15_000 })).toBeInTheDocument();
  });
});

describe('/notifications/silences/add (spec 3 section 2.10)', () => {
  it('prefills the check from check_id and canary_id and sends one resource with now / now+<dur>', async () => {
    const { handlers } = notificationHandlers();
    server.use(...handlers);
    const bodies = silenceEndpoint();
    const user = userEvent.setup();
    const { router } = renderApp({
      path: `/notifications/silences/add?check_id=${IDS.check}&canary_id=${IDS.canary}`,
      navigation,
    });
    const check = await screen.findByRole('radio', { name: 'Check' }, { timeout: 15_000 });
    expect(check).toHaveAttribute('aria-checked', 'true');
    expect(await screen.findByRole('combobox', { name: 'Check' })).toHaveValue(IDS.check);
    // The check choices come from the resource search, so the prefilled id shows by name.
    expect(await screen.findByRole('option', { name: 'api-health (http)' })).toBeInTheDocument();
    await user.click(screen.getByLabelText('Recursive'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'For' }), '6h');
    await user.type(screen.getByLabelText('Reason'), 'deploy');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      check_id: IDS.check,
      recursive: true,
      from: 'now',
      until: 'now+6h',
      description: 'deploy',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/notifications/silences'));
  });

  it('clears the other ids when the kind changes and requires a resource', async () => {
    const { handlers } = notificationHandlers();
    server.use(...handlers);
    const bodies = silenceEndpoint();
    const user = userEvent.setup();
    renderApp({ path: `/notifications/silences/add?check_id=${IDS.check}&canary_id=${IDS.canary}`, navigation });
    await user.click(await screen.findByRole('radio', { name: 'Canary' }, { timeout: 15_000 }));
    expect(await screen.findByRole('combobox', { name: 'Canary' })).toHaveValue(IDS.canary);
    await user.click(screen.getByRole('radio', { name: 'Check' }));
    expect(await screen.findByRole('combobox', { name: 'Check' })).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);
  });

  it('toasts the spec text when the server refuses, and shows its reason', async () => {
    const { handlers } = notificationHandlers();
    server.use(...handlers);
    silenceEndpoint(400);
    const user = userEvent.setup();
    renderApp({ path: `/notifications/silences/add?check_id=${IDS.check}`, navigation });
    await user.click(await screen.findByRole('button', { name: 'Submit' }, { timeout: 15_000 }));
    expect(await screen.findByText('Failed to silence notification')).toBeInTheDocument();
    expect(await screen.findByText('until must be after from.')).toBeInTheDocument();
  });
});
