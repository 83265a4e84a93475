import {
  SCRAPE_JOB,
  SCRAPE_JOB_SUCCESSES_KEPT,
  SCRAPE_PLAN_INTERVAL_MS,
  SCRAPER_JOB_RESOURCE_TYPE,
} from '@lookout/contracts';
import type { Logger } from 'pino';
import type { JobRun, Jobs } from '../../jobs/jobs.js';
import { InvalidScraperSpecError, type ScrapeEngine } from './scrape-engine.js';
import type { LiveScraper, ScrapeRepository } from './scrape-repository.js';
import { nextScrapeTime } from './scrape-schedule-fns.js';

/**
 * Runs each live scraper on its schedule as a `ScrapeConfig` job (resource_type 'config_scraper',
 * resource_id its id; details.scrape_summary and details.errors). One planner task of the jobs
 * module wakes every few seconds, reads config_scrapers (so new, changed and deleted scrapers
 * are planned again without a notification) and runs the due ones one after another.
 */
export function createScrapeScheduler(deps: {
  jobs: Pick<Jobs, 'run' | 'schedule'>;
  repository: Pick<ScrapeRepository, 'liveScrapers' | 'scraper'>;
  engine: ScrapeEngine;
  logger: Pick<Logger, 'warn'>;
  planIntervalMs?: number;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  /** Runs one scraper now as a job (its job_history row holds the summary or the error). */
  function runScraper(scraper: LiveScraper): Promise<JobRun> {
    return deps.jobs.run(
      SCRAPE_JOB,
      async () => {
        try {
          const result = await deps.engine.run(scraper);
          const successCount = Object.values(result.summary).reduce(
            (sum, counts) => sum + counts.added + counts.updated + counts.unchanged,
            0,
          );
          return {
            successCount,
            errorCount: result.errors.length,
            details: {
              scrape_summary: result.summary,
              // Only when the run reported changes, found relationships or ran insight rules.
              ...(result.extras && Object.values(result.extras).some((count) => count > 0)
                ? {
                    summary: {
                      reported_changes: result.extras.externalChanges,
                      relationships: result.extras.relationships,
                      relationships_ended: result.extras.relationshipsEnded,
                      insights_opened: result.extras.insightsOpened,
                      insights_resolved: result.extras.insightsResolved,
                    },
                  }
                : {}),
              // Said plainly besides the error: these types were not scraped at all.
              ...(result.unsupportedTypes.length > 0 ? { not_supported: result.unsupportedTypes } : {}),
              ...(result.errors.length > 0 ? { errors: result.errors } : {}),
            },
          };
        } catch (error) {
          if (error instanceof InvalidScraperSpecError) {
            return { successCount: 0, errorCount: 1, details: { errors: [error.message] } };
          }
          throw error;
        }
      },
      // A scraper every minute would leave 1,440 rows a day: keep its newest successes (failures stay).
      { resource: { type: SCRAPER_JOB_RESOURCE_TYPE, id: scraper.id }, keepSuccesses: SCRAPE_JOB_SUCCESSES_KEPT },
    );
  }

  /** Every due scraper, one after another. */
  async function runDue(): Promise<number> {
    let ran = 0;
    for (const scraper of await deps.repository.liveScrapers()) {
      const spec = scraper.spec as { schedule?: unknown } | null;
      const schedule = typeof spec?.schedule === 'string' ? spec.schedule : undefined;
      if (nextScrapeTime(schedule, scraper.lastRun) > now()) continue;
      const run = await runScraper(scraper);
      if (run.ran) ran += 1;
    }
    return ran;
  }

  const task = deps.jobs.schedule(
    'ScrapeConfigPlanner',
    { everyMs: deps.planIntervalMs ?? SCRAPE_PLAN_INTERVAL_MS, firstAfterMs: 2_000 },
    () => runDue().catch((error: unknown) => deps.logger.warn({ err: error }, 'Scrapers could not be planned')),
  );

  return {
    runDue,
    /** Runs one scraper by id now; undefined when there is no live scraper with that id. */
    async runNow(id: string): Promise<JobRun | undefined> {
      const scraper = await deps.repository.scraper(id);
      return scraper ? runScraper(scraper) : undefined;
    },
    /** Looks for due scrapers soon (after a scraper was written). */
    planSoon: () => task.runSoon(),
  };
}

export type ScrapeScheduler = ReturnType<typeof createScrapeScheduler>;
