import { NIL_AGENT_ID, type PlaybookSpec } from '@lookout/contracts';
import type { Queryable } from '../../db/transaction.js';
import type { ActionRowState } from './playbook-plan-fns.js';

export type RunRow = {
  id: string;
  playbook_id: string;
  spec: PlaybookSpec;
  status: string;
  parameters: Record<string, unknown> | null;
  check_id: string | null;
  config_id: string | null;
  component_id: string | null;
  created_by: string | null;
  created_at: Date;
  start_time: Date | null;
  scheduled_time: Date;
  timeout: string;
  request: unknown;
  error: string | null;
};

export type ActionRow = ActionRowState & {
  id: string;
  playbook_run_id: string;
  retry_count: number;
  scheduled_time: Date;
};

const RUN_COLUMNS = `id, playbook_id, spec, status, parameters, check_id, config_id, component_id, created_by,
  created_at, start_time, scheduled_time, timeout::text AS timeout, request, error`;

export const FINAL_RUN_SQL = `('completed', 'failed', 'cancelled', 'timed_out')`;

/**
 * Runs and actions this Lookout executes: its own, not those an agent pushed (stored under the
 * agent's id by /upstream/push; the agent runs them and pushes their progress).
 */
const LOCAL_SQL = (alias: string) => `(${alias}.agent_id IS NULL OR ${alias}.agent_id = '${NIL_AGENT_ID}')`;

export type NewRun = {
  playbookId: string;
  spec: PlaybookSpec;
  status: 'scheduled' | 'pending_approval';
  parameters: Record<string, unknown>;
  checkId?: string | undefined;
  configId?: string | undefined;
  componentId?: string | undefined;
  createdBy: string | null;
  timeoutNanos: bigint;
  request?: unknown;
  rerunOf?: string | undefined;
};

export async function insertRun(
  db: Queryable,
  run: NewRun,
): Promise<{ id: string; scheduled_time: Date; status: string }> {
  const { rows } = await db.query<{ id: string; scheduled_time: Date; status: string }>(
    `INSERT INTO playbook_runs (playbook_id, spec, status, parameters, check_id, config_id, component_id,
       created_by, timeout, request, rerun_of)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id, scheduled_time, status`,
    [
      run.playbookId,
      run.spec,
      run.status,
      run.parameters,
      run.checkId ?? null,
      run.configId ?? null,
      run.componentId ?? null,
      run.createdBy,
      run.timeoutNanos.toString(),
      run.request === undefined ? null : JSON.stringify(run.request),
      run.rerunOf ?? null,
    ],
  );
  return rows[0]!;
}

export async function getRun(db: Queryable, id: string, lock = false): Promise<RunRow | undefined> {
  const { rows } = await db.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM playbook_runs WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

/** Claims one due scheduled run for the caller's transaction; replicas skip each other's. */
export async function claimDueRun(db: Queryable): Promise<RunRow | undefined> {
  const { rows } = await db.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM playbook_runs
      WHERE status = 'scheduled' AND scheduled_time <= now() AND ${LOCAL_SQL('playbook_runs')}
      ORDER BY scheduled_time FOR UPDATE SKIP LOCKED LIMIT 1`,
  );
  return rows[0];
}

export async function runActions(db: Queryable, runId: string): Promise<ActionRow[]> {
  const { rows } = await db.query<ActionRow>(
    `SELECT id, playbook_run_id, name, status, error, result, action_index, retry_count, scheduled_time
       FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index, created_at`,
    [runId],
  );
  return rows;
}

export async function insertAction(
  db: Queryable,
  action: {
    runId: string;
    index: number;
    name: string;
    status: 'scheduled' | 'sleeping' | 'skipped';
    delayMs?: number;
    error?: string;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO playbook_run_actions (playbook_run_id, action_index, name, status, scheduled_time, error,
       start_time, end_time)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000), $6,
       CASE WHEN $4 = 'skipped' THEN now() END, CASE WHEN $4 = 'skipped' THEN now() END)`,
    [action.runId, action.index, action.name, action.status, action.delayMs ?? 0, action.error ?? null],
  );
}

export async function setRunRunning(db: Queryable, runId: string): Promise<void> {
  await db.query(
    `UPDATE playbook_runs SET status = 'running', start_time = coalesce(start_time, now())
      WHERE id = $1 AND status NOT IN ${FINAL_RUN_SQL}`,
    [runId],
  );
}

export async function finishRun(db: Queryable, runId: string, status: string, error: string | null): Promise<void> {
  await db.query(
    `UPDATE playbook_runs SET status = $2, error = $3, end_time = now(), start_time = coalesce(start_time, now())
      WHERE id = $1 AND status NOT IN ${FINAL_RUN_SQL}`,
    [runId, status, error],
  );
}

/**
 * Claims one due action and marks it running under a lease, in one statement: a replica that
 * dies holding it leaves a lapsed lease, which {@link failLapsedActions} ends.
 */
