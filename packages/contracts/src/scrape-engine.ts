/**
 * Names, defaults and messages of the scrape engine (apps/server/src/modules/catalog; the
 * "Scrape engine" section of docs/catalog.md), shared by the server and the web.
 */

/** job_history.name of a scraper's run (resource_type 'config_scraper', resource_id its id). */
export const SCRAPE_JOB = 'ScrapeConfig';

/** Successful ScrapeConfig rows kept per scraper in job_history (failures follow the daily cleanup). */
export const SCRAPE_JOB_SUCCESSES_KEPT = 100;

/** The schedule of a scraper whose spec has none (spec 2 section 6: scraper schedule default 30m). */
export const DEFAULT_SCRAPE_SCHEDULE = '@every 30m';

/** How often the engine looks for scrapers that are due (and for new or changed ones). */
export const SCRAPE_PLAN_INTERVAL_MS = 10_000;

/** config_items.delete_reason of an item that a scrape of its scraper no longer found. */
export const DELETE_REASON_NOT_FOUND = 'NotFound';
/** config_items.delete_reason of an item removed with its scraper. */
export const DELETE_REASON_SCRAPER_DELETED = 'ScraperDeleted';

/** config_changes.source of changes computed by a scrape. */
export const DIFF_CHANGE_SOURCE = 'diff';

/** The default scraper a fresh install creates (its data directory's settings files). */
export const SELF_SCRAPER_NAME = 'lookout-self';
export const SELF_SCRAPER_NAMESPACE = 'default';
/**
 * config_scrapers.source of the default scraper: no request can write this source (the data
 * API accepts only UI, `lookout apply` UI or ConfigFile), which is what lets its sql entries
 * use {@link SELF_DATABASE_CONNECTION}.
 */
export const SELF_SCRAPER_SOURCE = 'Lookout';
/** The sql connection of the default scraper: the PostgreSQL this Lookout uses (read-only). */
export const SELF_DATABASE_CONNECTION = 'lookout://database';

/** Limits that keep one scrape bounded. */
export const SCRAPE_ENGINE_LIMITS = {
  /** Files read per `file` scraper entry. */
  filesPerScraper: 20_000,
  /** Bytes read per file. */
  fileBytes: 10 * 1024 * 1024,
  /** Items kept per scraper entry. */
  itemsPerScraper: 100_000,
  /** Bytes of an http scraper's response. */
  httpBytes: 20 * 1024 * 1024,
  /** Rows of a sql scraper's query. */
  sqlRows: 100_000,
  /** Unified diff text kept per change. */
  diffChars: 200_000,
  /** Summary text kept per change. */
  summaryChars: 1_000,
  /** Errors kept in a job's details. */
  errorsKept: 100,
} as const;

/** Counts of one scrape per config type (job_history.details.scrape_summary[type]). */
export type ScrapeTypeSummary = {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  changes: number;
  errors: number;
};

export const SCRAPE_MESSAGES = {
  unsupportedType: (type: string) => `the ${type} scraper is not supported by this build`,
} as const;
