import os from 'node:os';
import { CronExpressionParser } from 'cron-parser';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Queryable } from '../db/transaction.js';
import { createJobsRepository, type FinishedRun, type JobStatus } from './jobs-repository.js';

/**
 * The one place that runs background work (ARCHITECTURE section 6): schedules (an interval or a
 * cron expression), the advisory lock that lets one replica run a singleton job at a time, a
 * `job_history` row per run (status, duration, success and error counts, details), retries with
 * back-off where a job asks, the job metrics, and a stop that waits for runs under way.
 *
 * Modules register their work when they are built; `lookout serve` starts the schedules only
 * where background workers run (`--role worker` or `all`); a run a request asks for (`runSoon`)
 * runs on any replica.
 */

export type { JobStatus };

/** What one job run did; `errorCount` > 0 makes it WARNING (some succeeded) or FAILED. */
export type JobOutcome = { successCount: number; errorCount?: number; details: Record<string, unknown> };

/** `ran` false: another replica held the lock, or had just run it. */
export type JobRun = { ran: false } | { ran: true; status: JobStatus; outcome?: JobOutcome; error?: string };

export type JobRunOptions = {
  /** Skip the run when the job succeeded this recently (another replica ran it on the same timer). */
  minGapMs?: number;
  /** Keep only the newest N SUCCESS rows of a frequent job (failures stay, as for any job). */
  keepSuccesses?: number;
  /** A failed run is tried again `attempts` more times, waiting `backoffMs`, doubled each time. */
  retry?: { attempts: number; backoffMs: number };
  /**
   * The resource a run is about (job_history.resource_type and resource_id, which Jobs History
   * links): runs of one name for different resources take different locks, so they may overlap.
   */
  resource?: { type: string; id: string };
};

/** When a scheduled task runs: every `everyMs` (first after `firstAfterMs`), or on a cron expression. */
export type JobSchedule = { everyMs: number; firstAfterMs?: number } | { cron: string };

export type ScheduledTask = {
  /**
   * Runs the task soon, started or not (a change made through a request on any replica);
   * asked while it runs, it runs once more after. Ignored once stopped.
   */
  runSoon: () => void;
};

/** Where each run's duration and status go (the metrics module's recordJobRun). */
export type JobMetrics = {
  recordJobRun: (run: { name: string; status: JobStatus; durationMs: number }) => void;
};

export type JobsDeps = {
  pool: pg.Pool;
  logger: Pick<Logger, 'error' | 'warn'>;
  metrics?: JobMetrics;
  hostname?: string;
  now?: () => Date;
};

export type Jobs = ReturnType<typeof createJobs>;

