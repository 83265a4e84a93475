/**
 * Texts of the Event Queue settings page (spec 3 section 2.9): one row per event name of
 * `event_queue_summary` (its row schema is `eventQueueSummaryRowSchema` in events.ts).
 */
export const EVENT_QUEUE_PAGE_TEXTS = {
  title: 'Event Queue',
  table: 'Event queue',
  columns: {
    name: 'Name',
    pending: 'Pending',
    failed: 'Errors',
    averageAttempts: 'Average Attempts',
    firstFailure: 'First Failed At',
    lastFailure: 'Last Failed At',
  },
  error: {
    title: 'Most common error',
    description: (name: string) => `Events named ${name} fail most often with this error.`,
    close: 'Done',
  },
} as const;
