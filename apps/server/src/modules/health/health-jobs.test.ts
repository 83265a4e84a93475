import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createHealthJobs, HEALTH_JOB_NAMES } from './health-jobs.js';
import { createHealthRepository } from './health-repository.js';
import { createJobs } from '../../jobs/jobs.js';
import { JOB_LOCK_SPACE } from '../../jobs/jobs-repository.js';

const DAY = 86_400_000;
let database: TestDatabase;
let checkId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(
    `INSERT INTO canaries (name, spec) VALUES ('jobs', '{"http": [{"name": "a", "url": "http://127.0.0.1:1/"}]}')`,
  );
  checkId = (await database.pool.query<{ id: string }>('SELECT id FROM checks')).rows[0]!.id;
  // Raw rows 40 days back to now (every 6 hours), hourly buckets at 100 days and daily at 300.
  await database.pool.query(
    `INSERT INTO check_statuses (check_id, time, status, duration)
     SELECT $1, now() - g * interval '6 hours', g % 5 <> 0, 10 + g FROM generate_series(0, 160) g;
     INSERT INTO check_statuses_1h (check_id, created_at, total, passed) VALUES ($1, date_bin('1 hour', now() - interval '100 days', timestamptz '2000-01-01 00:00:00+00'), 1, 1);
     INSERT INTO check_statuses_1d (check_id, created_at, total, passed) VALUES ($1, date_bin('1 day', now() - interval '300 days', timestamptz '2000-01-01 00:00:00+00'), 1, 1);`.replaceAll(
      '$1',
      `'${checkId}'`,
    ),
  );
});
afterAll(() => database.drop());

const jobs = () =>
  createHealthJobs({
    repository: createHealthRepository(database.pool),
    jobs: createJobs({ pool: database.pool, logger: pino({ level: 'silent' }), hostname: 'test-host' }),
    settings: {
      rollupIntervalMs: 300_000,
      summaryRefreshMs: 30_000,
      retentionDays: { raw: 30, hourly: 90, daily: 270 },
      lateMarginMs: 90_000,
    },
  });

const history = async (name: string) =>
  (
    await database.pool.query<{
      status: string;
      success_count: number;
      error_count: number;
      details: Record<string, unknown>;
      hostname: string;
      duration_millis: number;
    }>(
      'SELECT status, success_count, error_count, details, hostname, duration_millis FROM job_history WHERE name = $1 ORDER BY created_at',
      [name],
    )
  ).rows;

