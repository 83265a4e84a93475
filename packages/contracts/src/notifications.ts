import { z } from 'zod';

/**
 * Notifications (spec 3 sections 2.10, 3, 4, 5, 7, 8 and 9; backend-model 1.10 and 2.9;
 * ui-calls 3.13; docs/notifications.md): rules that send a message when an event of the queue
 * matches them, the history of every send attempt, silences, and the trace that answers "why
 * did (or didn't) this notify?". Server and web both read these names and texts.
 */

/** The events a rule can name (spec 3 section 9, in the spec's order). */
export const NOTIFICATION_EVENTS = [
  'check.failed',
  'check.passed',
  'component.healthy',
  'component.unhealthy',
  'component.unknown',
  'component.warning',
  'config.created',
  'config.deleted',
  'config.healthy',
  'config.unhealthy',
  'config.unknown',
  'config.updated',
  'config.warning',
  'playbook.approval.inserted',
  'playbook.spec.approval.updated',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/**
 * The events that Lookout produces today and the notification consumer takes from the queue:
 * check results (13_event_queue.sql), component roll-up health (21_topology.sql) and catalog
 * items (18_catalog.sql), and the playbook approval events (25_playbooks.sql).
 */
export const NOTIFICATION_CONSUMED_EVENTS = [
  'check.failed',
  'check.passed',
  'component.healthy',
  'component.unhealthy',
  'component.unknown',
  'component.warning',
  'config.created',
  'config.deleted',
  'config.healthy',
  'config.unhealthy',
  'config.unknown',
  'config.updated',
  'config.warning',
  'playbook.approval.inserted',
  'playbook.spec.approval.updated',
] as const satisfies readonly NotificationEvent[];

/** The queue event that carries one rendered message to one recipient (backend-model 2.9). */
export const NOTIFICATION_SEND_EVENT = 'notification.send';

/** Send statuses of a history row (spec 3 section 4), in the spec's order. */
export const NOTIFICATION_SEND_STATUSES = [
  'sent',
  'error',
  'pending',
  'cancelled',
  'repeat-interval',
  'silenced',
] as const;
export type NotificationSendStatus = (typeof NOTIFICATION_SEND_STATUSES)[number];

/** How each status is shown: repeat-interval is shown as Repeated (spec 3 section 4). */
export const NOTIFICATION_SEND_STATUS_LABELS: Record<NotificationSendStatus, string> = {
  sent: 'Sent',
  error: 'Error',
  pending: 'Pending',
  cancelled: 'Cancelled',
  'repeat-interval': 'Repeated',
  silenced: 'Silenced',
};

/** Resource types of the send history filter (ui-calls 3.13: check, canary, component, config). */
export const NOTIFICATION_RESOURCE_TYPES = ['check', 'canary', 'component', 'config'] as const;
export type NotificationResourceType = (typeof NOTIFICATION_RESOURCE_TYPES)[number];

/** Repeat interval options of the rule form (spec 3 section 9); `1m` is one month. */
export const NOTIFICATION_REPEAT_INTERVALS = ['1h', '2h', '3h', '6h', '1d', '1w', '1m'] as const;
export type NotificationRepeatInterval = (typeof NOTIFICATION_REPEAT_INTERVALS)[number];

export const NOTIFICATION_REPEAT_INTERVAL_LABELS: Record<NotificationRepeatInterval, string> = {
  '1h': '1 hour',
  '2h': '2 hours',
  '3h': '3 hours',
  '6h': '6 hours',
  '1d': '1 day',
  '1w': '1 week',
  '1m': '1 month',
};

const HOUR_MS = 3_600_000;
const REPEAT_INTERVAL_MS: Record<NotificationRepeatInterval, number> = {
  '1h': HOUR_MS,
  '2h': 2 * HOUR_MS,
  '3h': 3 * HOUR_MS,
  '6h': 6 * HOUR_MS,
  '1d': 24 * HOUR_MS,
  '1w': 7 * 24 * HOUR_MS,
  '1m': 30 * 24 * HOUR_MS,
};
const DURATION = /^(\d+)(s|m|h|d|w|mo)$/;
const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: HOUR_MS,
  d: 24 * HOUR_MS,
  w: 7 * 24 * HOUR_MS,
  mo: 30 * 24 * HOUR_MS,
};

