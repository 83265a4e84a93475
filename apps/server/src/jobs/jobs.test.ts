import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { createJobs, type JobOutcome } from './jobs.js';
import { JOB_LOCK_SPACE } from './jobs-repository.js';

let database: TestDatabase;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const history = async (name: string) =>
  (
    await database.pool.query<{
      status: string;
      success_count: number;
      error_count: number;
      details: Record<string, unknown>;
      hostname: string;
      duration_millis: number | null;
    }>(
      'SELECT status, success_count, error_count, details, hostname, duration_millis FROM job_history WHERE name = $1 ORDER BY created_at',
      [name],
    )
  ).rows;

/** Resolves once `condition` holds (polled), so no test depends on how fast the machine is. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('jobs', () => {
  it('writes a job_history row per run with status, counts, details and duration, and the metrics', async () => {
    const recorded: Array<{ name: string; status: string }> = [];
    const jobs = createJobs({
      pool: database.pool,
      logger: silent,
      hostname: 'replica-1',
      metrics: { recordJobRun: ({ name, status }) => recorded.push({ name, status }) },
    });
    expect(await jobs.run('CountThings', async () => ({ successCount: 3, details: { things: 3 } }))).toMatchObject({
      ran: true,
      status: 'SUCCESS',
    });
    expect(
      await jobs.run('CountThings', async () => ({ successCount: 1, errorCount: 2, details: { errors: ['a', 'b'] } })),
    ).toMatchObject({ ran: true, status: 'WARNING' });
    expect(await jobs.run('CountThings', () => Promise.reject(new Error('the table is locked')))).toMatchObject({
      ran: true,
      status: 'FAILED',
      error: 'the table is locked',
    });

    const rows = await history('CountThings');
    expect(rows).toMatchObject([
      { status: 'SUCCESS', success_count: 3, error_count: 0, details: { things: 3 }, hostname: 'replica-1' },
      { status: 'WARNING', success_count: 1, error_count: 2 },
      { status: 'FAILED', success_count: 0, error_count: 1, details: { errors: ['the table is locked'] } },
    ]);
    expect(rows.every((row) => typeof row.duration_millis === 'number')).toBe(true);
    expect(recorded.map((run) => run.status)).toEqual(['SUCCESS', 'WARNING', 'FAILED']);
  });

  it('runs a job on one replica at a time: skipped while another holds its lock, or just ran it', async () => {
    const jobs = createJobs({ pool: database.pool, logger: silent });
    const work = async (): Promise<JobOutcome> => ({ successCount: 1, details: {} });
    const holder = await database.pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [JOB_LOCK_SPACE, 'Singleton']);
      expect(await jobs.run('Singleton', work)).toEqual({ ran: false });
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_SPACE, 'Singleton']);
      holder.release();
    }
    expect(await history('Singleton')).toEqual([]);
    expect(await jobs.run('Singleton', work, { minGapMs: 60_000 })).toMatchObject({ ran: true });
    expect(await jobs.run('Singleton', work, { minGapMs: 60_000 })).toEqual({ ran: false });
    expect(await history('Singleton')).toHaveLength(1);
  });

  it('keeps only the newest successes of a frequent job, and every failure', async () => {
    const jobs = createJobs({ pool: database.pool, logger: silent });
    for (let index = 0; index < 3; index += 1) {
      await jobs.run('Frequent', async () => ({ successCount: index, details: {} }), { keepSuccesses: 1 });
    }
    await jobs.run('Frequent', () => Promise.reject(new Error('down')), { keepSuccesses: 1 });
    expect((await history('Frequent')).map((row) => [row.status, row.success_count])).toEqual([
      ['SUCCESS', 2],
      ['FAILED', 0],
    ]);
  });

  it('retries a failed run with back-off when the job asks, a row per attempt', async () => {
    const jobs = createJobs({ pool: database.pool, logger: silent });
    let attempts = 0;
    const run = await jobs.run(
      'Flaky',
      async () => {
        attempts += 1;
        if (attempts < 3) throw new Error(`attempt ${attempts} failed`);
        return { successCount: 1, details: { attempts } };
      },
      { retry: { attempts: 4, backoffMs: 5 } },
    );
    expect(run).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect(attempts).toBe(3);
    expect((await history('Flaky')).map((row) => row.status)).toEqual(['FAILED', 'FAILED', 'SUCCESS']);
  });

  it('runs scheduled tasks only once started, never two at once, and stop waits for the one under way', async () => {
    const jobs = createJobs({ pool: database.pool, logger: silent });
    let runs = 0;
    let running = 0;
    let overlapped = false;
    let release: () => void = () => undefined;
    jobs.schedule('Ticking', { everyMs: 5, firstAfterMs: 0 }, async () => {
      runs += 1;
      running += 1;
      if (running > 1) overlapped = true;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      running -= 1;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(runs).toBe(0);
    jobs.start();
    await until(() => runs === 1);
    // Its timer keeps firing while it runs: nothing piles up behind it.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(runs).toBe(1);
    let stopped = false;
    const stopping = jobs.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(runs).toBe(1);
    expect(overlapped).toBe(false);
  });

  it('runs a task asked for while it runs once more after, and refuses a bad cron expression', async () => {
    const jobs = createJobs({ pool: database.pool, logger: silent });
    let runs = 0;
    let release: () => void = () => undefined;
    const task = jobs.schedule('OnDemand', { cron: '0 3 * * *' }, async () => {
      runs += 1;
      if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    task.runSoon();
    await until(() => runs === 1);
    task.runSoon();
    task.runSoon();
    release();
    await until(() => runs === 2);
    await jobs.stop();
    expect(runs).toBe(2);
    task.runSoon();
    expect(runs).toBe(2);
    expect(() => jobs.schedule('Broken', { cron: 'every day' }, async () => undefined)).toThrow();
  });

  it('records a queue worker pass that is already over in one row', async () => {
    const jobs = createJobs({ pool: database.pool, logger: silent, hostname: 'replica-2' });
    await jobs.record({
      name: 'SendThings',
      status: 'WARNING',
      successCount: 2,
      errorCount: 1,
      details: { sent: 2 },
      startedAt: new Date(Date.now() - 50),
    });
    expect(await history('SendThings')).toMatchObject([
      { status: 'WARNING', success_count: 2, error_count: 1, details: { sent: 2 }, hostname: 'replica-2' },
    ]);
  });

  it('links a run to its resource, locks per resource and keeps successes per resource', async () => {
    const jobs = createJobs({ pool: database.pool, logger: silent });
    const work = async (): Promise<JobOutcome> => ({ successCount: 1, details: {} });
    for (const id of ['a', 'a', 'a', 'b']) {
      await jobs.run('ScrapeThing', work, { resource: { type: 'thing', id }, keepSuccesses: 2 });
    }
    // Runs for two resources at once both run: each has its own lock.
    const both = await Promise.all(
      ['c', 'd'].map((id) =>
        jobs.run(
          'ScrapeThing',
          () => new Promise<JobOutcome>((resolve) => setTimeout(() => resolve({ successCount: 1, details: {} }), 50)),
          {
            resource: { type: 'thing', id },
          },
        ),
      ),
    );
    expect(both.map((run) => run.ran)).toEqual([true, true]);
    const rows = await database.pool.query<{ resource_type: string; resource_id: string; n: number }>(
      `SELECT resource_type, resource_id, count(*)::int AS n FROM job_history WHERE name = 'ScrapeThing'
       GROUP BY 1, 2 ORDER BY 2`,
    );
    expect(rows.rows).toEqual([
      { resource_type: 'thing', resource_id: 'a', n: 2 },
      { resource_type: 'thing', resource_id: 'b', n: 1 },
      { resource_type: 'thing', resource_id: 'c', n: 1 },
      { resource_type: 'thing', resource_id: 'd', n: 1 },
    ]);
  });
});
