import { NIL_AGENT_ID } from '@lookout/contracts';
import pg from 'pg';
import { HOUR_MS, type RollupMarks, type TimeSlice } from './health-rollup-fns.js';
import { withTransaction, type Queryable } from '../../db/transaction.js';
import { isoTimestampTypes } from '../../db/utc-timestamps.js';

/** SQL of the health module. Every method takes an optional transaction client. */

export type { Queryable };

/** The canary of a check to run: the self canary's checks are run against the replica running them. */
export type CanaryOfCheck = { namespace: string; name: string; source: string };

/** What a check's metrics are labelled with besides its id, type, name and canary. */
export type CheckMetricLabels = { endpoint: string | null; owner: string | null; severity: string | null };

/** A check the scheduler claimed: what it needs to run it and to schedule the next run. */
export type ClaimedCheck = CheckMetricLabels & {
  id: string;
  canaryId: string;
  canary: CanaryOfCheck;
  type: string;
  name: string;
  spec: unknown;
  schedule: string | null;
  /** When it was due; the run's lag is measured from here. */
  dueAt: Date;
};

/** A check loaded to run it now. */
export type CheckToRun = CheckMetricLabels & {
  id: string;
  canaryId: string;
  canary: CanaryOfCheck;
  type: string;
  name: string;
  spec: unknown;
  deleted: boolean;
};

/** One result to store: a `check_statuses` row plus what it changes on the check. */
export type CheckResultRow = {
  checkId: string;
  time: Date;
  status: boolean;
  invalid: boolean;
  durationMs: number;
  message: string;
  error: string | null;
  details: unknown;
  /** The next due time; undefined for runs outside the schedule (Run Now), which keep it. */
  nextRuntime?: Date;
};

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