/**
 * Milliseconds of a repeat interval: one of the options (`1m` is a month, as the form labels
 * it), or a single-unit duration written elsewhere (`30m`, `12h`, `2w`, `3mo`); undefined when
 * the text is neither.
 */
export function repeatIntervalMs(value: string): number | undefined {
  const text = value.trim();
  if ((NOTIFICATION_REPEAT_INTERVALS as readonly string[]).includes(text)) {
    return REPEAT_INTERVAL_MS[text as NotificationRepeatInterval];
  }
  const match = DURATION.exec(text);
  if (!match) return undefined;
  const amount = Number(match[1]);
  return amount > 0 ? amount * (UNIT_MS[match[2] ?? ''] ?? 0) : undefined;
}

/** Recipient tabs of the rule form (spec 3 section 4): choosing one clears the others. */
export const NOTIFICATION_RECIPIENT_KINDS = ['person', 'team', 'custom'] as const;
export type NotificationRecipientKind = (typeof NOTIFICATION_RECIPIENT_KINDS)[number];
export const NOTIFICATION_RECIPIENT_LABELS: Record<NotificationRecipientKind, string> = {
  person: 'Person',
  team: 'Team',
  custom: 'Others',
};

/** What a silence is about (spec 3 section 4): choosing one kind clears the other ids. */
export const SILENCE_RESOURCE_KINDS = ['component', 'config', 'check', 'canary'] as const;
export type SilenceResourceKind = (typeof SILENCE_RESOURCE_KINDS)[number];
export const SILENCE_RESOURCE_COLUMNS = {
  component: 'component_id',
  config: 'config_id',
  check: 'check_id',
  canary: 'canary_id',
} as const satisfies Record<SilenceResourceKind, string>;

/** Silence durations the add form offers as relative choices (`until: "now+<dur>"`). */
export const SILENCE_DURATIONS = ['1h', '3h', '6h', '12h', '1d', '3d', '1w'] as const;

/** The notification module's own endpoints (the rest is /api/db). */
export const NOTIFICATION_API_BASE = '/api/notification';
/** POST {config_id | component_id | check_id | canary_id, recursive, from, until, description}. */
export const NOTIFICATION_SILENCE_PATH = `${NOTIFICATION_API_BASE}/silence`;
/**
 * GET `?resource_id=<uuid>[&event=check.failed][&limit=20]` (newest first) or `/<trace id>`:
 * for each event the consumer took, every rule it considered and why it did or didn't send.
 */
export const NOTIFICATION_TRACES_PATH = `${NOTIFICATION_API_BASE}/traces`;

/** Defaults the flow runs with (backend-model 2.9). */
export const NOTIFICATION_DEFAULTS = {
  /** Tries of one send: the first, then retries with back-off from the event queue. */
  maxAttempts: 4,
  /** Send history and traces are deleted after this many days. */
  retentionDays: 30,
  /** A send gives up after this long. */
  sendTimeoutMs: 30_000,
  /** Trace list page size. */
  tracesPageSize: 20,
} as const;

/** Texts of spec 3 sections 5 and 8, and the server's refusals. */
export const NOTIFICATION_MESSAGES = {
  silenceFailed: 'Failed to silence notification',
  ruleUpdated: 'Notification updated successfully',
  ruleCreated: 'Notification added successfully',
  ruleDeleted: 'Notification deleted successfully',
  silenceCreated: 'Notification silenced',
  silenceDeleted: 'Silence deleted successfully',
  required: 'This field is required',
  silenceResourceRequired: 'A resource is required: set one of component_id, config_id, check_id or canary_id.',
  silenceOneResource:
    'A silence is about one resource: set only one of component_id, config_id, check_id or canary_id.',
  eventsRequired: 'events: choose at least one event.',
  unknownEvent: (name: string) =>
    `events: '${name}' is not a notification event. Use one of: ${NOTIFICATION_EVENTS.join(', ')}.`,
  recipientRequired: 'A recipient is required: set person_id, team_id or custom_services.',
  badRepeatInterval: (value: string) =>
    `repeat_interval: '${value}' is not a duration. Use one of ${NOTIFICATION_REPEAT_INTERVALS.join(', ')} or e.g. 30m, 12h.`,
  badFilter: (problem: string) => `filter: not a valid CEL expression (${problem}).`,
  badTemplate: (problem: string) => `template: ${problem}`,
  badCustomService: (index: number, problem: string) => `custom_services[${index}]: ${problem}`,
  badTime: (field: 'from' | 'until', value: string) =>
    `${field}: '${value}' is not a time. Use an ISO time, 'now' or 'now+<duration>' such as now+2h.`,
  untilBeforeFrom: 'until must be after from.',
  emptyHistory: 'No notifications have been sent yet.',
  emptyRules: 'No notification rules yet.',
  emptySilences: 'No silences.',
} as const;

