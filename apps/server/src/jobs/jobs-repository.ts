import type pg from 'pg';
import type { Queryable } from '../db/transaction.js';

/** A job_history row's status (spec 2 section 7.6). */
export type JobStatus = 'RUNNING' | 'SUCCESS' | 'WARNING' | 'FAILED' | 'STALE' | 'SKIPPED';

/**
 * The first key of every job's advisory lock; the second is hashtext(job name). A space of its
 * own keeps job locks apart from the transaction locks other modules take on hashtext(...).
 */
export const JOB_LOCK_SPACE = 0x4c4b;

/** A run that is over, as a queue worker records it in one row. */
export type FinishedRun = {
  name: string;
  status: Exclude<JobStatus, 'RUNNING' | 'STALE'>;
  successCount: number;
  errorCount: number;
  details: Record<string, unknown>;
  startedAt: Date;
};

export type JobsRepository = ReturnType<typeof createJobsRepository>;

/** SQL of the jobs module: `job_history` rows and the one advisory-lock runner of singleton jobs. */
export function createJobsRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /** A RUNNING row for a run that starts now; `finishJob` completes it. */
    async startJob(
      job: { name: string; hostname: string; resourceType?: string; resourceId?: string },
      tx?: Queryable,
    ): Promise<string> {
      const { rows } = await db(tx).query<{ id: string }>(
        `INSERT INTO job_history (name, hostname, resource_type, resource_id, status, time_start)
         VALUES ($1, $2, $3, $4, 'RUNNING', now()) RETURNING id`,
        [job.name, job.hostname, job.resourceType ?? null, job.resourceId ?? null],
      );
      return (rows[0] as { id: string }).id;
    },

    async finishJob(
      id: string,
      outcome: { status: JobStatus; successCount: number; errorCount: number; details: unknown },
      tx?: Queryable,
    ): Promise<void> {
      await db(tx).query(
        `UPDATE job_history SET status = $2, success_count = $3, error_count = $4, details = $5,
                time_end = clock_timestamp(),
                duration_millis = round(extract(epoch FROM clock_timestamp() - time_start) * 1000)::integer
         WHERE id = $1`,
        [id, outcome.status, outcome.successCount, outcome.errorCount, JSON.stringify(outcome.details)],
      );
    },

    /** One finished run in one row (a queue worker's pass, written once it is over). */
    async recordJob(
      job: FinishedRun & { hostname: string; resourceType?: string; resourceId?: string },
      tx?: Queryable,
    ): Promise<void> {
      await db(tx).query(
        `INSERT INTO job_history (name, hostname, status, success_count, error_count, details, time_start, time_end,
                                  duration_millis, resource_type, resource_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp(),
                 greatest(round(extract(epoch FROM clock_timestamp() - $7::timestamptz) * 1000), 0)::integer, $8, $9)`,
        [
          job.name,
          job.hostname,
          job.status,
          job.successCount,
          job.errorCount,
          JSON.stringify(job.details),
          job.startedAt,
          job.resourceType ?? null,
          job.resourceId ?? null,
        ],
      );
    },

    /**
     * Keeps the newest `keep` SUCCESS rows of a frequent job (the original's RetentionFew), per
     * resource when the runs are about one (`resourceId`).
     */
    async pruneJobHistory(name: string, keep: number, tx?: Queryable, resourceId?: string): Promise<void> {
      await db(tx).query(
        `DELETE FROM job_history WHERE name = $1 AND status = 'SUCCESS'
           AND resource_id IS NOT DISTINCT FROM $3 AND id NOT IN (
           SELECT id FROM job_history WHERE name = $1 AND status = 'SUCCESS' AND resource_id IS NOT DISTINCT FROM $3
           ORDER BY created_at DESC LIMIT $2)`,
        [name, keep, resourceId ?? null],
      );
    },

    /** When the job last finished successfully (any replica), to skip a run another just did. */
    async lastSuccess(name: string, tx?: Queryable): Promise<Date | null> {
      const { rows } = await db(tx).query<{ at: Date | null }>(
        `SELECT max(time_end) AS at FROM job_history WHERE name = $1 AND status = 'SUCCESS'`,
        [name],
      );
      return rows[0]?.at ?? null;
    },

    /**
     * Job history housekeeping (backend-model section 2.7): rows written before `deleteBefore`
     * go, `batch` at a time so no statement holds many row locks for long; RUNNING rows that
     * started before `staleBefore` belong to runs that died with their process and become STALE.
     */
    async cleanupJobHistory(
      cutoffs: { deleteBefore: Date; staleBefore: Date },
      batch = 10_000,
      tx?: Queryable,
    ): Promise<{ deleted: number; stale: number }> {
      let deleted = 0;
      for (;;) {
        const removed = await db(tx).query(
          `DELETE FROM job_history WHERE id IN (
             SELECT id FROM job_history WHERE created_at < $1 LIMIT $2)`,
          [cutoffs.deleteBefore, batch],
        );
        deleted += removed.rowCount ?? 0;
        if ((removed.rowCount ?? 0) < batch) break;
      }
      const stale = await db(tx).query(
        `UPDATE job_history SET status = 'STALE'
         WHERE status = 'RUNNING' AND time_start < $1`,
        [cutoffs.staleBefore],
      );
      return { deleted, stale: stale.rowCount ?? 0 };
    },

    /**
     * Runs `work` while holding the session advisory lock of job `name` on a connection of its
     * own; when another process holds it, returns `{ locked: false }` at once (ADR 0003). No
     * transaction is open meanwhile, so `work` may call other services.
     */
    async withJobLock<T>(
      name: string,
      work: () => Promise<T>,
    ): Promise<{ locked: true; value: T } | { locked: false }> {
      const client = await pool.connect();
      let locked = false;
      try {
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
          JOB_LOCK_SPACE,
          name,
        ]);
        locked = rows[0]?.ok === true;
        if (!locked) return { locked: false };
        return { locked: true, value: await work() };
      } finally {
        if (locked) {
          await client
            .query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_SPACE, name])
            .catch(() => undefined);
        }
        client.release();
      }
    },
  };
}
