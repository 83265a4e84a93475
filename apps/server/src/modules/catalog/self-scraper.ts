import {
  SELF_DATABASE_CONNECTION,
  SELF_SCRAPER_NAME,
  SELF_SCRAPER_NAMESPACE,
  SELF_SCRAPER_SOURCE,
} from '@lookout/contracts';
import type pg from 'pg';

/**
 * The `lookout-self` scraper a fresh install gets, so the catalog shows something real at once:
 * Lookout's own PostgreSQL, read-only — the database with its activity counters (which change
 * between two scrapes a minute apart, so a change appears within a minute) and the settings
 * that differ from PostgreSQL's defaults, with insight rules on two of them. Its sql entries name {@link SELF_DATABASE_CONNECTION},
 * which the engine honours only for a scraper of source 'Lookout' (see scrapers/fetchers.ts).
 */
export const SELF_SCRAPER_SPEC = {
  schedule: '@every 30s',
  retention: { changes: [{ name: 'diff', age: '7d', count: 100 }] },
  sql: [
    {
      connection: SELF_DATABASE_CONNECTION,
      type: 'PostgreSQL::Database',
      class: 'Database',
      id: '$.datname',
      name: '$.datname',
      query: `SELECT d.datname, pg_database_size(d.datname) AS size_bytes, s.numbackends AS connections,
                s.xact_commit AS transactions_committed, s.xact_rollback AS transactions_rolled_back,
                s.blks_read AS blocks_read, s.blks_hit AS blocks_hit, s.deadlocks, s.temp_files,
                current_setting('server_version') AS server_version
              FROM pg_database d JOIN pg_stat_database s ON s.datid = d.oid
              WHERE d.datname = current_database()`,
      labels: { 'app.kubernetes.io/part-of': 'lookout' },
    },
    {
      connection: SELF_DATABASE_CONNECTION,
      type: 'PostgreSQL::Setting',
      class: 'Setting',
      id: '$.name',
      name: '$.name',
      query: `SELECT name, setting, unit, category, short_desc AS description, source
              FROM pg_settings WHERE source NOT IN ('default', 'override') ORDER BY name`,
      labels: { 'app.kubernetes.io/part-of': 'lookout' },
      // Insights a new user can act on: initdb's small buffer cache, and a database without fsync.
      analysis: [
        {
          name: 'shared-buffers-initial',
          filter: "config.name == 'shared_buffers' && config.unit == '8kB' && int(config.setting) <= 16384",
          type: 'performance',
          severity: 'low',
          message:
            "shared_buffers is {{ .setting }} blocks of {{ .unit }} (at most initdb's 128 MB): a busy catalog reads from disk what a larger cache would keep; a quarter of the machine's memory is the usual start",
        },
        {
          name: 'fsync-off',
          filter: "config.name == 'fsync' && config.setting == 'off'",
          type: 'reliability',
          severity: 'critical',
          message: 'fsync is off: a crash of the machine can lose or corrupt what Lookout stored',
        },
      ],
    },
  ],
} as const;

/**
 * Creates the scraper once: on a fresh install. A scraper of that name ever written (also one the
 * user deleted or applied over) is left as it is.
 */
export async function ensureSelfScraper(pool: pg.Pool): Promise<boolean> {
  const result = await pool.query(
    `INSERT INTO config_scrapers (name, namespace, description, spec, source)
     SELECT $1, $2, $3, $4, $5
     WHERE NOT EXISTS (SELECT 1 FROM config_scrapers WHERE name = $1 AND namespace = $2)`,
    [
      SELF_SCRAPER_NAME,
      SELF_SCRAPER_NAMESPACE,
      "Lookout's own PostgreSQL: the database and its non-default settings",
      SELF_SCRAPER_SPEC,
      SELF_SCRAPER_SOURCE,
    ],
  );
  return (result.rowCount ?? 0) > 0;
}