describe('health jobs', () => {
  it('rolls raw statuses up into hourly and daily buckets, moving the marks and writing job history', async () => {
    const health = jobs();
    const hourly = await health.rollupHourly();
    expect(hourly).toMatchObject({ ran: true, status: 'SUCCESS' });
    const daily = await health.rollupDaily();
    expect(daily).toMatchObject({ ran: true, status: 'SUCCESS' });
    if (!hourly.ran || !hourly.outcome || !daily.ran || !daily.outcome) throw new Error('roll-ups did not run');
    const h = hourly.outcome.details as { from: string; to: string };
    const d = daily.outcome.details as { from: string; to: string };
    const sums = await database.pool.query<{ buckets: number; raw: number; days: number; hours: number }>(
      `SELECT (SELECT sum(total) FROM check_statuses_1h WHERE created_at >= $1 AND created_at < $2)::int AS buckets,
              (SELECT count(*) FROM check_statuses WHERE time >= $1 AND time < $2)::int AS raw,
              (SELECT sum(total) FROM check_statuses_1d WHERE created_at >= $3 AND created_at < $4)::int AS days,
              (SELECT sum(total) FROM check_statuses_1h WHERE created_at >= $3 AND created_at < $4)::int AS hours`,
      [h.from, h.to, d.from, d.to],
    );
    expect(sums.rows[0]!.buckets).toBe(sums.rows[0]!.raw);
    expect(sums.rows[0]!.days).toBe(sums.rows[0]!.hours);
    expect(sums.rows[0]!.raw).toBeGreaterThan(100);
    const marks = await database.pool.query<{ name: string; rolled_up_to: Date }>(
      'SELECT name, rolled_up_to FROM check_status_rollups ORDER BY name',
    );
    expect(marks.rows.map((m) => [m.name, m.rolled_up_to.toISOString()])).toEqual([
      ['1d', d.to],
      ['1h', h.to],
    ]);
    const [row] = await history(HEALTH_JOB_NAMES.rollupHourly);
    expect(row).toMatchObject({ status: 'SUCCESS', hostname: 'test-host', error_count: 0 });
    expect(row!.success_count).toBeGreaterThan(0);
    expect(row!.details).toHaveProperty('buckets');
    // Nothing new for the daily roll-up until another hour completes.
    expect(await health.rollupDaily()).toEqual({ ran: false });
  });

  it('deletes what is past retention (raw 30 days, hourly 90, daily 270) and records each job', async () => {
    const before = await database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM check_statuses WHERE time < now() - interval '30 days'",
    );
    expect(before.rows[0]!.n).toBeGreaterThan(0);
    const runs = await jobs().retention();
    expect(runs.every((run) => run.ran && run.status === 'SUCCESS')).toBe(true);
    const left = await database.pool.query<{ raw: number; h: number; d: number; recent: number }>(
      `SELECT (SELECT count(*) FROM check_statuses WHERE time < now() - interval '30 days')::int AS raw,
              (SELECT count(*) FROM check_statuses_1h WHERE created_at < now() - interval '90 days')::int AS h,
              (SELECT count(*) FROM check_statuses_1d WHERE created_at < now() - interval '270 days')::int AS d,
              (SELECT count(*) FROM check_statuses)::int AS recent`,
    );
    expect(left.rows[0]).toMatchObject({ raw: 0, h: 0, d: 0 });
    expect(left.rows[0]!.recent).toBeGreaterThan(100);
    expect(await history(HEALTH_JOB_NAMES.deleteRaw)).toEqual([
      expect.objectContaining({ status: 'SUCCESS', success_count: before.rows[0]!.n }),
    ]);
    expect((await history(HEALTH_JOB_NAMES.deleteHourly))[0]).toMatchObject({ success_count: 1 });
    expect((await history(HEALTH_JOB_NAMES.deleteDaily))[0]).toMatchObject({ success_count: 1 });
    const view = await database.pool.query('SELECT name FROM job_history_names ORDER BY name');
    expect(view.rows.map((r) => r.name)).toEqual(
      expect.arrayContaining([HEALTH_JOB_NAMES.rollupHourly, HEALTH_JOB_NAMES.deleteRaw]),
    );
  });

  it('refreshes the last-hour summary up to the late margin and keeps only its latest success in job history', async () => {
    // A run ten minutes ago is in the refreshed hour; the one at the seed's now() is within the
    // late margin (90 s), which the summary reads live instead.
    await database.pool.query(
      "INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, now() - interval '10 minutes', true, 5)",
      [checkId],
    );
    const health = jobs();
    expect(await health.refreshSummary()).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect(await health.refreshSummary()).toMatchObject({ ran: true, status: 'SUCCESS' });
    const rows = await history(HEALTH_JOB_NAMES.refreshSummary);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ success_count: 1 });
    const details = rows[0]!.details as { at: string; exactUntil: string };
    expect(Date.parse(details.at) - Date.parse(details.exactUntil)).toBe(90_000);
    const summary = await database.pool.query('SELECT passed + failed AS runs FROM check_status_summary_1h');
    expect(summary.rows).toEqual([{ runs: 1 }]);
  });

  it('skips a job another process holds the lock of, and one that just ran elsewhere', async () => {
    const holder = await database.pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [JOB_LOCK_SPACE, HEALTH_JOB_NAMES.rollupHourly]);
      expect(await jobs().rollupHourly()).toEqual({ ran: false });
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1, hashtext($2))', [
        JOB_LOCK_SPACE,
        HEALTH_JOB_NAMES.rollupHourly,
      ]);
      holder.release();
    }
    expect(await history(HEALTH_JOB_NAMES.rollupHourly)).toHaveLength(1);
    // Retention ran in the previous test; with a one-day gap it is skipped now.
    const again = await jobs().retention(DAY);
    expect(again.every((run) => !run.ran)).toBe(true);
  });
});