export function createJobs(deps: JobsDeps) {
  const repository = createJobsRepository(deps.pool);
  const { logger } = deps;
  const now = deps.now ?? (() => new Date());
  const hostname = deps.hostname ?? os.hostname();
  const tasks: Array<{ label: string; when: JobSchedule; trigger: (rerun: boolean) => void }> = [];
  const chains = new Map<string, Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let started = false;
  let stopped = false;

  const status = (outcome: JobOutcome): JobStatus => {
    const errors = outcome.errorCount ?? 0;
    return errors === 0 ? 'SUCCESS' : outcome.successCount > 0 ? 'WARNING' : 'FAILED';
  };

  /** One attempt under the job's lock, with its history row and metrics. */
  async function attempt(name: string, work: () => Promise<JobOutcome>, options: JobRunOptions): Promise<JobRun> {
    const lockName = options.resource ? `${name}/${options.resource.type}/${options.resource.id}` : name;
    const locked = await repository.withJobLock(lockName, async (): Promise<JobRun> => {
      const id = await repository.startJob({
        name,
        hostname,
        ...(options.resource ? { resourceType: options.resource.type, resourceId: options.resource.id } : {}),
      });
      const startedAt = performance.now();
      const finished = (result: JobStatus) =>
        deps.metrics?.recordJobRun({ name, status: result, durationMs: performance.now() - startedAt });
      try {
        const outcome = await work();
        const result = status(outcome);
        await repository.finishJob(id, {
          status: result,
          successCount: outcome.successCount,
          errorCount: outcome.errorCount ?? 0,
          details: outcome.details,
        });
        if (options.keepSuccesses !== undefined) {
          await repository.pruneJobHistory(name, options.keepSuccesses, undefined, options.resource?.id);
        }
        finished(result);
        return { ran: true, status: result, outcome };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        logger.error({ err: error, job: name }, 'Job failed');
        await repository
          .finishJob(id, { status: 'FAILED', successCount: 0, errorCount: 1, details: { errors: [message] } })
          .catch(() => undefined);
        finished('FAILED');
        return { ran: true, status: 'FAILED', error: message };
      }
    });
    return locked.locked ? locked.value : { ran: false };
  }

  /** A retry's back-off; stop() ends it at once. */
  const wakers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      wakers.add(wake);
    });

  /**
   * Runs job `name` once as a singleton: skipped while another replica holds its lock, or when
   * it succeeded within `minGapMs`; a failure is recorded (and retried if asked), never thrown.
   */
  async function run(name: string, work: () => Promise<JobOutcome>, options: JobRunOptions = {}): Promise<JobRun> {
    if (options.minGapMs && options.minGapMs > 0) {
      const last = await repository.lastSuccess(name);
      if (last && now().getTime() - last.getTime() < options.minGapMs * 0.9) return { ran: false };
    }
    let result = await attempt(name, work, options);
    const retry = options.retry;
    for (let tried = 0; retry && tried < retry.attempts; tried += 1) {
      if (!result.ran || result.status !== 'FAILED' || stopped) break;
      await sleep(retry.backoffMs * 2 ** tried);
      if (stopped) break;
      result = await attempt(name, work, options);
    }
    return result;
  }

  /**
   * Records a run that is already over in one row (and the metrics): for queue workers, whose
   * passes claim rows with FOR UPDATE SKIP LOCKED rather than run as singletons. An event
   * consumer passes its pass's `tx`, so the row commits with its work and the pass takes no
   * second connection from the pool.
   */
  async function record(pass: FinishedRun & { resource?: JobRunOptions['resource'] }, tx?: Queryable): Promise<void> {
    deps.metrics?.recordJobRun({
      name: pass.name,
      status: pass.status,
      durationMs: Date.now() - pass.startedAt.getTime(),
    });
    const { resource, ...row } = pass;
    await repository.recordJob(
      { ...row, hostname, ...(resource ? { resourceType: resource.type, resourceId: resource.id } : {}) },
      tx,
    );
  }

  function arm(task: (typeof tasks)[number]) {
    const at = (delayMs: number, then: () => void) => {
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          then();
        },
        Math.max(0, delayMs),
      );
      timer.unref();
      timers.add(timer);
    };
    const { when } = task;
    if ('cron' in when) {
      const next = () => {
        if (stopped) return;
        const due = CronExpressionParser.parse(when.cron, { currentDate: now() }).next().toDate();
        at(due.getTime() - now().getTime(), () => {
          task.trigger(false);
          next();
        });
      };
      next();
      return;
    }
    at(when.firstAfterMs ?? when.everyMs, () => task.trigger(false));
    const interval = setInterval(() => task.trigger(false), when.everyMs);
    interval.unref();
    timers.add(interval);
  }

  /**
   * Registers `task` to run on `when` once the jobs are started. Tasks of one `group` run one at
   * a time (default: each task its own); a task still waiting or running is not queued again
   * by its timer, so a slow run cannot pile up behind itself. `task` records its runs with `run`.
   */
  function schedule(label: string, when: JobSchedule, task: () => Promise<unknown>, options: { group?: string } = {}) {
    if ('cron' in when) CronExpressionParser.parse(when.cron); // a bad expression fails at start-up
    const group = options.group ?? label;
    let pending = false;
    let again = false;
    const trigger = (rerun: boolean) => {
      if (stopped) return;
      if (pending) {
        if (rerun) again = true;
        return;
      }
      pending = true;
      const next = (chains.get(group) ?? Promise.resolve())
        .then(() => (stopped ? undefined : task()))
        .then(
          () => undefined,
          (error: unknown) => logger.error({ err: error, job: label }, 'Job could not run'),
        )
        .finally(() => {
          pending = false;
          if (again) {
            again = false;
            trigger(false);
          }
        });
      chains.set(group, next);
    };
    const entry = { label, when, trigger };
    tasks.push(entry);
    if (started && !stopped) arm(entry);
    return { runSoon: () => trigger(true) } satisfies ScheduledTask;
  }

  return {
    run,
    record,
    schedule,
    /** Job history housekeeping: see job-history-cleanup.ts, which runs it daily. */
    cleanupHistory: (cutoffs: { deleteBefore: Date; staleBefore: Date }, batch?: number) =>
      repository.cleanupJobHistory(cutoffs, batch),

    /** Arms every schedule (registered before or after). */
    start() {
      if (started) return;
      started = true;
      stopped = false;
      for (const task of tasks) arm(task);
    },

    /** Stops the timers and waits for the runs under way (a retry's back-off ends at once). */
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const wake of [...wakers]) wake();
      // A run that finishes may queue its `again` round: wait until the chains stay the same.
      for (;;) {
        const current = [...chains.values()];
        await Promise.all(current);
        if ([...chains.values()].every((chain, index) => chain === current[index])) break;
      }
    },
  };
}