export type CanaryRow = {
  id: string;
  name: string;
  namespace: string;
  source: string;
  spec: unknown;
  labels: Record<string, string> | null;
  annotations: Record<string, string> | null;
  deleted_at: Date | null;
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
const RAW_AGGREGATE_SQL = `SELECT s.check_id,
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

export type HealthRepository = ReturnType<typeof createHealthRepository>;

export function createHealthRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /** Runs `work` in one transaction; rolls back when it throws. */
    transaction: <T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> => withTransaction(pool, work),

    // ------------------------------------------------------------------ summary

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

    // ------------------------------------------------------------------ scheduling

    /**
     * Claims up to `limit` due local checks for `workerId`, oldest due first. SKIP LOCKED lets
     * every replica claim at once without waiting or taking the same row; the lease moves
     * next_runtime to its end, so a check whose worker died is due again when it expires.
     */
    async claimDueChecks(
      input: { workerId: string; limit: number; leaseMs: number },
      tx?: Queryable,
    ): Promise<ClaimedCheck[]> {
      const { rows } = await db(tx).query<{
        id: string;
        canary_id: string;
        canary_namespace: string;
        canary_name: string;
        canary_source: string;
        type: string;
        name: string;
        spec: unknown;
        schedule: string | null;
        due_at: Date;
        endpoint: string | null;
        owner: string | null;
        severity: string | null;
      }>(
        `WITH due AS (
           SELECT id, next_runtime FROM checks
           WHERE next_runtime <= now() AND deleted_at IS NULL AND agent_id = $4
           ORDER BY next_runtime
           LIMIT $2
           FOR UPDATE SKIP LOCKED
         )
         UPDATE checks c
         SET claimed_by = $1,
             claimed_until = now() + make_interval(secs => $3::double precision / 1000),
             next_runtime = now() + make_interval(secs => $3::double precision / 1000)
         FROM due, canaries k
         WHERE c.id = due.id AND k.id = c.canary_id
         RETURNING c.id, c.canary_id, k.namespace AS canary_namespace, k.name AS canary_name,
                   k.source AS canary_source, c.type, c.name, c.spec, c.schedule, due.next_runtime AS due_at,
                   c.endpoint, c.owner, c.severity`,
        [input.workerId, input.limit, input.leaseMs, NIL_AGENT_ID],
      );
      return rows.map((row) => ({
        id: row.id,
        canaryId: row.canary_id,
        canary: { namespace: row.canary_namespace, name: row.canary_name, source: row.canary_source },
        type: row.type,
        name: row.name,
        spec: row.spec,
        schedule: row.schedule,
        dueAt: row.due_at,
        endpoint: row.endpoint,
        owner: row.owner,
        severity: row.severity,
      }));
    },

    /** The earliest due time of any local live check, or null when none is scheduled. */
    async nextDueTime(tx?: Queryable): Promise<Date | null> {
      const { rows } = await db(tx).query<{ next: Date | null }>(
        `SELECT min(next_runtime) AS next FROM checks
         WHERE next_runtime IS NOT NULL AND deleted_at IS NULL AND agent_id = $1`,
        [NIL_AGENT_ID],
      );
      return rows[0]?.next ?? null;
    },

    /**
     * Stores results in two statements for the whole batch: the `check_statuses` rows and the
     * checks' status, last run and (for scheduled runs by `workerId` that still hold their
     * lease) next run. A status change stamps last_transition_time (trigger). A check deleted
     * meanwhile is skipped.
     */
    async recordResults(results: CheckResultRow[], workerId: string | null, tx?: Queryable): Promise<void> {
      if (results.length === 0) return;
      const params = [
        results.map((r) => r.checkId),
        results.map((r) => r.time),
        results.map((r) => r.status),
        results.map((r) => r.invalid),
        results.map((r) => Math.max(0, Math.round(r.durationMs))),
        results.map((r) => r.message),
        results.map((r) => r.error),
        results.map((r) => (r.details === undefined ? null : JSON.stringify(r.details))),
        results.map((r) => r.nextRuntime ?? null),
        workerId,
      ];
      await db(tx).query(
        `WITH r AS (
           SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::boolean[], $4::boolean[], $5::integer[],
                                $6::text[], $7::text[], $8::text[], $9::timestamptz[])
             AS r(check_id, time, status, invalid, duration, message, error, details, next_runtime)
           WHERE EXISTS (SELECT 1 FROM checks c WHERE c.id = r.check_id)
         ), stored AS (
           INSERT INTO check_statuses (check_id, time, status, invalid, duration, message, error, details)
           SELECT check_id, time, status, invalid, duration, message, error, details::jsonb FROM r
           ON CONFLICT (check_id, time) DO NOTHING
         )
         UPDATE checks c SET
           status = CASE WHEN c.last_runtime IS NULL OR r.time >= c.last_runtime
                         THEN CASE WHEN r.status THEN 'healthy' ELSE 'unhealthy' END ELSE c.status END,
           last_runtime = greatest(c.last_runtime, r.time),
           next_runtime = CASE WHEN r.next_runtime IS NOT NULL AND c.claimed_by = $10 AND c.deleted_at IS NULL
                               THEN r.next_runtime ELSE c.next_runtime END,
           claimed_by = CASE WHEN r.next_runtime IS NOT NULL AND c.claimed_by = $10 THEN NULL ELSE c.claimed_by END,
           claimed_until = CASE WHEN r.next_runtime IS NOT NULL AND c.claimed_by = $10 THEN NULL ELSE c.claimed_until END
         FROM r
         WHERE c.id = r.check_id`,
        params,
      );
    },

    /** Gives claimed checks back (shutdown): due now, for any replica. */
    async releaseClaims(checkIds: string[], workerId: string, tx?: Queryable): Promise<void> {
      if (checkIds.length === 0) return;
      await db(tx).query(
        `UPDATE checks SET next_runtime = now(), claimed_by = NULL, claimed_until = NULL
         WHERE id = ANY ($1::uuid[]) AND claimed_by = $2 AND deleted_at IS NULL`,
        [checkIds, workerId],
      );
    },

    async checkToRun(id: string, tx?: Queryable): Promise<CheckToRun | undefined> {
      const { rows } = await db(tx).query<{
        id: string;
        canary_id: string;
        canary_namespace: string;
        canary_name: string;
        canary_source: string;
        type: string;
        name: string;
        spec: unknown;
        deleted: boolean;
        endpoint: string | null;
        owner: string | null;
        severity: string | null;
      }>(
        `SELECT c.id, c.canary_id, k.namespace AS canary_namespace, k.name AS canary_name,
                k.source AS canary_source, c.type, c.name, c.spec, c.endpoint, c.owner, c.severity,
                (c.deleted_at IS NOT NULL OR k.deleted_at IS NOT NULL) AS deleted
         FROM checks c JOIN canaries k ON k.id = c.canary_id WHERE c.id = $1`,
        [id],
      );
      const row = rows[0];
      return row
        ? {
            id: row.id,
            canaryId: row.canary_id,
            canary: { namespace: row.canary_namespace, name: row.canary_name, source: row.canary_source },
            type: row.type,
            name: row.name,
            spec: row.spec,
            deleted: row.deleted,
            endpoint: row.endpoint,
            owner: row.owner,
            severity: row.severity,
          }
        : undefined;
    },

    // ------------------------------------------------------------------ canaries

    /** Live local canaries called `namespace/name`, from any source. */
    async liveCanaries(name: string, namespace: string, tx?: Queryable): Promise<CanaryRow[]> {
      const { rows } = await db(tx).query<CanaryRow>(
        `SELECT id, name, namespace, source, spec, labels, annotations, deleted_at FROM canaries
         WHERE agent_id = $1 AND name = $2 AND namespace = $3 AND deleted_at IS NULL
         ORDER BY created_at`,
        [NIL_AGENT_ID, name, namespace],
      );
      return rows;
    },

    /** Inserts a canary; the derivation trigger creates its checks in the same statement. */
    async insertCanary(
      canary: {
        name: string;
        namespace: string;
        labels: Record<string, string> | null;
        annotations: Record<string, string> | null;
        spec: unknown;
        source: string;
        createdBy: string | null;
      },
      tx?: Queryable,
    ): Promise<string> {
      const { rows } = await db(tx).query<{ id: string }>(
        `INSERT INTO canaries (agent_id, name, namespace, labels, annotations, spec, source, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [
          NIL_AGENT_ID,
          canary.name,
          canary.namespace,
          canary.labels === null ? null : JSON.stringify(canary.labels),
          canary.annotations === null ? null : JSON.stringify(canary.annotations),
          JSON.stringify(canary.spec),
          canary.source,
          canary.createdBy,
        ],
      );
      return (rows[0] as { id: string }).id;
    },

    /** Updates a canary's document parts; the trigger re-derives its checks when they changed. */
    async updateCanary(
      id: string,
      canary: { labels: Record<string, string> | null; annotations: Record<string, string> | null; spec: unknown },
      tx?: Queryable,
    ): Promise<void> {
      await db(tx).query(
        `UPDATE canaries SET labels = $2, annotations = $3, spec = $4
         WHERE id = $1 AND (labels IS DISTINCT FROM $2::jsonb OR annotations IS DISTINCT FROM $3::jsonb
                            OR spec IS DISTINCT FROM $4::jsonb)`,
        [
          id,
          canary.labels === null ? null : JSON.stringify(canary.labels),
          canary.annotations === null ? null : JSON.stringify(canary.annotations),
          JSON.stringify(canary.spec),
        ],
      );
    },

    async softDeleteCanary(id: string, tx?: Queryable): Promise<void> {
      await db(tx).query('UPDATE canaries SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
    },

    async liveChecksOf(canaryId: string, tx?: Queryable): Promise<{ id: string; type: string; name: string }[]> {
      const { rows } = await db(tx).query<{ id: string; type: string; name: string }>(
        `SELECT id, type, name FROM checks WHERE canary_id = $1 AND deleted_at IS NULL ORDER BY type, name`,
        [canaryId],
      );
      return rows;
    },

    // ------------------------------------------------------------------ roll-ups and retention

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
