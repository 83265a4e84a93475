import os from 'node:os';
import { isFinalRunStatus, parseDurationMs, PLAYBOOK_DEFAULTS, type PlaybookAction } from '@lookout/contracts';
import type pg from 'pg';
import type { Logger } from 'pino';
import { createNotificationListener } from '../../db/notification-listener.js';
import { withTransaction, type Queryable } from '../../db/transaction.js';
import type { ActionContext } from './actions/action-types.js';
import { runAction, scrub } from './actions/run-action.js';
import { runEnv } from './playbook-env.js';
import { actionsEnv, nextStep, retryDelayMs } from './playbook-plan-fns.js';
import {
  claimDueAction,
  claimDueRun,
  failLapsedActions,
  finishAction,
  finishRun,
  getRun,
  insertAction,
  renewLeases,
  retryAction,
  runActions,
  setRunRunning,
  timeOutRuns,
  type ActionRow,
} from './playbook-runs-repository.js';
import { renderDeep } from './playbook-template-fns.js';

export type ExecutorSettings = {
  /** Run planners and action workers per process (the original: 5 and 5). */
  runConcurrency?: number;
  actionConcurrency?: number;
  /** Polling besides LISTEN (ADR 0003). */
  pollMs?: number;
  /** How long a claimed action stays ours without renewal; renewed every third of it. */
  leaseMs?: number;
  /** How often lapsed leases and run timeouts are looked for. */
  reapEveryMs?: number;
};

export type ExecutorDeps = {
  pool: pg.Pool;
  logger: Logger;
  context: Omit<ActionContext, 'signal' | 'secrets' | 'namespace' | 'logger'>;
  settings?: ExecutorSettings;
};

const SERVER_STOPPED = 'the server stopped';

/**
 * Moves a run one step (playbook-plan-fns.ts) inside the caller's transaction, holding the
 * run's row lock: records skipped actions, queues the next action (sleeping for its delay) or
 * ends the run. Called when a run is claimed and when one of its actions ends.
 */
export async function advanceRun(db: Queryable, runId: string): Promise<void> {
  const run = await getRun(db, runId, true);
  if (!run || isFinalRunStatus(run.status) || run.status === 'pending_approval') return;
  const rows = await runActions(db, runId);
  const env = await runEnv(db, run);
  const step = nextStep(run.spec, rows, env);
  for (const skip of step.kind === 'wait' ? [] : step.skipped) {
    await insertAction(db, { runId, index: skip.index, name: skip.name, status: 'skipped', error: skip.reason });
  }
  if (step.kind === 'wait') {
    await setRunRunning(db, runId);
  } else if (step.kind === 'action') {
    await insertAction(db, {
      runId,
      index: step.index,
      name: step.name,
      status: step.delayMs > 0 ? 'sleeping' : 'scheduled',
      delayMs: step.delayMs,
    });
    await setRunRunning(db, runId);
  } else {
    await finishRun(db, runId, step.status, step.error);
  }
}

/**
 * The playbook executor (ADR 0029): runs and actions are rows claimed with FOR UPDATE SKIP
 * LOCKED, so replicas share the work and a restart loses nothing queued. Planners take due
 * `scheduled` runs and queue their next action; action workers take due actions, run them
 * under a renewed lease, record the outcome and plan the next step in the same transaction.
 * An action whose worker died (lapsed lease) is failed, never run a second time.
 */