const uuid = z.uuid();
const isoTime = z.string().max(64);

/** One entry of `custom_services`: a connection (`connection://ns/name` or id) or a shoutrrr-style URL. */
export const notificationCustomServiceSchema = z
  .object({
    name: z.string().max(255).optional(),
    connection: z.string().min(1).max(2000).optional(),
    url: z.string().min(1).max(4000).optional(),
    properties: z.record(z.string(), z.string().max(10_000)).optional(),
  })
  .loose();
export type NotificationCustomService = z.infer<typeof notificationCustomServiceSchema>;

/** The `notifications` row as /api/db gives it. */
export const notificationRuleSchema = z.object({
  id: uuid,
  name: z.string().nullable(),
  namespace: z.string().nullable(),
  title: z.string().nullable(),
  events: z.array(z.string()),
  filter: z.string().nullable(),
  template: z.string().nullable(),
  properties: z.record(z.string(), z.unknown()).nullable(),
  person_id: uuid.nullable(),
  team_id: uuid.nullable(),
  custom_services: z.array(notificationCustomServiceSchema).nullable(),
  repeat_interval: z.string().nullable(),
  source: z.string().nullable(),
  created_by: uuid.nullable(),
  created_at: isoTime,
  updated_at: isoTime.nullable(),
  deleted_at: isoTime.nullable(),
  error: z.string().nullable(),
  error_at: isoTime.nullable(),
});
export type NotificationRule = z.infer<typeof notificationRuleSchema>;

/** A `notifications_summary` row: the rule plus its statistics (spec 3 section 3). */
export const notificationSummaryRowSchema = notificationRuleSchema.extend({
  pending: z.number().int(),
  failed: z.number().int(),
  sent: z.number().int(),
  avg_duration_ms: z.number().nullable(),
  most_common_error: z.string().nullable(),
});
export type NotificationSummaryRow = z.infer<typeof notificationSummaryRowSchema>;

/** The resource a history row is about, as `notification_send_history_summary` embeds it. */
export const notificationResourceSchema = z.object({
  id: uuid,
  name: z.string().nullable(),
  type: z.string().nullable(),
  icon: z.string().nullable().optional(),
  config_class: z.string().nullable().optional(),
  status: z.string().nullable().optional(),
});

/** A `notification_send_history_summary` row (spec 3 section 3; ui-calls 3.13). */
export const notificationSendHistoryRowSchema = z.object({
  id: uuid,
  notification_id: uuid,
  status: z.enum(NOTIFICATION_SEND_STATUSES),
  count: z.number().int(),
  first_observed: isoTime,
  source_event: z.string(),
  resource_id: uuid,
  resource_type: z.enum(NOTIFICATION_RESOURCE_TYPES).nullable(),
  resource: notificationResourceSchema.nullable(),
  person_id: uuid.nullable(),
  person: z.object({ id: uuid, name: z.string().nullable(), email: z.string().nullable() }).nullable(),
  title: z.string().nullable(),
  body: z.string(),
  error: z.string().nullable(),
  duration_millis: z.number().int().nullable(),
  silenced_by: uuid.nullable(),
  parent_id: uuid.nullable(),
  created_at: isoTime,
});
export type NotificationSendHistoryRow = z.infer<typeof notificationSendHistoryRowSchema>;

