import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { createJobHistoryCleanup, JOB_HISTORY_CLEANUP_JOB } from './job-history-cleanup.js';
import { createJobs, type JobSchedule } from './jobs.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** Rows of every age around the two limits (30 days, 4 hours), named after what should happen to them. */
async function seed(): Promise<void> {
  await database.pool.query('DELETE FROM job_history');
  await database.pool.query(
    `INSERT INTO job_history (name, status, time_start, created_at) VALUES
       ('old-success', 'SUCCESS', now() - interval '31 days', now() - interval '31 days'),
       ('old-failed', 'FAILED', now() - interval '45 days', now() - interval '45 days'),
       ('old-running', 'RUNNING', now() - interval '40 days', now() - interval '40 days'),
       ('kept-month', 'SUCCESS', now() - interval '29 days', now() - interval '29 days'),
       ('stale-running', 'RUNNING', now() - interval '5 hours', now() - interval '5 hours'),
       ('live-running', 'RUNNING', now() - interval '3 hours', now() - interval '3 hours'),
       ('kept-failed', 'FAILED', now() - interval '6 hours', now() - interval '6 hours')`,
  );
}

const rows = async () =>
  (
    await database.pool.query<{ name: string; status: string }>(
      `SELECT name, status FROM job_history WHERE name <> $1 ORDER BY name`,
      [JOB_HISTORY_CLEANUP_JOB],
    )
  ).rows;

const jobs = () => createJobs({ pool: database.pool, logger: pino({ level: 'silent' }), hostname: 'cleaner' });

describe('the job history cleanup (backend-model section 2.7)', () => {
  it('deletes rows older than 30 days and marks RUNNING rows older than 4 hours STALE, recording its own run', async () => {
    await seed();
    const run = await createJobHistoryCleanup({ jobs: jobs() }).run();
    expect(run).toMatchObject({ ran: true, status: 'SUCCESS' });

    expect(await rows()).toEqual([
      { name: 'kept-failed', status: 'FAILED' },
      { name: 'kept-month', status: 'SUCCESS' },
      { name: 'live-running', status: 'RUNNING' },
      { name: 'stale-running', status: 'STALE' },
    ]);
    const own = await database.pool.query<{
      status: string;
      success_count: number;
      details: unknown;
      hostname: string;
    }>('SELECT status, success_count, details, hostname FROM job_history WHERE name = $1', [JOB_HISTORY_CLEANUP_JOB]);
    expect(own.rows).toEqual([
      {
        status: 'SUCCESS',
        success_count: 4,
        hostname: 'cleaner',
        details: {
          summary: { deleted: 3, stale: 1, deleteBefore: expect.any(String), staleBefore: expect.any(String) },
        },
      },
    ]);
  });

  it('deletes in batches until nothing older is left', async () => {
    await database.pool.query('DELETE FROM job_history');
    await database.pool.query(
      `INSERT INTO job_history (name, status, time_start, created_at)
       SELECT 'batch-' || g, 'SUCCESS', now() - interval '40 days', now() - interval '40 days' FROM generate_series(1, 25) g`,
    );
    const result = await jobs().cleanupHistory(
      { deleteBefore: new Date(Date.now() - 30 * 86_400_000), staleBefore: new Date(Date.now() - 4 * 3_600_000) },
      10,
    );
    expect(result).toEqual({ deleted: 25, stale: 0 });
    expect(await rows()).toEqual([]);
  });

  it('runs once a day: a run within a day of the last success is skipped', async () => {
    await seed();
    const cleanup = createJobHistoryCleanup({ jobs: jobs() });
    expect(await cleanup.run()).toMatchObject({ ran: true });
    expect(await cleanup.run(86_400_000)).toEqual({ ran: false });
    // The rows it left stay as they were.
    expect((await rows()).map((row) => row.name)).toEqual([
      'kept-failed',
      'kept-month',
      'live-running',
      'stale-running',
    ]);
  });

  it('registers with the jobs module, checking hourly and running when no replica ran it for a day', async () => {
    await seed();
    await database.pool.query('DELETE FROM job_history WHERE name = $1', [JOB_HISTORY_CLEANUP_JOB]);
    const real = jobs();
    const registered: Array<{ label: string; when: JobSchedule; task: () => Promise<unknown> }> = [];
    createJobHistoryCleanup({
      jobs: {
        run: real.run,
        cleanupHistory: real.cleanupHistory,
        schedule: (label, when, task) => {
          registered.push({ label, when, task });
          return { runSoon: () => undefined };
        },
      },
    }).schedule();
    expect(registered).toEqual([
      {
        label: JOB_HISTORY_CLEANUP_JOB,
        when: { everyMs: 3_600_000, firstAfterMs: 300_000 },
        task: expect.any(Function),
      },
    ]);
    // The timer's task cleans up the first time and is skipped the next hour.
    expect(await registered[0]!.task()).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect(await registered[0]!.task()).toEqual({ ran: false });
    expect((await rows()).map((row) => row.name)).not.toContain('old-success');
  });
});
