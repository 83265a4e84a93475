import type { NotificationSendHistoryRow, NotificationSilence, NotificationSummaryRow } from '@lookout/contracts';
import { HttpResponse, http } from 'msw';

/** Fixtures and MSW handlers of the notification pages' calls (ui-calls 3.13). */
export const IDS = {
  check: '0f1e2d3c-4b5a-4978-8877-665544332211',
  canary: '1a2b3c4d-5e6f-4a0b-9c8d-7e6f5a4b3c2d',
  rule: '2b3c4d5e-6f70-4b1c-8d9e-0f1a2b3c4d5e',
  person: '3c4d5e6f-7081-4c2d-9e0f-1a2b3c4d5e6f',
  team: '4d5e6f70-8192-4d3e-8f10-2b3c4d5e6f70',
  connection: '5e6f7081-92a3-4e4f-9011-3c4d5e6f7081',
  send: '6f708192-a3b4-4f50-8122-4d5e6f708192',
  repeated: '708192a3-b4c5-4061-9233-5e6f708192a3',
  silence: '8192a3b4-c5d6-4172-8344-6f708192a3b4',
} as const;

export const sentRow: NotificationSendHistoryRow = {
  id: IDS.send,
  notification_id: IDS.rule,
  status: 'error',
  count: 3,
  first_observed: '2026-01-02T10:00:00Z',
  source_event: 'check.failed',
  resource_id: IDS.check,
  resource_type: 'check',
  resource: { id: IDS.check, name: 'api-health', type: 'http', status: 'unhealthy' },
  person_id: null,
  person: null,
  title: 'api-health failed',
  body: '<p>Check <b>api-health</b> failed</p>',
  error: '{"status":502,"message":"bad gateway"}',
  duration_millis: 1500,
  silenced_by: null,
  parent_id: null,
  created_at: '2026-01-02T12:00:00Z',
};

export const repeatedRow: NotificationSendHistoryRow = {
  ...sentRow,
  id: IDS.repeated,
  status: 'repeat-interval',
  count: 1,
  error: null,
  body: '',
};

export const ruleRow: NotificationSummaryRow = {
  id: IDS.rule,
  name: null,
  namespace: null,
  title: 'API down',
  events: ['check.failed', 'check.passed'],
  filter: 'check.name == "api-health"',
  template: null,
  properties: null,
  person_id: null,
  team_id: IDS.team,
  custom_services: null,
  repeat_interval: '1h',
  source: 'UI',
  created_by: IDS.person,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  deleted_at: null,
  error: null,
  error_at: null,
  pending: 2,
  failed: 5,
  sent: 40,
  avg_duration_ms: 1250,
  most_common_error: 'connect ECONNREFUSED 127.0.0.1:9',
};

export const silenceRow: NotificationSilence = {
  id: IDS.silence,
  name: null,
  namespace: null,
  description: 'deploy window',
  component_id: null,
  config_id: null,
  check_id: IDS.check,
  canary_id: null,
  recursive: true,
  from: '2026-01-02T10:00:00Z',
  until: '2026-01-02T12:00:00Z',
  source: 'UI',
  created_by: IDS.person,
  created_at: '2026-01-02T10:00:00Z',
  deleted_at: null,
};

/** Every GET the pages make; each returns the fixtures and records what was asked. */
export function notificationHandlers({
  history = [sentRow, repeatedRow],
  rules = [ruleRow],
  silences = [silenceRow],
}: {
  history?: NotificationSendHistoryRow[];
  rules?: NotificationSummaryRow[];
  silences?: NotificationSilence[];
} = {}) {
  const seen: Record<string, URLSearchParams[]> = {};
  const record = (name: string, request: Request) => {
    (seen[name] ??= []).push(new URL(request.url).searchParams);
    return new URL(request.url).searchParams;
  };
  const page = <T>(rows: T[]) =>
    HttpResponse.json(rows, { headers: { 'Content-Range': `0-${Math.max(rows.length - 1, 0)}/${rows.length}` } });
  const handlers = [
    http.get('*/api/db/notification_send_history_summary', ({ request }) => {
      const params = record('history', request);
      const id = params.get('id');
      return id ? HttpResponse.json(history.filter((row) => `eq.${row.id}` === id)) : page(history);
    }),
    http.get('*/api/db/notifications_summary', ({ request }) => {
      record('rules', request);
      return page(rules);
    }),
    http.get('*/api/db/notifications', ({ request }) => {
      const id = record('rule', request).get('id');
      return HttpResponse.json(rules.filter((row) => `eq.${row.id}` === id));
    }),
    http.get('*/api/db/notification_silences', ({ request }) => {
      record('silences', request);
      return page(silences);
    }),
    http.get('*/api/db/people', () =>
      HttpResponse.json([{ id: IDS.person, name: 'Ann Admin', email: 'ann@example.com' }]),
    ),
    http.get('*/api/db/teams', () => HttpResponse.json([{ id: IDS.team, name: 'SRE' }])),
    http.get('*/api/db/connections', () =>
      HttpResponse.json([
        { id: IDS.connection, name: 'hook', namespace: 'default', type: 'webhook' },
        { id: '9a9a9a9a-9a9a-4a9a-9a9a-9a9a9a9a9a9a', name: 'pg', namespace: 'default', type: 'postgres' },
      ]),
    ),
    http.get('*/api/db/checks', () => HttpResponse.json([{ id: IDS.check, name: 'api-health', type: 'http' }])),
    http.get('*/api/db/canaries', () => HttpResponse.json([{ id: IDS.canary, name: 'api' }])),
    http.get('*/api/db/components', () => HttpResponse.json([])),
    http.get('*/api/db/config_items', () => HttpResponse.json([])),
    // The silence form's check, component and catalog choices (ui-calls 3.16).
    http.post('*/api/resources/search', async ({ request }) => {
      record('search', request);
      const body = (await request.json()) as Record<string, unknown>;
      const check = { id: IDS.check, name: 'api-health', type: 'http', namespace: null, agent: 'local' };
      return HttpResponse.json({
        checks: body.checks ? [{ ...check, labels: null, icon: null, tags: null }] : [],
        components: [],
        configs: [],
      });
    }),
  ];
  return { handlers, seen };
}
