import { NIL_AGENT_ID } from '@lookout/contracts';
import type pg from 'pg';

/**
 * SQL of the metrics module: what a scrape reads from the database (the same for every
 * replica), as opposed to what each process counts itself.
 */

/** The latest status of one live check, with the labels of `canary_check`. */
export type CheckStatusRow = {
  id: string;
  type: string;
  name: string;
  canary_name: string;
  canary_namespace: string;
  healthy: boolean;
};

/** The scheduler's backlog: local live checks whose due time has passed. */
export type SchedulerBacklog = {
  /** Due checks nobody is running (a claim moves next_runtime to its lease's end). */
  due: number;
  /** How long the oldest of them has been due, in seconds; 0 when none is. */
  oldestDueSeconds: number;
};

export type MetricsRepository = ReturnType<typeof createMetricsRepository>;

export function createMetricsRepository(pool: Pick<pg.Pool, 'query'>) {
  return {
    /** Every live check that has run at least once, with its status. */
    async checkStatuses(): Promise<CheckStatusRow[]> {
      const { rows } = await pool.query<CheckStatusRow>(
        `SELECT c.id, c.type, c.name, k.name AS canary_name, k.namespace AS canary_namespace,
                c.status = 'healthy' AS healthy
         FROM checks c JOIN canaries k ON k.id = c.canary_id
         WHERE c.deleted_at IS NULL AND k.deleted_at IS NULL AND c.status IS NOT NULL`,
      );
      return rows;
    },

    /**
     * Due checks and the age of the oldest, on the scheduler's index (checks_due_idx). A check
     * under way is not due: its claim moved next_runtime to the end of its lease.
     */
    async schedulerBacklog(): Promise<SchedulerBacklog> {
      const { rows } = await pool.query<{ due: number; oldest_due_seconds: number | null }>(
        `SELECT count(*)::int AS due,
                extract(epoch FROM now() - min(next_runtime))::double precision AS oldest_due_seconds
         FROM checks
         WHERE next_runtime <= now() AND deleted_at IS NULL AND agent_id = $1`,
        [NIL_AGENT_ID],
      );
      const row = rows[0];
      return { due: row?.due ?? 0, oldestDueSeconds: Math.max(0, row?.oldest_due_seconds ?? 0) };
    },
  };
}
