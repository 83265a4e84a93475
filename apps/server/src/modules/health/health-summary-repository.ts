import pg from 'pg';
import type { TimeSlice } from './health-rollup-fns.js';
import { withTransaction, type Queryable } from '../../db/transaction.js';
import { isoTimestampTypes } from '../../db/utc-timestamps.js';

/**
 * SQL of what the health API reads from checks and their statuses: the check summary, a check's
 * recent runs and its graph, over raw statuses and the hourly and daily buckets.
 */

/** One row of the summary, before it is shaped for the response. Times are ISO strings already. */
export type CheckSummaryRow = {
  id: string;
  canary_id: string;
  canary_name: string;
  canary_namespace: string;
  agent_id: string;
  name: string;
  namespace: string | null;
  type: string;
  status: 'healthy' | 'unhealthy' | null;
  icon: string | null;
  description: string | null;
  labels: Record<string, unknown> | null;
  severity: string | null;
  owner: string | null;
  endpoint: string | null;
  passed: string | number;
  failed: string | number;
  last_pass: string | null;
  last_fail: string | null;
  p95: number | null;
  p97: number | null;
  p99: number | null;
  /** Mean duration of the runs (ms). */
  mean: number | null;
  last_runtime: string | null;
  next_runtime: string | null;
  last_transition_time: string | null;
  silenced_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
};

/** The slices a summary reads: at most two raw, two hourly and one daily (see summarySegments). */
export type SummarySlices = { raw: TimeSlice[]; hourly: TimeSlice[]; daily: TimeSlice[] };

/** One check's uptime and latency over a graph's range. Times are ISO strings already. */
export type CheckGraphTotalsRow = {
  passed: number;
  failed: number;
  last_pass: string | null;
  last_fail: string | null;
  p95: number | null;
  p97: number | null;
  p99: number | null;
  mean: number | null;
};

/** One stored run, as the check details list it. */
export type CheckStatusRow = {
  time: string;
  status: boolean;
  invalid: boolean;
  duration: number | null;
  message: string | null;
  error: string | null;
};

/** One point of a check's graph: a run, or the runs of one window. */
export type CheckGraphPointRow = {
  time: string;
  status: boolean;
  duration: number | null;
  passed: number;
  failed: number;
};

const EMPTY_SLICE: TimeSlice = { from: new Date(0), to: new Date(0) };
const slice = (list: TimeSlice[], index: number): [Date, Date] => {
  const s = list[index] ?? EMPTY_SLICE;
  return [s.from, s.to];
};

/**
 * Per-check counts, last pass and fail, exact p95/p97/p99, and the sum and count of durations of
 * raw statuses (`s`); the caller adds the WHERE and `GROUP BY s.check_id`.
 */
export const RAW_AGGREGATE_SQL = `SELECT s.check_id,
                    count(*) FILTER (WHERE s.status) AS passed,
                    count(*) FILTER (WHERE NOT s.status) AS failed,
                    max(s.time) FILTER (WHERE s.status) AS last_pass,
                    max(s.time) FILTER (WHERE NOT s.status) AS last_fail,
                    percentile_disc(ARRAY[0.95, 0.97, 0.99]) WITHIN GROUP (ORDER BY s.duration) AS pct,
                    coalesce(sum(s.duration), 0) AS duration, count(s.duration) AS timed
             FROM check_statuses s`;

const ISO_TIMESTAMPS = isoTimestampTypes(pg.types);

/**
 * Per-check summaries read with these settings: per-check percentiles sort each check's rows
 * (give the sort memory instead of disk), and times are written in UTC and read as ISO strings
 * (isoTimestampTypes), so thousands of them are not parsed into Dates only to be printed again.
 */
const SUMMARY_SESSION_SQL = "SELECT set_config('work_mem', '64MB', true), set_config('timezone', 'UTC', true)";

/**
 * The `agg` CTE: per check, passed, failed, last pass and fail, p95/p97/p99 and the mean
 * duration over the slices (and, with `lastHourLiveFrom`, the refreshed last hour plus the raw
 * rows from that instant on).
 * Appends its parameters to `params`, which must hold the check id (or null) as $1.
 */
