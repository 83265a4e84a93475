import { DEFAULT_TOPOLOGY_SCHEDULE, parseDurationMs } from '@lookout/contracts';
import { CronExpressionParser } from 'cron-parser';

/**
 * When a topology is due: never run, or changed since its last run → now; `@every <duration>`
 * → the last run plus the interval; a cron expression or descriptor → the first time after the
 * last run. The last run comes from job_history, so restarts and replicas agree.
 */

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** A run looks things up and writes rows: no topology runs more often than this. */
export const MIN_TOPOLOGY_INTERVAL_MS = 10_000;

export function nextTopologyRun(schedule: string | null | undefined, lastRun: Date | null, updatedAt: Date): Date {
  if (!lastRun || updatedAt > lastRun) return new Date(0);
  const text = schedule?.trim() || DEFAULT_TOPOLOGY_SCHEDULE;
  const every = /^@every\s+(.+)$/.exec(text);
  if (every) {
    const ms = parseDurationMs(every[1] ?? '') ?? 5 * 60_000;
    return new Date(lastRun.getTime() + Math.max(ms, MIN_TOPOLOGY_INTERVAL_MS));
  }
  try {
    return CronExpressionParser.parse(DESCRIPTORS[text] ?? text, { currentDate: lastRun })
      .next()
      .toDate();
  } catch {
    // The validator refuses such schedules; a row written around it runs on the default.
    return nextTopologyRun(DEFAULT_TOPOLOGY_SCHEDULE, lastRun, updatedAt);
  }
}