/** POST /api/notification/silence (ui-calls 3.13); `from`/`until` ISO or `now`, `now+<dur>`. */
export const silenceRequestSchema = z
  .object({
    component_id: uuid.nullish(),
    config_id: uuid.nullish(),
    check_id: uuid.nullish(),
    canary_id: uuid.nullish(),
    recursive: z.boolean().optional(),
    from: z.string().max(64).nullish(),
    until: z.string().max(64).nullish(),
    description: z.string().max(10_000).nullish(),
  })
  .strict();
export type SilenceRequest = z.infer<typeof silenceRequestSchema>;

/** A `notification_silences` row. */
export const notificationSilenceSchema = z.object({
  id: uuid,
  name: z.string().nullable(),
  namespace: z.string().nullable(),
  description: z.string().nullable(),
  component_id: uuid.nullable(),
  config_id: uuid.nullable(),
  check_id: uuid.nullable(),
  canary_id: uuid.nullable(),
  recursive: z.boolean(),
  from: isoTime.nullable(),
  until: isoTime.nullable(),
  source: z.string().nullable(),
  created_by: uuid.nullable(),
  created_at: isoTime,
  deleted_at: isoTime.nullable(),
});
export type NotificationSilence = z.infer<typeof notificationSilenceSchema>;

/** What decided a rule's outcome for one event (the trace, item 6 of issue 15). */
export const NOTIFICATION_TRACE_OUTCOMES = [
  'event-not-matched',
  'filter-not-matched',
  'filter-error',
  'no-recipient',
  'silenced',
  'repeat-interval',
  'queued',
] as const;
export type NotificationTraceOutcome = (typeof NOTIFICATION_TRACE_OUTCOMES)[number];

export const NOTIFICATION_TRACE_OUTCOME_TEXTS: Record<NotificationTraceOutcome, string> = {
  'event-not-matched': "The rule does not list this event, so it wasn't considered further.",
  'filter-not-matched': "The rule's filter returned false for this event.",
  'filter-error': "The rule's filter could not be evaluated; the error is kept on the rule.",
  'no-recipient': 'The rule has no recipient.',
  silenced: 'A silence covered the resource, so the message was recorded as silenced.',
  'repeat-interval': 'The same message was sent within the repeat interval, so it was held back.',
  queued: 'The message was rendered and queued for sending.',
};

/** One rule's part of a trace. */
export const notificationTraceRuleSchema = z.object({
  notification_id: uuid,
  title: z.string().nullable(),
  event_matched: z.boolean(),
  filter: z.string().nullable(),
  /** true / false when the filter ran; null when there is none or the event did not match. */
  filter_result: z.boolean().nullable(),
  filter_error: z.string().nullable(),
  silenced_by: uuid.nullable(),
  repeat_interval: z.string().nullable(),
  /** The sent history row within the repeat interval that held this one back. */
  repeat_of: uuid.nullable(),
  outcome: z.enum(NOTIFICATION_TRACE_OUTCOMES),
  /** History rows of this rule for this event (one per recipient); their status and attempts. */
  sends: z.array(
    z.object({
      id: uuid,
      status: z.enum(NOTIFICATION_SEND_STATUSES),
      recipient: z.string(),
      error: z.string().nullable(),
      duration_millis: z.number().int().nullable(),
      attempts: z.number().int(),
    }),
  ),
});
export type NotificationTraceRule = z.infer<typeof notificationTraceRuleSchema>;

/** GET /api/notification/traces/<id>: one event and what each rule did with it. */
export const notificationTraceSchema = z.object({
  id: uuid,
  event_name: z.string(),
  resource_id: uuid,
  resource_type: z.enum(NOTIFICATION_RESOURCE_TYPES),
  event_time: isoTime,
  created_at: isoTime,
  rules: z.array(notificationTraceRuleSchema),
});
export type NotificationTrace = z.infer<typeof notificationTraceSchema>;

/** GET /api/notification/traces?resource_id=…: newest first. */
export const notificationTraceListSchema = z.object({ traces: z.array(notificationTraceSchema) });
export type NotificationTraceList = z.infer<typeof notificationTraceListSchema>;

/** The `kind` of a `lookout apply -f` document that is a notification rule. */
export const NOTIFICATION_KIND = 'Notification';
