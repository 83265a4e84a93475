import type pg from 'pg';
import { HOUR_MS, type RollupMarks, type TimeSlice } from './health-rollup-fns.js';
import { RAW_AGGREGATE_SQL } from './health-summary-repository.js';
import type { Queryable } from '../../db/transaction.js';

/**
 * SQL of `check_status_rollups`, the hourly and daily buckets, the refreshed last hour
 * (`check_status_summary_1h`) and the retention of statuses and buckets.
 */
export function createHealthRollupsRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    async rollupMarks(tx?: Queryable): Promise<RollupMarks> {
      const { rows } = await db(tx).query<{ name: string; rolled_up_to: Date; exact_until: Date | null }>(
        'SELECT name, rolled_up_to, exact_until FROM check_status_rollups',
      );
      const marks: RollupMarks = {};
      for (const row of rows) {
        if (row.name === '1h') marks.hourly = row.rolled_up_to;
        if (row.name === '1d') marks.daily = row.rolled_up_to;
        if (row.name === 'last1h' && row.exact_until) {
          marks.lastHour = { at: row.rolled_up_to, exactUntil: row.exact_until };
        }
      }
      return marks;
    },

    /**
     * Recomputes check_status_summary_1h from raw rows of [at - 1 hour, exactUntil) and records
     * `at` and `exactUntil` as its mark. Rows after exactUntil may still arrive (a run's row
     * carries its start time and is written when it ends); the summary reads those live. One
     * transaction: readers see the old or the new snapshot.
     */
    async refreshLastHourSummary(at: Date, exactUntil: Date): Promise<number> {
      const hourAgo = new Date(at.getTime() - HOUR_MS);
      const until = new Date(Math.min(at.getTime(), Math.max(exactUntil.getTime(), hourAgo.getTime())));
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query("SET LOCAL work_mem = '64MB'");
        await client.query('DELETE FROM check_status_summary_1h');
        const inserted = await client.query(
          `INSERT INTO check_status_summary_1h (check_id, passed, failed, last_pass, last_fail, p95, p97, p99, duration, timed)
           SELECT check_id, passed, failed, last_pass, last_fail, pct[1], pct[2], pct[3], duration, timed FROM (
             ${RAW_AGGREGATE_SQL}
             WHERE s.time >= $1 AND s.time < $2
             GROUP BY s.check_id
           ) raw
           WHERE EXISTS (SELECT 1 FROM checks c WHERE c.id = raw.check_id)`,
          [hourAgo, until],
        );
        await client.query(
          `INSERT INTO check_status_rollups (name, rolled_up_to, exact_until, updated_at) VALUES ('last1h', $1, $2, now())
           ON CONFLICT (name) DO UPDATE SET rolled_up_to = EXCLUDED.rolled_up_to, exact_until = EXCLUDED.exact_until,
                                            updated_at = now()`,
          [at, until],
        );
        await client.query('COMMIT');
        return inserted.rowCount ?? 0;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },

    /** Rebuilds the hourly buckets from raw rows in [from, to) (bucket-aligned `from`). */
    async rollupHourly(window: TimeSlice, tx?: Queryable): Promise<number> {
      const result = await db(tx).query(
        `INSERT INTO check_statuses_1h AS b
           (check_id, created_at, duration, total, passed, failed, p95, p97, p99, last_pass, last_fail)
         SELECT check_id, bucket, coalesce(duration, 0), total, passed, failed, pct[1], pct[2], pct[3],
                last_pass, last_fail
         FROM (
           SELECT check_id, date_bin('1 hour', time, timestamptz '2000-01-01 00:00:00+00') AS bucket,
                  sum(duration) AS duration, count(*) AS total,
                  count(*) FILTER (WHERE status) AS passed, count(*) FILTER (WHERE NOT status) AS failed,
                  percentile_disc(ARRAY[0.95, 0.97, 0.99]) WITHIN GROUP (ORDER BY duration) AS pct,
                  max(time) FILTER (WHERE status) AS last_pass, max(time) FILTER (WHERE NOT status) AS last_fail
           FROM check_statuses WHERE time >= $1 AND time < $2
           GROUP BY check_id, bucket
         ) g
         ON CONFLICT (check_id, created_at) DO UPDATE SET
           duration = EXCLUDED.duration, total = EXCLUDED.total, passed = EXCLUDED.passed,
           failed = EXCLUDED.failed, p95 = EXCLUDED.p95, p97 = EXCLUDED.p97, p99 = EXCLUDED.p99,
           last_pass = EXCLUDED.last_pass, last_fail = EXCLUDED.last_fail`,
        [window.from, window.to],
      );
      return result.rowCount ?? 0;
    },

    /**
     * Rebuilds the daily buckets from the hourly buckets that start in [from, to) (day-aligned
     * `from`). Counts and last times are exact; a day's percentiles are the run-weighted mean of
     * its hours' own.
     */
    async rollupDaily(window: TimeSlice, tx?: Queryable): Promise<number> {
      const result = await db(tx).query(
        `INSERT INTO check_statuses_1d AS b
           (check_id, created_at, duration, total, passed, failed, p95, p97, p99, last_pass, last_fail)
         SELECT check_id, date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00'),
                sum(duration), sum(total), sum(passed), sum(failed),
                round(sum(p95::float8 * total) / nullif(sum(total) FILTER (WHERE p95 IS NOT NULL), 0))::integer,
                round(sum(p97::float8 * total) / nullif(sum(total) FILTER (WHERE p97 IS NOT NULL), 0))::integer,
                round(sum(p99::float8 * total) / nullif(sum(total) FILTER (WHERE p99 IS NOT NULL), 0))::integer,
                max(last_pass), max(last_fail)
         FROM check_statuses_1h WHERE created_at >= $1 AND created_at < $2
         GROUP BY 1, 2
         ON CONFLICT (check_id, created_at) DO UPDATE SET
           duration = EXCLUDED.duration, total = EXCLUDED.total, passed = EXCLUDED.passed,
           failed = EXCLUDED.failed, p95 = EXCLUDED.p95, p97 = EXCLUDED.p97, p99 = EXCLUDED.p99,
           last_pass = EXCLUDED.last_pass, last_fail = EXCLUDED.last_fail`,
        [window.from, window.to],
      );
      return result.rowCount ?? 0;
    },

    async setRollupMark(name: '1h' | '1d', mark: Date, tx?: Queryable): Promise<void> {
      await db(tx).query(
        `INSERT INTO check_status_rollups (name, rolled_up_to, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO UPDATE SET rolled_up_to = EXCLUDED.rolled_up_to, updated_at = now()`,
        [name, mark],
      );
    },

    /** Deletes rows of `table` older than `cutoff`, a batch at a time; returns how many. */
    async deleteOlderThan(
      table: 'check_statuses' | 'check_statuses_1h' | 'check_statuses_1d',
      cutoff: Date,
      batchSize: number,
    ): Promise<number> {
      const column = table === 'check_statuses' ? 'time' : 'created_at';
      let total = 0;
      // Short statements: a month of statuses is millions of rows, and one huge DELETE would
      // hold its locks and bloat the WAL at once.
      for (;;) {
        const result = await pool.query(
          `DELETE FROM ${table} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${table} WHERE ${column} < $1 LIMIT $2))`,
          [cutoff, batchSize],
        );
        const deleted = result.rowCount ?? 0;
        total += deleted;
        if (deleted < batchSize) return total;
      }
    },
  };
}