export async function claimDueAction(db: Queryable, worker: string, leaseMs: number): Promise<ActionRow | undefined> {
  const { rows } = await db.query<ActionRow>(
    `UPDATE playbook_run_actions a
        SET status = 'running', start_time = now(), claimed_by = $1,
            lease_until = now() + make_interval(secs => $2::double precision / 1000)
      WHERE a.id = (
        SELECT x.id FROM playbook_run_actions x JOIN playbook_runs r ON r.id = x.playbook_run_id
         WHERE x.status IN ('scheduled', 'sleeping') AND x.scheduled_time <= now()
           AND r.status NOT IN ${FINAL_RUN_SQL} AND ${LOCAL_SQL('r')}
         ORDER BY x.scheduled_time FOR UPDATE OF x SKIP LOCKED LIMIT 1)
      RETURNING a.id, a.playbook_run_id, a.name, a.status, a.error, a.result, a.action_index, a.retry_count,
        a.scheduled_time`,
    [worker, leaseMs],
  );
  return rows[0];
}

/** Renews the leases of running actions; answers the ids whose run has ended (cancelled, timed out). */
export async function renewLeases(db: Queryable, ids: readonly string[], leaseMs: number): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `WITH renewed AS (
       UPDATE playbook_run_actions SET lease_until = now() + make_interval(secs => $2::double precision / 1000)
        WHERE id = ANY($1::uuid[]) AND status = 'running' RETURNING id, playbook_run_id)
     SELECT renewed.id FROM renewed JOIN playbook_runs r ON r.id = renewed.playbook_run_id
      WHERE r.status IN ${FINAL_RUN_SQL}`,
    [ids, leaseMs],
  );
  return rows.map((row) => row.id);
}

/** Records how a running action ended (only if it is still this worker's). */
export async function finishAction(
  db: Queryable,
  id: string,
  outcome: { status: 'completed' | 'failed' | 'cancelled'; result: unknown; error: string | null },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE playbook_run_actions SET status = $2, result = $3, error = $4, end_time = now(), lease_until = NULL
      WHERE id = $1 AND status = 'running'`,
    [id, outcome.status, JSON.stringify(outcome.result ?? {}), outcome.error],
  );
  return (rowCount ?? 0) > 0;
}

/** Puts a failed action back in the queue for its next try. */
export async function retryAction(
  db: Queryable,
  id: string,
  delayMs: number,
  result: unknown,
  error: string,
): Promise<void> {
  await db.query(
    `UPDATE playbook_run_actions
        SET status = 'scheduled', retry_count = retry_count + 1, result = $3, error = $4, lease_until = NULL,
            scheduled_time = now() + make_interval(secs => $2::double precision / 1000)
      WHERE id = $1 AND status = 'running'`,
    [id, delayMs, JSON.stringify(result ?? {}), error],
  );
}

/** Running actions whose executor stopped renewing: failed (never run twice), their runs go on. */
export async function failLapsedActions(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ playbook_run_id: string }>(
    `UPDATE playbook_run_actions
        SET status = 'failed', end_time = now(), lease_until = NULL,
            error = 'the executor running this action stopped before it finished; it was not run again'
      WHERE id IN (SELECT id FROM playbook_run_actions a WHERE status = 'running' AND lease_until < now()
                      AND ${LOCAL_SQL('a')}
                    FOR UPDATE SKIP LOCKED)
      RETURNING playbook_run_id`,
  );
  return [...new Set(rows.map((row) => row.playbook_run_id))];
}

/** Ends runs past their timeout (timed_out) and cancels their queued actions. */
export async function timeOutRuns(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE playbook_runs SET status = 'timed_out', end_time = now(), error = 'the run did not finish within its timeout'
      WHERE status NOT IN ${FINAL_RUN_SQL} AND status <> 'pending_approval' AND ${LOCAL_SQL('playbook_runs')}
        AND coalesce(start_time, scheduled_time) + make_interval(secs => timeout::double precision / 1e9) < now()
      RETURNING id`,
  );
  if (rows.length > 0)
    await cancelQueuedActions(
      db,
      rows.map((row) => row.id),
    );
  return rows.length;
}

export async function cancelQueuedActions(db: Queryable, runIds: readonly string[]): Promise<void> {
  await db.query(
    `UPDATE playbook_run_actions SET status = 'cancelled', end_time = now()
      WHERE playbook_run_id = ANY($1::uuid[]) AND status IN ('scheduled', 'sleeping', 'waiting')`,
    [runIds],
  );
}

/** Cancels an open run; undefined when there is no such run. */
export async function cancelRun(
  db: Queryable,
  runId: string,
): Promise<{ status: string; cancelled: boolean } | undefined> {
  const { rows } = await db.query<{ status: string }>(
    `UPDATE playbook_runs SET status = 'cancelled', end_time = now()
      WHERE id = $1 AND status NOT IN ${FINAL_RUN_SQL} RETURNING status`,
    [runId],
  );
  if (rows[0]) {
    await cancelQueuedActions(db, [runId]);
    return { status: 'cancelled', cancelled: true };
  }
  const current = await db.query<{ status: string }>('SELECT status FROM playbook_runs WHERE id = $1', [runId]);
  return current.rows[0] ? { status: current.rows[0].status, cancelled: false } : undefined;
}