function sliceAggregateCte(slices: SummarySlices, lastHourLiveFrom: Date | undefined, params: unknown[]): string {
  const $ = (value: unknown) => `$${params.push(value)}`;
  const [raw1, raw2, hourly1, hourly2, daily] = [
    slice(slices.raw, 0),
    slice(slices.raw, 1),
    slice(slices.hourly, 0),
    slice(slices.hourly, 1),
    slice(slices.daily, 0),
  ];
  // The refreshed last hour and the live rows after it are added only when asked for, as SQL
  // text: a parameter that switched them off would leave the planner an OR arm it cannot serve
  // from the BRIN index on time.
  const liveRows = lastHourLiveFrom ? ` OR s.time >= ${$(lastHourLiveFrom)}` : '';
  const lastHour = lastHourLiveFrom
    ? `UNION ALL
             SELECT check_id, passed, failed, passed + failed, last_pass, last_fail, p95, p97, p99, duration, timed
             FROM check_status_summary_1h WHERE ($1::uuid IS NULL OR check_id = $1)`
    : '';
  return `raw AS (
             ${RAW_AGGREGATE_SQL}
             WHERE ((s.time >= ${$(raw1[0])} AND s.time < ${$(raw1[1])})
                    OR (s.time >= ${$(raw2[0])} AND s.time < ${$(raw2[1])})${liveRows})
               AND ($1::uuid IS NULL OR s.check_id = $1)
             GROUP BY s.check_id
           ), slices AS (
             SELECT check_id, passed, failed, passed + failed AS total, last_pass, last_fail,
                    pct[1] AS p95, pct[2] AS p97, pct[3] AS p99, duration, timed
             FROM raw
             UNION ALL
             SELECT check_id, passed, failed, total, last_pass, last_fail, p95, p97, p99, duration, total
             FROM check_statuses_1h
             WHERE created_at >= ${$(hourly1[0])} AND created_at < ${$(hourly1[1])} AND ($1::uuid IS NULL OR check_id = $1)
             UNION ALL
             SELECT check_id, passed, failed, total, last_pass, last_fail, p95, p97, p99, duration, total
             FROM check_statuses_1h
             WHERE created_at >= ${$(hourly2[0])} AND created_at < ${$(hourly2[1])} AND ($1::uuid IS NULL OR check_id = $1)
             UNION ALL
             SELECT check_id, passed, failed, total, last_pass, last_fail, p95, p97, p99, duration, total
             FROM check_statuses_1d
             WHERE created_at >= ${$(daily[0])} AND created_at < ${$(daily[1])} AND ($1::uuid IS NULL OR check_id = $1)
             ${lastHour}
           ), agg AS (
             -- Plain sums: a hash aggregate, no sort. One slice keeps its exact percentiles.
             SELECT check_id, sum(passed) AS passed, sum(failed) AS failed,
                    max(last_pass) AS last_pass, max(last_fail) AS last_fail,
                    round(sum(p95::float8 * total) / nullif(sum(total) FILTER (WHERE p95 IS NOT NULL), 0))::integer AS p95,
                    round(sum(p97::float8 * total) / nullif(sum(total) FILTER (WHERE p97 IS NOT NULL), 0))::integer AS p97,
                    round(sum(p99::float8 * total) / nullif(sum(total) FILTER (WHERE p99 IS NOT NULL), 0))::integer AS p99,
                    round(sum(duration)::float8 / nullif(sum(timed), 0))::integer AS mean
             FROM slices GROUP BY check_id
           )`;
}

/**
 * A check's graph points: raw runs in two slices, hourly buckets in two and daily ones in one
 * (bucket starts), each put in the window of $2 seconds that contains it (0: every run is its
 * own point). Buckets start on UTC hour and day boundaries and windows of an hour or more do
 * too, so a bucket falls in exactly one window.
 */
