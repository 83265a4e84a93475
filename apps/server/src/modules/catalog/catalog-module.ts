import {
  CATALOG_API_BASE,
  CATALOG_SUMMARY_REFRESH_JOB,
  CATALOG_SUMMARY_REFRESH_MS,
  SCRAPE_CONFIG_KIND,
} from '@lookout/contracts';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AllowedRoots } from '../../files/allowed-roots.js';
import type { Jobs } from '../../jobs/jobs.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { noWorkers, type ServeContext, type ServerModule } from '../../http/server-module.js';
import type { DocumentApplierFactory } from '../../cli/document-applier.js';
import { scrapeConfigApplier, scrapeConfigApplierWithin } from './catalog-cli.js';
import { guardCatalogWrites } from './catalog-data-api-guard.js';
import { createCatalogRepository, type CatalogRepository } from './catalog-repository.js';
import { createCatalogScraping, type CatalogScraping } from './catalog-scraping.js';
import { DEFAULT_SCRAPE_ROOTS } from './scrapers/scrape-file-roots.js';
import type { ScrapeConnectionResolver } from './scrapers/scraper-connections.js';
import { ensureSelfScraper } from './self-scraper.js';
import { createCatalogSummaryRepository } from './catalog-summary-repository.js';
import { catalogSummaryRoutes } from './catalog-summary-routes.js';

export type CatalogModuleDeps = {
  pool: pg.Pool;
  logger: Logger;
  jobs: Pick<Jobs, 'schedule' | 'run'>;
  /** How often the per-item summaries are refreshed (tests shorten it). */
  summaryRefreshMs?: number;
  /** How often the scrape engine looks for due scrapers (tests shorten it). */
  scrapePlanIntervalMs?: number;
  /** The connections module's `resolve`: sql and http scrapers that name a connection. */
  resolveConnection?: ScrapeConnectionResolver;
  /** lookout serve's configuration: its database is what the lookout-self scraper reads. */
  serve?: ServeContext;
  /** Where exec scrapers' scripts run (the health module's sandbox, ADR 0010); without it they are refused. */
  sandbox?: Sandbox;
  /** LOOKOUT_SCRAPE_FILE_ROOTS: the only host directories file scrapers may read (default /etc/lookout/catalog). */
  fileRoots?: AllowedRoots;
};

export type CatalogModule = ServerModule<{
  /** Validates config_scrapers writes through /api/db (app.ts hands it to the data API). */
  guardDataApiWrites: ReturnType<typeof guardCatalogWrites>;
  /** Refreshes config_item_summary_3d/7d/30d now (after a scrape, in tests). */
  refreshSummaries: CatalogRepository['refreshSummaries'];
  /** The scrape engine: run one scraper now (a job), or every due one. */
  scraping: Pick<CatalogScraping, 'runNow' | 'runDue'>;
  /** The ScrapeConfig applier for the kubectl API: like `lookout apply -f`, refusing paths outside the roots. */
  appliers: Readonly<Record<string, DocumentApplierFactory>>;
}>;

/** What `lookout apply -f` uses for ScrapeConfig documents (cli.ts passes it to the command). */
export const catalogCli = { appliers: { [SCRAPE_CONFIG_KIND]: scrapeConfigApplier } };

/**
 * The catalog (issue 13; docs/catalog.md): its tables and views are read through /api/db
 * (18_catalog.sql); this module validates scraper documents written there and keeps the
 * per-item change and insight counts (materialized) fresh with a scheduled job.
 */
export function createCatalogModule(deps: CatalogModuleDeps): CatalogModule {
  // Checked when a scraper is saved (the data API guard) and again when it runs (the fetchers).
  const fileRoots = deps.fileRoots ?? DEFAULT_SCRAPE_ROOTS;
  const repository = createCatalogRepository(deps.pool);
  const everyMs = deps.summaryRefreshMs ?? CATALOG_SUMMARY_REFRESH_MS;
  // One replica refreshes per period (the job's lock and minimum gap); keep a day of successes.
  const refresh = () =>
    deps.jobs.run(
      CATALOG_SUMMARY_REFRESH_JOB,
      async () => ({ successCount: 1, details: { items: await repository.refreshSummaries() } }),
      { minGapMs: everyMs, keepSuccesses: 288 },
    );
  deps.jobs.schedule(CATALOG_SUMMARY_REFRESH_JOB, { everyMs, firstAfterMs: 5_000 }, refresh);
  // Each live scraper runs as a ScrapeConfig job on its schedule (catalog-scraping.ts).
  const scraping = createCatalogScraping({
    pool: deps.pool,
    logger: deps.logger,
    jobs: deps.jobs,
    ...(deps.scrapePlanIntervalMs !== undefined ? { planIntervalMs: deps.scrapePlanIntervalMs } : {}),
    ...(deps.resolveConnection ? { resolveConnection: deps.resolveConnection } : {}),
    ...(deps.serve ? { selfDatabaseUrl: deps.serve.databaseUrl } : {}),
    ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
    fileRoots,
  });
  return {
    services: {
      guardDataApiWrites: guardCatalogWrites(fileRoots),
      refreshSummaries: () => repository.refreshSummaries(),
      scraping: { runNow: scraping.runNow, runDue: scraping.runDue },
      appliers: { [SCRAPE_CONFIG_KIND]: scrapeConfigApplierWithin(fileRoots) },
    },
    // POST /api/catalog/summary and /api/catalog/changes (the list pages' own calls).
    async routes(app) {
      await app.register(catalogSummaryRoutes, {
        prefix: CATALOG_API_BASE,
        repository: createCatalogSummaryRepository(deps.pool),
      });
    },
    // A fresh install gets the lookout-self scraper (self-scraper.ts), run by the engine at once.
    async bootstrap() {
      if (deps.serve && (await ensureSelfScraper(deps.pool))) deps.logger.info('Created the lookout-self scraper');
    },
    ...noWorkers,
  };
}
