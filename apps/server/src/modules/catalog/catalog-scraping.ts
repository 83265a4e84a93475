import type pg from 'pg';
import type { Logger } from 'pino';
import type { AllowedRoots } from '../../files/allowed-roots.js';
import type { Jobs } from '../../jobs/jobs.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { createScrapeEngine, type ScrapeFetchers } from './scrape-engine.js';
import { createScrapeExtrasRepository } from './scrape-extras-repository.js';
import { createScrapeRepository } from './scrape-repository.js';
import { createScrapeScheduler } from './scrape-scheduler.js';
import { scrapeFetchers } from './scrapers/fetchers.js';
import type { ScrapeConnectionResolver } from './scrapers/scraper-connections.js';

/**
 * The scrape engine as the catalog module builds it: the repository, the engine with the
 * fetchers of the scraper types this build runs, and the scheduler that runs each live scraper
 * as a job on its schedule.
 */
export function createCatalogScraping(deps: {
  pool: pg.Pool;
  logger: Logger;
  jobs: Pick<Jobs, 'schedule' | 'run'>;
  planIntervalMs?: number;
  /** The connections module's `resolve` (sql and http scrapers that name a connection). */
  resolveConnection?: ScrapeConnectionResolver;
  /** The PostgreSQL this Lookout uses (the lookout-self scraper reads it). */
  selfDatabaseUrl?: string;
  /** Where exec scrapers' scripts run (ADR 0010); without it they are refused. */
  sandbox?: Sandbox;
  /** Where the file scraper keeps git checkouts (default: a folder in the system's temp). */
  gitCacheDir?: string;
  /** LOOKOUT_SCRAPE_FILE_ROOTS: the host directories file scrapers may read (default /etc/lookout/catalog). */
  fileRoots?: AllowedRoots;
  fetchers?: ScrapeFetchers;
}) {
  const repository = createScrapeRepository(deps.pool);
  const engine = createScrapeEngine({
    repository,
    extras: createScrapeExtrasRepository(deps.pool),
    fetchers:
      deps.fetchers ??
      scrapeFetchers({
        ...(deps.resolveConnection ? { resolveConnection: deps.resolveConnection } : {}),
        ...(deps.selfDatabaseUrl ? { selfDatabaseUrl: deps.selfDatabaseUrl } : {}),
        ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
        ...(deps.gitCacheDir ? { gitCacheDir: deps.gitCacheDir } : {}),
        ...(deps.fileRoots ? { fileRoots: deps.fileRoots } : {}),
      }),
  });
  const scheduler = createScrapeScheduler({
    jobs: deps.jobs,
    repository,
    engine,
    logger: deps.logger,
    ...(deps.planIntervalMs !== undefined ? { planIntervalMs: deps.planIntervalMs } : {}),
  });
  return { runNow: scheduler.runNow, runDue: scheduler.runDue, planSoon: scheduler.planSoon };
}

export type CatalogScraping = ReturnType<typeof createCatalogScraping>;
