import { DEFAULT_CANARY_SCHEDULE, parseDurationMs } from '@lookout/contracts';
import { CronExpressionParser } from 'cron-parser';
import { LRUCache } from 'lru-cache';

/**
 * When a check runs next. A canary's `schedule` is a cron expression (5 fields, or 6 with
 * seconds first), a descriptor (`@hourly`, `@daily`, ...) or `@every <duration>`; its older
 * `interval: N` arrives here as `@every Ns` (the derivation trigger writes it so). A canary
 * with neither runs on {@link DEFAULT_CANARY_SCHEDULE}.
 */

/** A schedule the scheduler can compute with. */
export type CheckSchedule =
  { kind: 'interval'; intervalMs: number; text: string } | { kind: 'cron'; expression: string; text: string };

/** The shortest interval a check may run at. */
export const MIN_INTERVAL_MS = 1000;

const ALIASES: Record<string, string> = { '@midnight': '@daily', '@annually': '@yearly' };

/**
 * Reads a schedule, or says what is wrong with it: `error` names the schedule (for a run's
 * result), `reason` does not (for a message that names the field, `spec.schedule: …`). Empty
 * means the default schedule. Canary writes are refused with the same verdict
 * (health-canary-rules-fns.ts), so a stored schedule always runs.
 */
export function parseSchedule(
  text: string | null | undefined,
): { ok: true; schedule: CheckSchedule } | { ok: false; error: string; reason: string } {
  const source = text?.trim() || DEFAULT_CANARY_SCHEDULE;
  const every = /^@every\s+(.+)$/.exec(source);
  if (every) {
    const ms = parseDurationMs(every[1] ?? '');
    if (ms === undefined) {
      const reason = `'${every[1]}' is not a duration`;
      return { ok: false, error: `schedule '${source}': ${reason}`, reason };
    }
    if (ms < MIN_INTERVAL_MS) {
      return {
        ok: false,
        error: `schedule '${source}': must be at least 1s`,
        reason: `'${source}' is more often than checks can run; the shortest interval is @every 1s`,
      };
    }
    return { ok: true, schedule: { kind: 'interval', intervalMs: ms, text: source } };
  }
  const expression = ALIASES[source] ?? source;
  try {
    CronExpressionParser.parse(expression, { currentDate: new Date(0) });
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: `schedule '${source}' is not a cron expression: ${cause}`,
      reason: `'${source}' is not a cron expression: ${cause}`,
    };
  }
  return { ok: true, schedule: { kind: 'cron', expression, text: source } };
}

/**
 * A stable offset in [0, intervalMs) for a check, from its id (FNV-1a). Checks created together
 * (a canary of 100 checks, or 5,000 at once) would otherwise all come due in the same instant
 * every interval; with their own phase they spread evenly over it.
 */
export function phaseOf(checkId: string, intervalMs: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < checkId.length; i++) {
    hash ^= checkId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % Math.max(1, Math.floor(intervalMs));
}

/**
 * The next run after `now`. Intervals run at `phase + k * interval`, the first such instant
 * after now: a run that took long skips the slots it missed rather than catching up in a
 * burst. Cron expressions run at their next match (in the server's time zone).
 */
export function nextRuntime(schedule: CheckSchedule, checkId: string, now: Date): Date {
  if (schedule.kind === 'interval') {
    const interval = schedule.intervalMs;
    const phase = phaseOf(checkId, interval);
    const t = now.getTime();
    const slots = Math.floor((t - phase) / interval) + 1;
    return new Date(phase + slots * interval);
  }
  return CronExpressionParser.parse(schedule.expression, { currentDate: now }).next().toDate();
}

/** Parsed schedules by text: thousands of checks share a handful of schedules. */
export function createScheduleCache(limit = 1000) {
  const cache = new LRUCache<string, ReturnType<typeof parseSchedule>>({ max: limit });
  return (text: string | null | undefined): ReturnType<typeof parseSchedule> => {
    const key = text ?? '';
    let parsed = cache.get(key);
    if (!parsed) {
      parsed = parseSchedule(text);
      cache.set(key, parsed);
    }
    return parsed;
  };
}
