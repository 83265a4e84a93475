import { NIL_AGENT_ID } from '@lookout/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/transaction.js';

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

/** SQL of scheduling checks and storing their results: claims, leases, `check_statuses` rows. */
export function createHealthSchedulingRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
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
  };
}
