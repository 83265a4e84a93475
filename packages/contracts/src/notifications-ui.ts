/**
 * Texts and options of the notification pages (spec 3 sections 2.10, 4, 8 and 9): send
 * history, rules and silences. The statuses, events, repeat intervals and the API's shapes
 * are in notifications.ts (shared with the server); what only the pages show is here.
 */
import type { NotificationResourceType, NotificationSendStatus, SILENCE_DURATIONS } from './notifications.js';

// Toasts and refusals (spec 3 section 8) are NOTIFICATION_MESSAGES in notifications.ts.

/** The three tabs over every notification page, in the original's order. */
export const NOTIFICATION_TABS = [
  { key: 'history', label: 'Notifications', path: '/notifications' },
  { key: 'rules', label: 'Rules', path: '/notifications/rules' },
  { key: 'silences', label: 'Silences', path: '/notifications/silences' },
] as const;
export type NotificationTabKey = (typeof NOTIFICATION_TABS)[number]['key'];

/** The tone of each send status's dot; the labels are NOTIFICATION_SEND_STATUS_LABELS. */
export const NOTIFICATION_SEND_STATUS_TONES: Readonly<
  Record<NotificationSendStatus, 'green' | 'red' | 'gray' | 'muted'>
> = {
  sent: 'green',
  error: 'red',
  pending: 'gray',
  cancelled: 'red',
  'repeat-interval': 'muted',
  silenced: 'muted',
};

/** How the resource type filter names each type (the original's labels, sorted by label). */
export const NOTIFICATION_RESOURCE_TYPE_LABELS: Readonly<Record<NotificationResourceType, string>> = {
  canary: 'Canary',
  config: 'Catalog',
  check: 'Check',
  component: 'Component',
};

/**
 * How history rows name their resource: the filter's types, and those of the playbook approval
 * events (not in the filter, which keeps the original's four types).
 */
export const NOTIFICATION_HISTORY_RESOURCE_LABELS: Readonly<Record<string, string>> = {
  ...NOTIFICATION_RESOURCE_TYPE_LABELS,
  playbook: 'Playbook',
  playbook_run: 'Playbook run',
};

/** Rows per page on the three lists (the shared table's default). */
export const NOTIFICATIONS_PAGE_SIZE = 50;

export const NOTIFICATION_HISTORY_TEXTS = {
  title: 'Notifications',
  table: 'Notification send history',
  empty: 'No notifications have been sent yet.',
  emptyFiltered: 'No notifications match these filters.',
  filters: { status: 'Status', resourceType: 'Resource Type' },
  columns: { age: 'Age', resource: 'Resource', status: 'Status', event: 'Event' },
  /** '(x3 over 2 hours)': a row that stands for several sends of the same event. */
  repeated: (count: number, since: string) => `(x${count} over ${since})`,
  details: {
    title: 'Notification Details',
    resource: 'Resource',
    age: 'Age',
    recipient: 'Recipient',
    unknownRecipient: 'Unknown',
    status: 'Status',
    event: 'Event',
    duration: 'Duration',
    count: 'Count',
    firstObserved: 'First Observed',
    body: 'Body',
    error: 'Error',
    notFound: 'Notification not found',
    why: 'Why did (or didn’t) this notify?',
  },
} as const;

