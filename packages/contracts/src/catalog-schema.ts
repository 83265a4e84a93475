/**
 * Names and constants of the catalog's database layer (18_catalog.sql; docs/catalog.md) shared
 * by the server (the summary job, the scrape engine) and the web.
 */

/** The job that refreshes config_item_summary_3d/7d/30d (per-item change and insight counts). */
export const CATALOG_SUMMARY_REFRESH_JOB = 'CatalogSummaryRefresh';
/** How often it runs: the catalog list's counts are at most this old. */
export const CATALOG_SUMMARY_REFRESH_MS = 5 * 60_000;

/** job_history.resource_type of a scraper's runs (config_scrapers_with_status reads it). */
export const SCRAPER_JOB_RESOURCE_TYPE = 'config_scraper';

/** config_changes.change_type of a change a scrape computed by diffing an item's versions. */
export const DIFF_CHANGE_TYPE = 'diff';

/** Two changes of one item with the same fingerprint this close are one change counted twice. */
export const CHANGE_DEDUP_WINDOW_MS = 60 * 60_000;

/** config_analysis.analysis_type values (spec 3 section 3). */
export const ANALYSIS_TYPES = [
  'cost',
  'availability',
  'performance',
  'security',
  'integration',
  'compliance',
  'technical_debt',
  'reliability',
  'recommendation',
  'other',
] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];

/** config_analysis.severity values (spec 3 section 3). */
export const ANALYSIS_SEVERITIES = ['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical'] as const;
export type AnalysisSeverity = (typeof ANALYSIS_SEVERITIES)[number];

/** config_analysis.status values. */
export const ANALYSIS_STATUSES = ['open', 'resolved', 'silenced'] as const;

/** config_items.health values. */
export const CONFIG_HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export type ConfigHealth = (typeof CONFIG_HEALTHS)[number];

/** Sources a scraper can be applied with (`lookout apply -f --source`, the console). */
export const SCRAPER_APPLY_SOURCES = ['UI', 'ConfigFile'] as const;
export type ScraperApplySource = (typeof SCRAPER_APPLY_SOURCES)[number];
