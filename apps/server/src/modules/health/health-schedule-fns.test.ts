import { describe, expect, it } from 'vitest';
import { createScheduleCache, nextRuntime, parseSchedule, phaseOf, type CheckSchedule } from './health-schedule-fns.js';

const interval = (ms: number): CheckSchedule => ({ kind: 'interval', intervalMs: ms, text: `@every ${ms}ms` });

describe('parseSchedule', () => {
  it('reads @every durations, including the interval form the derivation trigger writes', () => {
    expect(parseSchedule('@every 30s')).toEqual({
      ok: true,
      schedule: { kind: 'interval', intervalMs: 30_000, text: '@every 30s' },
    });
    expect(parseSchedule('@every 1h30m')).toMatchObject({ ok: true, schedule: { intervalMs: 5_400_000 } });
    expect(parseSchedule('@every 60s')).toMatchObject({ ok: true, schedule: { intervalMs: 60_000 } });
  });

  it('uses the default schedule (every 5 minutes) when a canary sets none', () => {
    expect(parseSchedule(null)).toMatchObject({ ok: true, schedule: { kind: 'interval', intervalMs: 300_000 } });
    expect(parseSchedule('  ')).toMatchObject({ ok: true, schedule: { kind: 'interval', intervalMs: 300_000 } });
  });

  it('reads cron expressions with 5 or 6 fields and the descriptors, @midnight included', () => {
    expect(parseSchedule('*/5 * * * *')).toMatchObject({ ok: true, schedule: { kind: 'cron' } });
    expect(parseSchedule('0 */2 * * * *')).toMatchObject({ ok: true, schedule: { kind: 'cron' } });
    expect(parseSchedule('@hourly')).toMatchObject({ ok: true, schedule: { kind: 'cron', expression: '@hourly' } });
    expect(parseSchedule('@midnight')).toMatchObject({ ok: true, schedule: { kind: 'cron', expression: '@daily' } });
  });

  it('says what is wrong with a schedule it cannot read', () => {
    expect(parseSchedule('@every soon')).toEqual({
      ok: false,
      error: "schedule '@every soon': 'soon' is not a duration",
      reason: "'soon' is not a duration",
    });
    expect(parseSchedule('@every 10ms')).toEqual({
      ok: false,
      error: "schedule '@every 10ms': must be at least 1s",
      reason: "'@every 10ms' is more often than checks can run; the shortest interval is @every 1s",
    });
    const bad = parseSchedule('61 * * * *');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^schedule '61 \* \* \* \*' is not a cron expression/);
  });
});

describe('nextRuntime', () => {
  const now = new Date('2026-11-21T10:00:00.000Z');

  it('runs an interval check at its own phase, strictly after now and within one interval', () => {
    const id = '0191f2a0-0000-7000-8000-000000000001';
    const next = nextRuntime(interval(30_000), id, now);
    expect(next.getTime()).toBeGreaterThan(now.getTime());
    expect(next.getTime() - now.getTime()).toBeLessThanOrEqual(30_000);
    expect(next.getTime() % 30_000).toBe(phaseOf(id, 30_000));
  });

  it('keeps the cadence: the run after next is one interval later', () => {
    const id = '0191f2a0-0000-7000-8000-000000000002';
    const first = nextRuntime(interval(60_000), id, now);
    expect(nextRuntime(interval(60_000), id, first).getTime() - first.getTime()).toBe(60_000);
  });

  it('skips slots a long run missed instead of catching up', () => {
    const id = '0191f2a0-0000-7000-8000-000000000003';
    const slot = nextRuntime(interval(10_000), id, now);
    const late = new Date(slot.getTime() + 25_000);
    expect(nextRuntime(interval(10_000), id, late).getTime()).toBe(slot.getTime() + 30_000);
  });

  it('spreads checks created together evenly over the interval', () => {
    const buckets = new Array(10).fill(0);
    for (let i = 0; i < 5000; i++) {
      const id = `0191f2a0-0000-7000-8000-${i.toString(16).padStart(12, '0')}`;
      const offset = nextRuntime(interval(30_000), id, now).getTime() - now.getTime();
      buckets[Math.min(9, Math.floor(offset / 3000))] += 1;
    }
    // 500 per tenth of the interval when perfectly even; allow 20 %.
    for (const count of buckets) expect(Math.abs(count - 500)).toBeLessThan(100);
  });

  it('runs a cron check at its next match', () => {
    const parsed = parseSchedule('*/5 * * * *');
    if (!parsed.ok) throw new Error(parsed.error);
    const next = nextRuntime(parsed.schedule, 'any', new Date('2026-11-21T10:02:30Z'));
    expect(next.getUTCMinutes() % 5).toBe(0);
    expect(next.getTime() - new Date('2026-11-21T10:02:30Z').getTime()).toBeLessThanOrEqual(300_000);
    expect(next.getTime()).toBeGreaterThan(new Date('2026-11-21T10:02:30Z').getTime());
  });
});

describe('createScheduleCache', () => {
  it('parses each schedule text once', () => {
    const cache = createScheduleCache();
    expect(cache('@every 1m')).toBe(cache('@every 1m'));
    expect(cache(null)).toMatchObject({ ok: true });
  });
});