export function createPlaybookExecutor(deps: ExecutorDeps) {
  const settings = {
    runConcurrency: 2,
    actionConcurrency: 5,
    pollMs: 1000,
    leaseMs: 30_000,
    reapEveryMs: 10_000,
    ...deps.settings,
  };
  const worker = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const logger = deps.logger.child({ module: 'playbooks' });
  const running = new Map<string, AbortController>();
  const loops: Promise<void>[] = [];
  let stopped = true;
  let listener: ReturnType<typeof createNotificationListener> | undefined;
  let reaper: NodeJS.Timeout | undefined;
  let renewer: NodeJS.Timeout | undefined;
  const waiters = { run: new Set<() => void>(), action: new Set<() => void>() };
  const wake = (kind: 'run' | 'action') => {
    for (const resolve of waiters[kind]) resolve();
    waiters[kind].clear();
  };
  const idle = (kind: 'run' | 'action') =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, settings.pollMs);
      waiters[kind].add(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  /** Plans one due run; false when none was due. */
  async function planOneRun(): Promise<boolean> {
    return withTransaction(deps.pool, async (client) => {
      const run = await claimDueRun(client);
      if (!run) return false;
      await advanceRun(client, run.id);
      return true;
    });
  }

  async function execute(row: ActionRow, signal: AbortSignal) {
    const run = await getRun(deps.pool, row.playbook_run_id);
    const spec = run?.spec.actions[row.action_index] as PlaybookAction | undefined;
    if (!run || !spec)
      return { status: 'failed' as const, result: {}, error: 'the action is not in the run spec', spec };
    const env: Record<string, unknown> = {
      ...(await runEnv(deps.pool, run)),
      actions: actionsEnv(await runActions(deps.pool, run.id)),
    };
    const rendered = renderDeep(spec, env);
    if (rendered.errors.length > 0) {
      return { status: 'failed' as const, result: {}, error: `template: ${rendered.errors.join('; ')}`, spec };
    }
    const secrets = new Set<string>();
    const timeoutMs = parseDurationMs(spec.timeout ?? PLAYBOOK_DEFAULTS.actionTimeout) ?? 300_000;
    const both = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
    const namespace = String((env.playbook as { namespace?: string }).namespace ?? 'default');
    const outcome = await runAction(rendered.value, { ...deps.context, signal: both, secrets, namespace, logger });
    // The server stopping is not the operator cancelling: the action fails (and is not
    // repeated), so the run's failure rules apply, as after a crash.
    const stopping = signal.aborted && signal.reason === SERVER_STOPPED;
    const cancelled = signal.aborted && !stopping;
    const timedOut = !signal.aborted && both.aborted;
    const error = stopping
      ? 'the server stopped while this action ran; it was not run again'
      : cancelled
        ? `cancelled: ${String(signal.reason)}`
        : timedOut
          ? `timed out after ${spec.timeout ?? PLAYBOOK_DEFAULTS.actionTimeout}`
          : (outcome.error ?? null);
    return {
      status: cancelled
        ? ('cancelled' as const)
        : outcome.ok && !timedOut
          ? ('completed' as const)
          : ('failed' as const),
      result: scrub(outcome.result, secrets),
      error: error === null ? null : scrub(error, secrets),
      // Without the spec no retry is planned: an action cut short by a stop is not run again.
      spec: stopping ? undefined : spec,
    };
  }

  /** Runs one due action; false when none was due. */
  async function runOneAction(): Promise<boolean> {
    const row = await claimDueAction(deps.pool, worker, settings.leaseMs);
    if (!row) return false;
    const controller = new AbortController();
    running.set(row.id, controller);
    let outcome: Awaited<ReturnType<typeof execute>>;
    try {
      outcome = await execute(row, controller.signal);
    } catch (error) {
      outcome = {
        status: 'failed',
        result: {},
        error: error instanceof Error ? error.message : String(error),
        spec: undefined,
      };
    } finally {
      running.delete(row.id);
    }
    await withTransaction(deps.pool, async (client) => {
      const limit = outcome.spec?.retry?.limit ?? 0;
      if (outcome.status === 'failed' && row.retry_count < limit) {
        await retryAction(client, row.id, retryDelayMs(outcome.spec!), outcome.result, outcome.error ?? 'failed');
        return;
      }
      if (await finishAction(client, row.id, outcome)) await advanceRun(client, row.playbook_run_id);
    });
    return true;
  }

  async function reap() {
    try {
      await timeOutRuns(deps.pool);
      for (const runId of await failLapsedActions(deps.pool)) {
        await withTransaction(deps.pool, (client) => advanceRun(client, runId));
      }
    } catch (error) {
      logger.warn({ err: error }, 'Playbook reaper failed; trying again later');
    }
  }

  async function renew() {
    try {
      const ended = await renewLeases(deps.pool, [...running.keys()], settings.leaseMs);
      for (const id of ended) running.get(id)?.abort('the run was cancelled or timed out');
    } catch (error) {
      logger.warn({ err: error }, 'Could not renew playbook action leases');
    }
  }

  function loop(kind: 'run' | 'action', work: () => Promise<boolean>) {
    return (async () => {
      while (!stopped) {
        let did = false;
        try {
          did = await work();
        } catch (error) {
          logger.warn({ err: error }, `Playbook ${kind} worker failed; trying again`);
        }
        if (!did && !stopped) await idle(kind);
      }
    })();
  }

  return {
    worker,
    planOneRun,
    runOneAction,
    reap,
    start() {
      if (!stopped) return;
      stopped = false;
      listener = createNotificationListener(deps.pool, logger);
      listener.subscribe('playbook_run_updates', () => wake('run'));
      listener.subscribe('playbook_action_updates', () => wake('action'));
      for (let i = 0; i < settings.runConcurrency; i++) loops.push(loop('run', planOneRun));
      for (let i = 0; i < settings.actionConcurrency; i++) loops.push(loop('action', runOneAction));
      reaper = setInterval(() => void reap(), settings.reapEveryMs);
      renewer = setInterval(() => void renew(), Math.max(50, Math.floor(settings.leaseMs / 3)));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(reaper);
      clearInterval(renewer);
      // Actions under way are killed and recorded as failed (not run again).
      for (const controller of running.values()) controller.abort(SERVER_STOPPED);
      wake('run');
      wake('action');
      await Promise.allSettled(loops.splice(0));
      await listener?.close();
      listener = undefined;
    },
  };
}

export type PlaybookExecutor = ReturnType<typeof createPlaybookExecutor>;
