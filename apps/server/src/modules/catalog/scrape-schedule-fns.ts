import { DEFAULT_SCRAPE_SCHEDULE, parseDurationMs } from '@lookout/contracts';
import { CronExpressionParser } from 'cron-parser';

/**
 * When a scraper is due: never run → now; `@every <duration>` → its last run plus the interval;
 * a cron expression or descriptor (`@hourly`) → the first time after its last run. The last run
 * comes from job_history, so a restart or another replica does not reset the schedule.
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

/** The shortest interval a scraper may run at: a scrape reads files and writes rows. */
export const MIN_SCRAPE_INTERVAL_MS = 10_000;

export function nextScrapeTime(schedule: string | undefined, lastRun: Date | null): Date {
  if (!lastRun) return new Date(0);
  const text = schedule?.trim() || DEFAULT_SCRAPE_SCHEDULE;
  const every = /^@every\s+(.+)$/.exec(text);
  if (every) {
    const ms = parseDurationMs(every[1] ?? '') ?? parseDurationMs(DEFAULT_SCRAPE_SCHEDULE.slice('@every '.length))!;
    return new Date(lastRun.getTime() + Math.max(ms, MIN_SCRAPE_INTERVAL_MS));
  }
  try {
    return CronExpressionParser.parse(DESCRIPTORS[text] ?? text, { currentDate: lastRun })
      .next()
      .toDate();
  } catch {
    // The spec validator refuses such schedules; a row written around it runs on the default.
    return nextScrapeTime(DEFAULT_SCRAPE_SCHEDULE, lastRun);
  }
}