const GRAPH_POINTS_SQL = `WITH parts AS (
    SELECT CASE WHEN $2::float8 = 0 THEN s.time
                ELSE date_bin(make_interval(secs => $2::float8), s.time, timestamptz '2000-01-01 00:00:00+00') END AS time,
           count(*) FILTER (WHERE s.status) AS passed, count(*) FILTER (WHERE NOT s.status) AS failed,
           sum(s.duration) AS duration, count(s.duration) AS timed
    FROM check_statuses s
    WHERE s.check_id = $1 AND ((s.time >= $3 AND s.time < $4) OR (s.time >= $5 AND s.time < $6))
    GROUP BY 1
    UNION ALL
    SELECT date_bin(make_interval(secs => $2::float8), b.created_at, timestamptz '2000-01-01 00:00:00+00'),
           b.passed, b.failed, b.duration, b.total
    FROM check_statuses_1h b
    WHERE b.check_id = $1 AND ((b.created_at >= $7 AND b.created_at < $8) OR (b.created_at >= $9 AND b.created_at < $10))
    UNION ALL
    SELECT date_bin(make_interval(secs => $2::float8), b.created_at, timestamptz '2000-01-01 00:00:00+00'),
           b.passed, b.failed, b.duration, b.total
    FROM check_statuses_1d b
    WHERE b.check_id = $1 AND b.created_at >= $11 AND b.created_at < $12
  )
  SELECT time, sum(failed) = 0 AS status, round(sum(duration)::float8 / nullif(sum(timed), 0))::integer AS duration,
         sum(passed)::integer AS passed, sum(failed)::integer AS failed
  FROM parts GROUP BY time ORDER BY time`;

/**
 * Runs `work` in a read-only transaction on a client of its own (SET LOCAL needs one); REPEATABLE
 * READ when several statements must see one snapshot.
 */
function readOnly<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  isolation: 'READ COMMITTED' | 'REPEATABLE READ' = 'READ COMMITTED',
): Promise<T> {
  return withTransaction(pool, work, { readOnly: true, isolation });
}

