import {
  EMAIL_DELIVERY_HEADER,
  EMAIL_OUTBOX_TEXTS,
  VIEW_MESSAGES,
  type CourierMessage,
  type EmailDelivery,
} from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const INVITE_ID = '0192a5d4-2222-7000-8000-000000000002';
const RECOVERY_ID = '0192a5d4-2222-7000-8000-000000000001';
const LINK =
  'http://localhost:8080/api/.ory/self-service/recovery?flow=0192a5d4-3333-7000-8000-000000000001&token=123456';

const invite: CourierMessage = {
  id: INVITE_ID,
  status: 'queued',
  type: 'email',
  channel: 'email',
  recipient: 'ivy@example.com',
  subject: 'You are invited to Lookout',
  body: `Hi,\n\nyou have been invited to Lookout. Open this link to choose your password and sign in:\n\n${LINK}\n`,
  template_type: 'invite',
  send_count: 0,
  created_at: '2024-10-02T10:05:00Z',
  updated_at: '2024-10-02T10:05:00Z',
  dispatches: [],
};
const recovery: CourierMessage = {
  id: RECOVERY_ID,
  status: 'abandoned',
  type: 'email',
  channel: 'email',
  recipient: 'grace@example.com',
  subject: 'Recover access to your account',
  body: 'Hi,\n\nplease recover access to your account by entering the following code:\n\n482913\n',
  template_type: 'recovery_code_valid',
  send_count: 2,
  created_at: '2024-10-02T10:00:00Z',
  updated_at: '2024-10-02T10:01:00Z',
  dispatches: [
    {
      id: '0192a5d4-4444-7000-8000-000000000001',
      message_id: RECOVERY_ID,
      status: 'failed',
      error: { reason: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:25' },
      created_at: '2024-10-02T10:00:01Z',
      updated_at: '2024-10-02T10:00:01Z',
    },
    {
      id: '0192a5d4-4444-7000-8000-000000000002',
      message_id: RECOVERY_ID,
      status: 'failed',
      error: { reason: 'Greeting never received' },
      created_at: '2024-10-02T10:01:00Z',
      updated_at: '2024-10-02T10:01:00Z',
    },
  ],
};

/** The outbox API: filters as the server applies them, and the delivery header. */
/** `delivery` null: no header, as an external Kratos answers. */
function outboxBackend(messages: CourierMessage[], delivery: EmailDelivery | null = 'outbox') {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get('*/api/.ory/admin/courier/messages', ({ request }) => {
      const params = new URL(request.url).searchParams;
      seen.push(params);
      const status = params.get('status');
      const recipient = params.get('recipient');
      const matching = messages.filter(
        (message) => (!status || message.status === status) && (!recipient || message.recipient === recipient),
      );
      const size = Number(params.get('page_size') ?? 10);
      return HttpResponse.json(matching.slice(0, size), {
        headers: {
          'x-total-count': String(matching.length),
          ...(delivery ? { [EMAIL_DELIVERY_HEADER]: delivery } : {}),
        },
      });
    }),
    http.get('*/api/.ory/admin/courier/messages/:id', ({ params }) => {
      const found = messages.find((message) => message.id === params.id);
      return found
        ? HttpResponse.json(found)
        : HttpResponse.json({ error: { code: 404, status: 'Not Found', reason: 'No such message' } }, { status: 404 });
    }),
  );
  return seen;
}

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const openOutbox = (path = '/settings/email-outbox') => renderApp({ path, navigation });
const table = () => screen.findByRole('table', { name: EMAIL_OUTBOX_TEXTS.title });
const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

