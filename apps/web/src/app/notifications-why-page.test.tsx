import { NOTIFICATION_TRACE_OUTCOME_TEXTS, NOTIFICATION_TRACE_TEXTS, type NotificationTrace } from '@lookout/contracts';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedInHandlers } from '@/test/identity-handlers';
import { IDS } from '@/test/notifications-backend';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const OTHER_RULE = '9b9b9b9b-9b9b-4b9b-9b9b-9b9b9b9b9b9b';

const trace: NotificationTrace = {
  id: 'a1a1a1a1-a1a1-4a1a-a1a1-a1a1a1a1a1a1',
  event_name: 'check.failed',
  resource_id: IDS.check,
  resource_type: 'check',
  event_time: '2026-01-02T12:00:00Z',
  created_at: '2026-01-02T12:00:01Z',
  rules: [
    {
      notification_id: IDS.rule,
      title: 'API down',
      event_matched: true,
      filter: null,
      filter_result: null,
      filter_error: null,
      silenced_by: IDS.silence,
      repeat_interval: '1h',
      repeat_of: null,
      outcome: 'silenced',
      sends: [
        {
          id: IDS.send,
          status: 'silenced',
          recipient: 'custom:0:connection://default/hook',
          error: null,
          duration_millis: null,
          attempts: 0,
        },
      ],
    },
    {
      notification_id: OTHER_RULE,
      title: 'Only payments',
      event_matched: true,
      filter: 'check.name == "payments"',
      filter_result: false,
      filter_error: null,
      silenced_by: null,
      repeat_interval: null,
      repeat_of: null,
      outcome: 'filter-not-matched',
      sends: [],
    },
  ],
};

describe('/notifications/why (issue 15 item 6)', () => {
  it("explains a silenced and a filtered-out rule for a resource's events", async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('*/api/notification/traces', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json({ traces: [trace] });
      }),
    );
    renderApp({ path: `/notifications/why?resource_id=${IDS.check}&event=check.failed`, navigation });
    const event = await screen.findByRole('region', { name: /check\.failed/ }, { timeout: 15_000 });
    expect(Object.fromEntries(asked[0]!)).toEqual({ resource_id: IDS.check, event: 'check.failed', limit: '20' });
    const silenced = within(event).getByText('API down').closest('tr')!;
    expect(within(silenced).getByText(NOTIFICATION_TRACE_OUTCOME_TEXTS.silenced)).toBeInTheDocument();
    expect(within(silenced).getByText('Silenced')).toBeInTheDocument();
    expect(within(silenced).getByText('0 attempts')).toBeInTheDocument();
    const filtered = within(event).getByText('Only payments').closest('tr')!;
    expect(within(filtered).getByText(NOTIFICATION_TRACE_OUTCOME_TEXTS['filter-not-matched'])).toBeInTheDocument();
    expect(within(filtered).getByText(NOTIFICATION_TRACE_TEXTS.filterFailed)).toBeInTheDocument();
    expect(document.title).toBe(`${NOTIFICATION_TRACE_TEXTS.title} | Lookout`);
  });

  it("explains exactly one send's event with history_id", async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('*/api/notification/traces', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json({ traces: [trace] });
      }),
    );
    renderApp({ path: `/notifications/why?resource_id=${IDS.check}&history_id=${IDS.send}`, navigation });
    await screen.findByRole('region', { name: /check\.failed/ }, { timeout: 15_000 });
    expect(Object.fromEntries(asked[0]!)).toEqual({ resource_id: IDS.check, history_id: IDS.send, limit: '20' });
  });

  it('says so when no event of the resource reached the rules, and asks for a resource without one', async () => {
    server.use(http.get('*/api/notification/traces', () => HttpResponse.json({ traces: [] })));
    const first = renderApp({ path: `/notifications/why?resource_id=${IDS.check}`, navigation });
    expect(await screen.findByText(NOTIFICATION_TRACE_TEXTS.empty, {}, { timeout: 15_000 })).toBeInTheDocument();
    first.unmount();
    renderApp({ path: '/notifications/why', navigation });
    expect(
      await screen.findByText(NOTIFICATION_TRACE_TEXTS.missingResource, {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
  });
});