/** SQL of the check summary, recent runs and graph reads. */
export function createHealthSummaryRepository(pool: pg.Pool) {
  return {
    /**
     * Every live check with its uptime and latency over the slices, status and last run read in
     * the same statement (one database snapshot, so they agree: a check whose last run passed
     * counts that run). Counts are exact. Percentiles of a range read from one slice are exact;
     * over several slices (buckets, raw slices counting as one bucket each, the refreshed last
     * hour) they are the run-weighted mean of the slices' own, as docs/health.md explains. A
     * check with no run in the range shows its latest run before `to` (as the original's aged
     * summary).
     */
    async checkSummary(
      input: {
        /** The slices to aggregate. */
        slices: SummarySlices;
        /**
         * Also the refreshed last hour (check_status_summary_1h) and every raw row from this
         * instant on (its `exactUntil`), with no upper bound.
         */
        lastHourLiveFrom?: Date | undefined;
        to: Date;
        checkId?: string | undefined;
        canaryId?: string | undefined;
      },
      tx?: Queryable,
    ): Promise<CheckSummaryRow[]> {
      const params: unknown[] = [input.checkId ?? null, input.canaryId ?? null, input.to];
      const aggregate = sliceAggregateCte(input.slices, input.lastHourLiveFrom, params);
      const run = async (client: Queryable) => {
        await client.query(SUMMARY_SESSION_SQL);
        const { rows } = await client.query<CheckSummaryRow>({
          types: ISO_TIMESTAMPS,
          text: `WITH ${aggregate}
           SELECT c.id, c.canary_id, k.name AS canary_name, k.namespace AS canary_namespace, c.agent_id,
                  c.name, c.namespace, c.type, c.status, c.icon, c.description, c.labels, c.severity,
                  c.owner, c.endpoint,
                  coalesce(a.passed, CASE WHEN l.status THEN 1 ELSE 0 END)::integer AS passed,
                  coalesce(a.failed, CASE WHEN l.status = false THEN 1 ELSE 0 END)::integer AS failed,
                  coalesce(a.last_pass, CASE WHEN l.status THEN l.time END) AS last_pass,
                  coalesce(a.last_fail, CASE WHEN l.status = false THEN l.time END) AS last_fail,
                  CASE WHEN a.check_id IS NULL THEN l.duration ELSE a.p95 END AS p95,
                  CASE WHEN a.check_id IS NULL THEN l.duration ELSE a.p97 END AS p97,
                  CASE WHEN a.check_id IS NULL THEN l.duration ELSE a.p99 END AS p99,
                  CASE WHEN a.check_id IS NULL THEN l.duration ELSE a.mean END AS mean,
                  c.last_runtime, c.next_runtime, c.last_transition_time, c.silenced_at,
                  c.created_at, c.updated_at, c.deleted_at
           FROM checks c
           JOIN canaries k ON k.id = c.canary_id
           LEFT JOIN agg a ON a.check_id = c.id
           LEFT JOIN LATERAL (
             SELECT s.status, s.duration, s.time FROM check_statuses s
             WHERE a.check_id IS NULL AND s.check_id = c.id AND s.time < $3
             ORDER BY s.time DESC LIMIT 1
           ) l ON true
           WHERE c.deleted_at IS NULL AND k.deleted_at IS NULL
             AND ($1::uuid IS NULL OR c.id = $1)
             AND ($2::uuid IS NULL OR c.canary_id = $2)
           ORDER BY k.namespace, k.name, c.type, c.name`,
          values: params,
        });
        return rows;
      };
      return tx ? run(tx) : readOnly(pool, run);
    },

    /** Runs `work` in one read-only snapshot (REPEATABLE READ): reads that must agree. */
    readSnapshot: <T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> => readOnly(pool, work, 'REPEATABLE READ'),

    /** A check's most recent runs in [from, to), newest first, at most `limit`. */
    async recentStatuses(
      input: { checkId: string; range: TimeSlice; limit: number },
      tx?: Queryable,
    ): Promise<CheckStatusRow[]> {
      const run = async (client: Queryable) => {
        await client.query(SUMMARY_SESSION_SQL);
        const { rows } = await client.query<CheckStatusRow>({
          types: ISO_TIMESTAMPS,
          text: `SELECT time, status, invalid, duration, message, error FROM check_statuses
                 WHERE check_id = $1 AND time >= $2 AND time < $3 ORDER BY time DESC LIMIT $4`,
          values: [input.checkId, input.range.from, input.range.to, input.limit],
        });
        return rows;
      };
      return tx ? run(tx) : readOnly(pool, run);
    },

    /**
     * One check's graph (`GET /api/canary/api/graph`), read in one snapshot: whether the check
     * exists, its uptime and latency over `totals` (as checkSummary computes them, without the
     * aged fallback: a range without runs has none), how many raw runs the range holds (at most
     * `maxRuns + 1` are counted), then the points `plan` asks for from those counts. Undefined
     * when no check has that id.
     */
    async checkGraph(input: {
      checkId: string;
      range: TimeSlice;
      totals: SummarySlices;
      maxRuns: number;
      plan: (counts: { rawRuns: number; totalRuns: number }) => { windowMs: number; sources: SummarySlices };
    }): Promise<
      | {
          totals: CheckGraphTotalsRow | undefined;
          windowMs: number;
          points: CheckGraphPointRow[];
        }
      | undefined
    > {
      return readOnly(
        pool,
        async (client) => {
          const exists = await client.query('SELECT 1 FROM checks WHERE id = $1', [input.checkId]);
          if (exists.rowCount === 0) return undefined;
          await client.query(SUMMARY_SESSION_SQL);
          const params: unknown[] = [input.checkId];
          const aggregate = sliceAggregateCte(input.totals, undefined, params);
          const totals = await client.query<CheckGraphTotalsRow>({
            types: ISO_TIMESTAMPS,
            text: `WITH ${aggregate}
                   SELECT passed::integer, failed::integer, last_pass, last_fail, p95, p97, p99, mean FROM agg`,
            values: params,
          });
          const raw = await client.query<{ runs: number }>(
            `SELECT count(*)::integer AS runs FROM (
               SELECT 1 FROM check_statuses WHERE check_id = $1 AND time >= $2 AND time < $3 LIMIT $4
             ) r`,
            [input.checkId, input.range.from, input.range.to, input.maxRuns + 1],
          );
          const row = totals.rows[0];
          const { windowMs, sources } = input.plan({
            rawRuns: raw.rows[0]?.runs ?? 0,
            totalRuns: row ? row.passed + row.failed : 0,
          });
          const points = await client.query<CheckGraphPointRow>({
            types: ISO_TIMESTAMPS,
            text: GRAPH_POINTS_SQL,
            values: [
              input.checkId,
              windowMs / 1000,
              ...slice(sources.raw, 0),
              ...slice(sources.raw, 1),
              ...slice(sources.hourly, 0),
              ...slice(sources.hourly, 1),
              ...slice(sources.daily, 0),
            ],
          });
          return { totals: row, windowMs, points: points.rows };
        },
        // The counts decide which points are read: all of it from one snapshot.
        'REPEATABLE READ',
      );
    },
  };
}