describe('/settings/email-outbox as an admin', () => {
  it('lists the messages with recipient, subject, status, attempts, created and last error, and says SMTP is missing', async () => {
    const seen = outboxBackend([invite, recovery]);
    openOutbox();
    const rows = within(await table()).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Recipient', 'Subject', 'Status', 'Attempts', 'Created', 'Last error']);
    const grace = (await within(await table()).findByText('grace@example.com')).closest('tr')!;
    expect(grace).toHaveTextContent('Recover access to your account');
    expect(grace).toHaveTextContent('Abandoned');
    expect(grace).toHaveTextContent('Greeting never received');
    const ivy = within(await table())
      .getByText('ivy@example.com')
      .closest('tr')!;
    expect(ivy).toHaveTextContent('Queued');
    expect(screen.getByRole('status')).toHaveTextContent(EMAIL_OUTBOX_TEXTS.smtpMissing);
    expect(screen.getByText('2 messages')).toBeInTheDocument();
    expect(document.title).toBe('Email outbox | Lookout');
    expect(seen[0]?.get('page_size')).toBe('50');
  });

  it('opens a message with its body, the warning about its secret, a copy button and its attempts', async () => {
    outboxBackend([invite, recovery]);
    const { user } = openOutbox();
    await user.click(await within(await table()).findByText('ivy@example.com'));
    const dialog = await screen.findByRole('dialog', { name: 'You are invited to Lookout' });
    expect(dialog).toHaveTextContent('To ivy@example.com');
    expect(within(dialog).getByText(LINK, { exact: false })).toBeInTheDocument();
    expect(dialog).toHaveTextContent(EMAIL_OUTBOX_TEXTS.message.secret);
    expect(within(dialog).getByRole('button', { name: EMAIL_OUTBOX_TEXTS.message.copyBody })).toBeInTheDocument();
    expect(dialog).toHaveTextContent(EMAIL_OUTBOX_TEXTS.message.noDispatches);
    await user.click(within(dialog).getByRole('button', { name: EMAIL_OUTBOX_TEXTS.message.close }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(await table()).getByText('grace@example.com'));
    const failed = await screen.findByRole('dialog', { name: 'Recover access to your account' });
    expect(failed).toHaveTextContent('482913');
    expect(within(failed).getAllByText(EMAIL_OUTBOX_TEXTS.message.dispatchFailed)).toHaveLength(2);
    expect(failed).toHaveTextContent('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:25');
  });

  it('filters by status (kept in the URL) and shows "No messages" when nothing matches', async () => {
    const seen = outboxBackend([invite, recovery]);
    const { user } = openOutbox();
    await table();
    await user.selectOptions(screen.getByLabelText(EMAIL_OUTBOX_TEXTS.statusFilter), 'sent');
    expect(await screen.findByText(EMAIL_OUTBOX_TEXTS.empty)).toBeInTheDocument();
    expect(seen.at(-1)?.get('status')).toBe('sent');
  });

  it('filters by exact recipient from the URL', async () => {
    const seen = outboxBackend([invite, recovery]);
    openOutbox('/settings/email-outbox?recipient=grace@example.com');
    expect(await within(await table()).findByText('grace@example.com')).toBeInTheDocument();
    expect(within(await table()).queryByText('ivy@example.com')).not.toBeInTheDocument();
    expect(seen[0]?.get('recipient')).toBe('grace@example.com');
    expect(screen.getByLabelText(EMAIL_OUTBOX_TEXTS.recipientFilter)).toHaveValue('grace@example.com');
  });

  it('says messages are delivered when an SMTP server is configured, and nothing about it for an external Kratos', async () => {
    outboxBackend([invite], 'smtp');
    const first = openOutbox();
    expect(await screen.findByText(EMAIL_OUTBOX_TEXTS.smtpConfigured)).toBeInTheDocument();
    expect(screen.queryByText(EMAIL_OUTBOX_TEXTS.smtpMissing)).not.toBeInTheDocument();
    first.unmount();

    // As Kratos answers: no delivery header, no channel, no attempts listed.
    outboxBackend([{ ...invite, channel: null, dispatches: null }], null);
    openOutbox();
    await within(await table()).findByText('ivy@example.com');
    expect(screen.queryByText(EMAIL_OUTBOX_TEXTS.smtpConfigured)).not.toBeInTheDocument();
    expect(screen.queryByText(EMAIL_OUTBOX_TEXTS.smtpMissing)).not.toBeInTheDocument();
  });

  it('offers more when the outbox holds more than the first page', async () => {
    const many = Array.from({ length: 60 }, (_, index) => ({
      ...invite,
      id: `0192a5d4-5555-7000-8000-${String(index).padStart(12, '0')}`,
      recipient: `user${index}@example.com`,
    }));
    const seen = outboxBackend(many);
    const { user } = openOutbox();
    expect(await screen.findByText('50 of 60 messages')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: EMAIL_OUTBOX_TEXTS.showMore }));
    expect(await screen.findByText('60 messages')).toBeInTheDocument();
    expect(seen.at(-1)?.get('page_size')).toBe('100');
    expect(screen.queryByRole('button', { name: EMAIL_OUTBOX_TEXTS.showMore })).not.toBeInTheDocument();
  });

  it('shows the error panel with what the server said, and Try again', async () => {
    server.use(
      http.get('*/api/.ory/admin/courier/messages', () =>
        HttpResponse.json(
          { error: { code: 500, status: 'Internal Server Error', reason: 'The outbox could not be read' } },
          { status: 500 },
        ),
      ),
    );
    const { user } = openOutbox();
    expect(await screen.findByText(VIEW_MESSAGES.renderError)).toBeInTheDocument();
    await user.click(screen.getByText('Error details'));
    expect(screen.getByText('The outbox could not be read')).toBeInTheDocument();
    outboxBackend([invite]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await within(await table()).findByText('ivy@example.com')).toBeInTheDocument();
  });
});

describe('/settings/email-outbox for anyone but an admin', () => {
  it('is not in the Settings menu of an editor, and its address shows Unauthorized without asking the server', async () => {
    server.use(...consoleStartupHandlers({ roles: ['editor'] }));
    let asked = 0;
    server.use(
      http.get('*/api/.ory/admin/courier/messages', () => {
        asked += 1;
        return HttpResponse.json([]);
      }),
    );
    const { user } = openOutbox();
    expect(await screen.findByText(VIEW_MESSAGES.unauthorized)).toBeInTheDocument();
    await user.click(within(mainNav()).getByRole('button', { name: 'Settings' }));
    const submenu = within(mainNav()).getByRole('list', { name: 'Settings' });
    expect(
      within(submenu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Connections',
      'Users',
      'Teams',
      'Incident Rules',
      'Catalog Scrapers',
      'Topology',
      'Health Checks',
      'Jobs History',
      'Feature Flags',
      'Log Backends',
      'Event Queue',
      'Agents',
      'Integrations',
    ]);
    expect(asked).toBe(0);
  });

  it('goes with the Users page when the server cannot administer identities', async () => {
    server.use(...consoleStartupHandlers({ userAdmin: false }));
    openOutbox();
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
