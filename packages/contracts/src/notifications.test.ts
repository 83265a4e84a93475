import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from './events.js';
import {
  NOTIFICATION_CONSUMED_EVENTS,
  NOTIFICATION_EVENTS,
  NOTIFICATION_REPEAT_INTERVALS,
  NOTIFICATION_SEND_EVENT,
  NOTIFICATION_SEND_STATUS_LABELS,
  repeatIntervalMs,
  silenceRequestSchema,
} from './notifications.js';

describe('notification contracts', () => {
  it('names only events the queue accepts', () => {
    for (const name of [...NOTIFICATION_EVENTS, ...NOTIFICATION_CONSUMED_EVENTS, NOTIFICATION_SEND_EVENT]) {
      expect(EVENT_NAMES).toContain(name);
    }
  });

  it('shows repeat-interval as Repeated (spec 3 section 4)', () => {
    expect(NOTIFICATION_SEND_STATUS_LABELS['repeat-interval']).toBe('Repeated');
  });

  it('reads every repeat interval option, 1m being a month', () => {
    expect(NOTIFICATION_REPEAT_INTERVALS.map((value) => repeatIntervalMs(value))).toEqual([
      3_600_000, 7_200_000, 10_800_000, 21_600_000, 86_400_000, 604_800_000, 2_592_000_000,
    ]);
    expect(repeatIntervalMs('30m')).toBe(1_800_000);
    expect(repeatIntervalMs('2mo')).toBe(2 * 2_592_000_000);
    expect(repeatIntervalMs('0h')).toBeUndefined();
    expect(repeatIntervalMs('soon')).toBeUndefined();
  });

  it('takes the silence body the add page posts and refuses unknown fields', () => {
    const body = {
      check_id: '0190a4b2-0000-7000-8000-000000000001',
      recursive: true,
      from: 'now',
      until: 'now+2h',
      description: 'x',
    };
    expect(silenceRequestSchema.parse(body)).toEqual(body);
    expect(silenceRequestSchema.safeParse({ ...body, extra: 1 }).success).toBe(false);
  });
});