export const NOTIFICATION_RULES_TEXTS = {
  title: 'Rules',
  table: 'Notification rules',
  add: 'Add notification rule',
  empty: 'No notification rules yet.',
  columns: {
    title: 'Title',
    events: 'Events',
    filter: 'Filter',
    recipient: 'Recipient',
    pending: 'Pending',
    failed: 'Failed',
    sent: 'Sent',
    avgDuration: 'Avg Duration',
    repeatInterval: 'Repeat Interval',
    createdAt: 'Created At',
    updatedAt: 'Updated At',
    createdBy: 'Created By',
  },
  mostCommonError: 'Most common error',
  /** A rule whose filter failed is skipped for an hour; its last error is kept on it. */
  filterError: 'Filter error',
  notFound: 'Notification not found',
  createTitle: 'Create Notification',
  editTitle: 'Edit Notification',
  form: {
    title: 'Title',
    events: 'Events',
    eventsPlaceholder: 'Choose events',
    filter: 'Filter',
    filterHint: 'A CEL expression over the event, e.g. check.name == "api"',
    recipient: 'Recipient',
    person: 'Person',
    team: 'Team',
    others: 'Others',
    connection: 'Connection',
    choosePerson: 'Choose a person',
    chooseTeam: 'Choose a team',
    chooseConnection: 'Choose a connection',
    noConnections: 'No notification connections yet; add one under Settings → Connections.',
    repeatInterval: 'Repeat Interval',
    noRepeatInterval: 'None',
    template: 'Template',
    templateDefault: 'Default',
    templateCustom: 'Custom Template',
    templateHint:
      'Markdown with CEL in {{ }}; the event’s resource is in scope, e.g. **{{ check.name }}** is {{ check.status }}',
    properties: 'Properties',
    propertiesHint: 'A JSON object',
    save: 'Save',
    saving: 'Saving...',
    update: 'Update',
    delete: 'Delete',
    cancel: 'Cancel',
    readOnly: (source: string) => `This rule comes from ${source} and cannot be edited here.`,
  },
  validation: {
    events: 'Please choose at least one event',
    properties: 'Properties must be a JSON object',
    title: 'Title is at most 255 characters',
  },
  deleteConfirm: {
    title: 'Delete Notification',
    description: 'Are you sure you want to delete this notification rule?',
  },
} as const;

export const NOTIFICATION_SILENCES_TEXTS = {
  title: 'Silences',
  table: 'Notification silences',
  add: 'Add silence',
  empty: 'No silences.',
  columns: {
    resource: 'Resource',
    duration: 'Duration',
    source: 'Source',
    reason: 'Reason',
    createdBy: 'Created By',
    delete: 'Delete',
  },
  recursive: 'Recursive',
  deleteConfirm: {
    title: 'Delete Notification Silence',
    description: 'Are you sure you want to delete this notification silence?',
  },
} as const;

/** The add-silence page; the resource kinds are switched like the original's (spec 3 section 4). */
export const SILENCE_FORM_TEXTS = {
  title: 'Silence Notification',
  resource: 'Resource',
  kinds: { config: 'Catalog', component: 'Component', check: 'Check', canary: 'Canary' },
  resourceId: (kind: string) => `${kind} ID`,
  resourcePlaceholder: 'The resource’s id (UUID)',
  recursive: 'Recursive',
  recursiveHint: 'Also silence the resource’s children',
  duration: 'Silence Duration',
  relative: 'For',
  absolute: 'Between',
  from: 'From',
  until: 'Until',
  reason: 'Reason',
  submit: 'Submit',
  submitting: 'Submitting...',
  cancel: 'Cancel',
  validation: {
    resource: 'Please choose a resource',
    resourceId: 'Please enter a valid id',
    window: 'Until must be after From',
  },
} as const;

/** Labels of the relative silence lengths (SILENCE_DURATIONS, sent as `until: now+<value>`). */
export const SILENCE_DURATION_LABELS: Readonly<Record<(typeof SILENCE_DURATIONS)[number], string>> = {
  '1h': '1 hour',
  '3h': '3 hours',
  '6h': '6 hours',
  '12h': '12 hours',
  '1d': '1 day',
  '3d': '3 days',
  '1w': '1 week',
};

/** The link to the add-silence page of the check drawer, the component page and card menu, and the catalog item page. */
export const SILENCE_LINK_TEXT = 'Silence';

/** The "Why did (or didn't) this notify?" page: the stored traces of one resource's events. */
export const NOTIFICATION_TRACE_TEXTS = {
  title: 'Why did (or didn’t) this notify?',
  link: 'Why did (or didn’t) this notify?',
  intro:
    'Each event of this resource that reached the notification rules, newest first, and what every rule did with it.',
  missingResource: 'Open this page from a notification or a check to see its events.',
  empty: 'No event of this resource has reached the notification rules yet.',
  event: 'Event',
  time: 'Time',
  rule: 'Rule',
  untitled: 'Untitled rule',
  noRules: 'No rule was considered for this event.',
  eventMatched: 'Event listed',
  filter: 'Filter',
  noFilter: 'No filter',
  silence: 'Silence',
  repeatInterval: 'Repeat interval',
  outcome: 'Outcome',
  sends: 'Sends',
  attempts: (count: number) => (count === 1 ? '1 attempt' : `${count} attempts`),
  yes: 'Yes',
  no: 'No',
  filterPassed: 'matched',
  filterFailed: 'did not match',
} as const;
