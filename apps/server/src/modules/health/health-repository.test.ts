import { checkEndpoint, listCanaryChecks, parseCanaryDocument, type CanarySpec } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createHealthRepository, type CheckResultRow, type HealthRepository } from './health-repository.js';
import { floorTo, HOUR_MS } from './health-rollup-fns.js';
import { createHealthService } from './health-service.js';

let database: TestDatabase;
let repository: HealthRepository;

beforeAll(async () => {
  database = await createTestDatabase();
  repository = createHealthRepository(database.pool);
});
afterAll(() => database.drop());

async function insertCanary(name: string, spec: unknown, extra: { labels?: object; source?: string } = {}) {
  const { rows } = await database.pool.query<{ id: string }>(
    'INSERT INTO canaries (name, spec, labels, source) VALUES ($1, $2, $3, $4) RETURNING id',
    [name, JSON.stringify(spec), extra.labels ? JSON.stringify(extra.labels) : null, extra.source ?? 'UI'],
  );
  return rows[0]!.id;
}

async function checksOf(canaryId: string) {
  const { rows } = await database.pool.query<{
    id: string;
    type: string;
    name: string;
    endpoint: string;
    schedule: string | null;
    labels: Record<string, string>;
    deleted: boolean;
    due: boolean;
  }>(
    `SELECT id, type, name, endpoint, schedule, labels, deleted_at IS NOT NULL AS deleted, next_runtime IS NOT NULL AS due
     FROM checks WHERE canary_id = $1 ORDER BY type, name`,
    [canaryId],
  );
  return rows;
}

const httpChecks = (count: number, prefix = 'c') =>
  Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}`, url: `http://127.0.0.1:1/${i}` }));

describe('deriving checks from a canary (trigger)', () => {
  it('creates one check per (type, name) with the canary labels, endpoint and schedule', async () => {
    const id = await insertCanary(
      'derive-a',
      {
        interval: 30,
        http: [{ name: 'home', url: 'http://u:secret@web.test/x', labels: { tier: 'web' } }],
        tcp: [{ name: 'db', endpoint: 'db.test:5432' }],
      },
      { labels: { team: 'sre', tier: 'any' } },
    );
    expect(await checksOf(id)).toEqual([
      expect.objectContaining({
        type: 'http',
        name: 'home',
        endpoint: 'http://u:***@web.test/x',
        schedule: '@every 30s',
        labels: { team: 'sre', tier: 'web' },
        deleted: false,
        due: true,
      }),
      expect.objectContaining({
        type: 'tcp',
        name: 'db',
        endpoint: 'db.test:5432',
        labels: { team: 'sre', tier: 'any' },
      }),
    ]);
  });

  it('updates kept checks in place, soft-deletes removed ones and brings back a re-added one', async () => {
    const id = await insertCanary('derive-b', { http: httpChecks(2) });
    const before = await checksOf(id);
    await database.pool.query(`UPDATE canaries SET spec = $2 WHERE id = $1`, [
      id,
      JSON.stringify({ http: httpChecks(1) }),
    ]);
    const after = await checksOf(id);
    expect(after.map((c) => [c.name, c.deleted])).toEqual([
      ['c0', false],
      ['c1', true],
    ]);
    expect(after[0]!.id).toBe(before[0]!.id);
    await database.pool.query(`UPDATE canaries SET spec = $2 WHERE id = $1`, [
      id,
      JSON.stringify({ http: httpChecks(2) }),
    ]);
    const again = await checksOf(id);
    expect(again.map((c) => c.deleted)).toEqual([false, false]);
    expect(again[1]!.id).toBe(before[1]!.id);
  });

  it('soft-deletes every check of a deleted canary and stops scheduling a paused one', async () => {
    const deleted = await insertCanary('derive-c', { http: httpChecks(2) });
    await database.pool.query('UPDATE canaries SET deleted_at = now() WHERE id = $1', [deleted]);
    expect((await checksOf(deleted)).every((c) => c.deleted && !c.due)).toBe(true);
    const paused = await insertCanary('derive-d', { replicas: 0, http: httpChecks(1) });
    expect((await checksOf(paused))[0]).toMatchObject({ deleted: false, due: false });
  });

  it('refuses what it cannot derive, naming the field (defence for writes that skip the API)', async () => {
    await expect(insertCanary('derive-e', { http: [{ url: 'http://x.test' }] })).rejects.toThrow(
      'Invalid canary: spec.http[0].name: is required',
    );
    await expect(insertCanary('derive-f', { http: [{ name: 'a' }, { name: 'a' }] })).rejects.toMatchObject({
      code: '23514',
      message: expect.stringContaining('spec.http[1].name'),
    });
  });

  it('records each derivation in job history for canaries_with_status', async () => {
    const id = await insertCanary('derive-g', { http: httpChecks(3) });
    const { rows } = await database.pool.query(
      'SELECT checks_count, job_name, job_status, job_details FROM canaries_with_status WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({
      checks_count: 3,
      job_name: 'SyncCanary',
      job_status: 'SUCCESS',
      job_details: { checks: 3, removed: 0, paused: false },
    });
  });

  it('computes the same endpoint in SQL as checkEndpoint in contracts', async () => {
    const spec = {
      http: [{ name: 'h', url: 'https://user:pw@example.com/path?q=1' }],
      tcp: [{ name: 't', endpoint: 'db.internal:5432' }],
      icmp: [{ name: 'i', endpoint: '10.0.0.1' }],
      dns: [
        { name: 'd1', query: 'example.com', querytype: 'MX', server: '1.1.1.1', port: 5353 },
        { name: 'd2', query: 'localhost' },
      ],
      exec: [{ name: 'e', script: 'echo one\necho two' }],
      postgres: [{ name: 'p', url: 'postgres://app:pw@db:5432/app' }],
      redis: [{ name: 'r', addr: 'cache:6379' }],
      folder: [{ name: 'f', path: '/var/backups' }],
      prometheus: [{ name: 'pr', url: 'http://prom:9090/', query: 'up' }],
    } as const;
    const parsed = parseCanaryDocument({
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Canary',
      metadata: { name: 'x' },
      spec,
    });
    if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('; '));
    const id = await insertCanary('derive-endpoints', spec);
    const stored = new Map((await checksOf(id)).map((c) => [`${c.type}/${c.name}`, c.endpoint]));
    for (const entry of listCanaryChecks(parsed.document.spec as CanarySpec)) {
      expect(stored.get(`${entry.type}/${entry.check.name}`), `${entry.type}/${entry.check.name}`).toBe(
        checkEndpoint(entry),
      );
    }
  });
});

describe('claiming due checks', () => {
  beforeEach(async () => {
    // Only this block's checks are due.
    await database.pool.query('UPDATE checks SET next_runtime = NULL');
  });

  it('never hands one check to two workers, even when they claim at the same time', async () => {
    const id = await insertCanary('claim-a', { http: httpChecks(300, 'claim') });
    expect((await checksOf(id)).length).toBe(300);
    // Worker A claims inside an open transaction, so its rows stay locked while B claims.
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      const a = await repository.claimDueChecks({ workerId: 'a', limit: 20, leaseMs: 60_000 }, client);
      const b = await repository.claimDueChecks({ workerId: 'b', limit: 20, leaseMs: 60_000 });
      await client.query('COMMIT');
      expect(a).toHaveLength(20);
      expect(b).toHaveLength(20);
      const aIds = new Set(a.map((check) => check.id));
      expect(b.filter((check) => aIds.has(check.id))).toEqual([]);
    } finally {
      client.release();
    }
    // Then both race for the rest in small batches.
    const claimed: string[] = [];
    const worker = async (workerId: string) => {
      for (;;) {
        const batch = await repository.claimDueChecks({ workerId, limit: 7, leaseMs: 60_000 });
        if (batch.length === 0) return;
        claimed.push(...batch.map((check) => check.id));
      }
    };
    await Promise.all([worker('a'), worker('b'), worker('c')]);
    expect(claimed.length).toBe(260);
    expect(new Set(claimed).size).toBe(260);
  });

  it('lets another worker claim a check whose lease ran out, and the late result keeps the new lease', async () => {
    const id = await insertCanary('claim-b', { interval: 60, http: httpChecks(1, 'lease') });
    const [check] = await checksOf(id);
    const [first] = await repository.claimDueChecks({ workerId: 'crashed', limit: 5, leaseMs: 300 });
    expect(first?.id).toBe(check!.id);
    expect(await repository.claimDueChecks({ workerId: 'other', limit: 5, leaseMs: 60_000 })).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const [second] = await repository.claimDueChecks({ workerId: 'other', limit: 5, leaseMs: 60_000 });
    expect(second?.id).toBe(check!.id);
    // The first worker's result arrives late: stored, but it does not reschedule the check.
    const late: CheckResultRow = {
      checkId: check!.id,
      time: new Date(),
      status: true,
      invalid: false,
      durationMs: 5,
      message: 'ok',
      error: null,
      details: null,
      nextRuntime: new Date(Date.now() + 999_000),
    };
    await repository.recordResults([late], 'crashed');
    const { rows } = await database.pool.query<{ claimed_by: string; status: string; far: boolean }>(
      "SELECT claimed_by, status, next_runtime > now() + interval '900 seconds' AS far FROM checks WHERE id = $1",
      [check!.id],
    );
    expect(rows[0]).toEqual({ claimed_by: 'other', status: 'healthy', far: false });
  });
});

describe('storing results', () => {
  it('writes statuses in one batch, sets status and next run, and stamps a transition', async () => {
    const id = await insertCanary('store-a', { http: httpChecks(2, 'store') });
    const [a, b] = await checksOf(id);
    await database.pool.query('UPDATE checks SET next_runtime = NULL WHERE canary_id <> $1', [id]);
    const claimed = await repository.claimDueChecks({ workerId: 'w', limit: 10, leaseMs: 60_000 });
    expect(claimed.map((c) => c.id).sort()).toEqual([a!.id, b!.id].sort());
    const row = (checkId: string, status: boolean, at: number): CheckResultRow => ({
      checkId,
      time: new Date(at),
      status,
      invalid: false,
      durationMs: 12,
      message: status ? 'ok' : 'expected status 200, got 500',
      error: status ? null : 'HTTP 500',
      details: { code: status ? 200 : 500 },
      nextRuntime: new Date(at + 60_000),
    });
    const t0 = Date.now() - 10_000;
    await repository.recordResults([row(a!.id, true, t0), row(b!.id, false, t0)], 'w');
    const first = await database.pool.query<{ status: string; last_transition_time: Date; claimed_by: string | null }>(
      'SELECT status, last_transition_time, claimed_by FROM checks WHERE id = $1',
      [a!.id],
    );
    expect(first.rows[0]).toMatchObject({ status: 'healthy', claimed_by: null });
    const transition = first.rows[0]!.last_transition_time;
    await repository.recordResults([row(a!.id, true, t0 + 1000)], null);
    await repository.recordResults([row(a!.id, false, t0 + 2000)], null);
    const after = await database.pool.query<{ status: string; last_transition_time: Date }>(
      'SELECT status, last_transition_time FROM checks WHERE id = $1',
      [a!.id],
    );
    expect(after.rows[0]!.status).toBe('unhealthy');
    expect(after.rows[0]!.last_transition_time.getTime()).toBeGreaterThan(transition.getTime());
    const statuses = await database.pool.query(
      'SELECT status, duration, message, details FROM check_statuses WHERE check_id = $1 ORDER BY time',
      [a!.id],
    );
    expect(statuses.rows).toEqual([
      { status: true, duration: 12, message: 'ok', details: { code: 200 } },
      { status: true, duration: 12, message: 'ok', details: { code: 200 } },
      { status: false, duration: 12, message: 'expected status 200, got 500', details: { code: 500 } },
    ]);
  });

  it('skips the result of a check that was deleted meanwhile instead of failing the batch', async () => {
    const id = await insertCanary('store-b', { http: httpChecks(1, 'gone') });
    const [check] = await checksOf(id);
    await database.pool.query('DELETE FROM canaries WHERE id = $1', [id]);
    await expect(
      repository.recordResults(
        [
          {
            checkId: check!.id,
            time: new Date(),
            status: true,
            invalid: false,
            durationMs: 1,
            message: 'ok',
            error: null,
            details: null,
          },
        ],
        null,
      ),
    ).resolves.toBeUndefined();
  });
});

describe('roll-ups and the summary', () => {
  it('gives the same uptime from buckets as from raw rows, and exact percentiles for an hour', async () => {
    const id = await insertCanary('summary-a', { http: httpChecks(2, 'sum') });
    const [a, b] = await checksOf(id);
    const now = new Date(floorTo(new Date(), HOUR_MS).getTime() + 35 * 60_000);
    // Three days of statuses every 10 minutes; b fails every 7th run; durations 1..100 ms.
    await database.pool.query(
      `INSERT INTO check_statuses (check_id, time, status, duration, message)
       SELECT c.id, $1::timestamptz - interval '1 second' - (g * interval '10 minutes'),
              NOT (c.id = $3 AND g % 7 = 0), 1 + (g % 100), 'seed'
       FROM generate_series(0, 3 * 144) g CROSS JOIN (VALUES ($2::uuid), ($3::uuid)) c(id)`,
      [now, a!.id, b!.id],
    );
    const service = createHealthService({
      repository,
      runCheck: async () => ({ pass: true, durationMs: 0, message: '' }),
      resolveSecret: async () => '',
      settings: { checkTimeoutMs: 1000 },
      logger: pino({ level: 'silent' }),
      now: () => now,
    });
    const rawCounts = async (from: Date, to: Date) => {
      const { rows } = await database.pool.query<{ check_id: string; passed: number; failed: number }>(
        `SELECT check_id, count(*) FILTER (WHERE status)::int AS passed, count(*) FILTER (WHERE NOT status)::int AS failed
         FROM check_statuses WHERE check_id = ANY ($1::uuid[]) AND time >= $2 AND time < $3 GROUP BY check_id`,
        [[a!.id, b!.id], from, to],
      );
      return Object.fromEntries(rows.map((row) => [row.check_id, { passed: row.passed, failed: row.failed }]));
    };
    const summaryOf = async (timeRange: string) => {
      const response = await service.summary(['viewer'], { timeRange, canary_id: id });
      return Object.fromEntries(response.checks_summary.map((item) => [item.id, item]));
    };

    // Before any roll-up everything is raw.
    const raw2d = await summaryOf('2d');
    const from2d = new Date(now.getTime() - 2 * 86_400_000);
    const expected2dRaw = await rawCounts(from2d, now);
    expect(raw2d[b!.id]?.uptime).toMatchObject(expected2dRaw[b!.id]!);

    // Roll up to five minutes ago, as the hourly job would, then days.
    const mark = new Date(now.getTime() - 5 * 60_000);
    await repository.rollupHourly({ from: floorTo(new Date(now.getTime() - 4 * 86_400_000), HOUR_MS), to: mark });
    await repository.setRollupMark('1h', mark);
    await repository.rollupDaily({
      from: floorTo(new Date(now.getTime() - 4 * 86_400_000), 86_400_000),
      to: floorTo(mark, HOUR_MS),
    });
    await repository.setRollupMark('1d', floorTo(mark, HOUR_MS));

    // 2 days: the start rounds to the hour (now is hh:35, so it moves to the next hour).
    const rolled = await summaryOf('2d');
    const roundedFrom = new Date(floorTo(from2d, HOUR_MS).getTime() + HOUR_MS);
    const expected2d = await rawCounts(roundedFrom, now);
    for (const check of [a!, b!]) {
      expect(rolled[check.id]?.uptime).toMatchObject(expected2d[check.id]!);
    }
    expect(rolled[b!.id]!.uptime.failed).toBeGreaterThan(0);
    expect(rolled[a!.id]!.latency.p99).toBeGreaterThan(0);

    // One hour: raw only, exact percentiles of the six runs (durations 1..6 for g = 0..5).
    const hour = await summaryOf('1h');
    expect(hour[a!.id]?.uptime).toMatchObject({ passed: 6, failed: 0 });
    // rolling1h: the mean, 3.5 rounded.
    expect(hour[a!.id]?.latency).toEqual({ p95: 6, p97: 6, p99: 6, rolling1h: 4 });
    expect(hour[a!.id]?.uptime.last_pass).toBe(new Date(now.getTime() - 1000).toISOString());

    // The refreshed last-hour summary answers the default range while it is fresh. It is exact up
    // to its exactUntil (the refresh time minus the late margin); the rows after that are read
    // live, so a run stored after the refresh counts at once, and the range runs from the
    // refreshed hour's start to now.
    const snapshotAt = new Date(now.getTime() - 30_000);
    const exactUntil = new Date(snapshotAt.getTime() - 90_000);
    await repository.refreshLastHourSummary(snapshotAt, exactUntil);
    expect((await repository.rollupMarks()).lastHour).toEqual({ at: snapshotAt, exactUntil });
    await database.pool.query(
      "INSERT INTO check_statuses (check_id, time, status, duration, message) VALUES ($1, $2, false, 500, 'late')",
      [a!.id, new Date(now.getTime() - 10_000)],
    );
    const fromSnapshot = await service.summary(['viewer'], { canary_id: id });
    const snapshotFrom = new Date(snapshotAt.getTime() - HOUR_MS);
    expect(fromSnapshot.from).toBe(snapshotFrom.toISOString());
    expect(fromSnapshot.to).toBe(now.toISOString());
    const expectedLastHour = await rawCounts(snapshotFrom, new Date(now.getTime() + 1));
    expect(expectedLastHour[a!.id]).toEqual({ passed: 7, failed: 1 });
    const snapshotA = fromSnapshot.checks_summary.find((item) => item.id === a!.id);
    expect(snapshotA?.uptime).toMatchObject({
      ...expectedLastHour[a!.id],
      last_fail: new Date(now.getTime() - 10_000).toISOString(),
    });
    // Percentiles: the refreshed part's own (durations 2..7) and the live part's (1 and 500),
    // weighted by their runs: (6 x 7 + 2 x 500) / 8. The mean: (2 + ... + 7 + 1 + 500) / 8.
    expect(snapshotA?.latency).toEqual({ p95: 130, p97: 130, p99: 130, rolling1h: 66 });
    // One check's summary (the drawer, right after Run Now) is always computed live.
    const oneCheck = await service.summary(['viewer'], { check_id: a!.id });
    expect(oneCheck.checks_summary[0]?.uptime).toMatchObject({ passed: 6, failed: 1 });
    const live = await service.summary(['viewer'], {
      start: new Date(now.getTime() - 3_600_000).toISOString(),
      end: now.toISOString(),
      canary_id: id,
    });
    expect(live.checks_summary.find((item) => item.id === a!.id)?.uptime).toMatchObject({ passed: 6, failed: 1 });
    await repository.refreshLastHourSummary(now, new Date(now.getTime() - 90_000));
    const refreshed = await service.summary(['viewer'], { timeRange: 'now-1h', canary_id: id });
    expect(refreshed.checks_summary.find((item) => item.id === a!.id)?.uptime).toMatchObject({ passed: 6, failed: 1 });
    // A stale one (the workers stopped) is not used: the hour is computed live.
    const later = createHealthService({
      repository,
      runCheck: async () => ({ pass: true, durationMs: 0, message: '' }),
      resolveSecret: async () => '',
      settings: { checkTimeoutMs: 1000 },
      logger: pino({ level: 'silent' }),
      now: () => new Date(now.getTime() + 10 * 60_000),
    });
    const stale = await later.summary(['viewer'], { canary_id: id });
    expect(new Date(stale.to).getTime() - new Date(stale.from).getTime()).toBe(HOUR_MS);
  });

  it('shows the latest run of a check that did not run in the range', async () => {
    const id = await insertCanary('summary-b', { interval: 86_400, http: httpChecks(1, 'daily') });
    const [check] = await checksOf(id);
    const yesterday = new Date(Date.now() - 20 * HOUR_MS);
    await database.pool.query(
      "INSERT INTO check_statuses (check_id, time, status, duration, message) VALUES ($1, $2, false, 42, 'down')",
      [check!.id, yesterday],
    );
    const rows = await repository.checkSummary({
      slices: { raw: [{ from: new Date(Date.now() - HOUR_MS), to: new Date() }], hourly: [], daily: [] },
      to: new Date(),
      checkId: check!.id,
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ failed: 1, passed: 0, p95: 42, last_fail: yesterday.toISOString() });
  });
});

describe("one check's graph (GET /api/canary/api/graph)", () => {
  const serviceAt = (now: Date) =>
    createHealthService({
      repository,
      runCheck: async () => ({ pass: true, durationMs: 0, message: '' }),
      resolveSecret: async () => '',
      settings: { checkTimeoutMs: 1000 },
      logger: pino({ level: 'silent' }),
      now: () => now,
    });

  it('answers single runs, windows of raw rows, and windows of hourly and daily buckets with the same totals', async () => {
    // As on a fresh install: no roll-up has run (the rows below are older than any mark would
    // allow, as no scheduler writes them).
    await database.pool.query('DELETE FROM check_status_rollups');
    const id = await insertCanary('graph-a', { http: httpChecks(1, 'graph') });
    const [check] = await checksOf(id);
    const now = new Date(floorTo(new Date(), HOUR_MS).getTime() + 35 * 60_000);
    // Ten days, one run every 5 minutes; every 10th fails; durations 10, 20, ... 100 ms.
    await database.pool.query(
      `INSERT INTO check_statuses (check_id, time, status, duration, message)
       SELECT $2, $1::timestamptz - interval '1 second' - (g * interval '5 minutes'), g % 10 <> 3, 10 * (1 + g % 10), 'seed'
       FROM generate_series(0, 10 * 288 - 1) g`,
      [now, check!.id],
    );
    const service = serviceAt(now);
    const sum = (points: { passed: number; failed: number }[]) =>
      points.reduce((total, point) => ({ passed: total.passed + point.passed, failed: total.failed + point.failed }), {
        passed: 0,
        failed: 0,
      });

    // The last hour holds 12 runs: each one is a point, oldest first.
    const hour = await service.graph(['viewer'], { check: check!.id, count: 300, start: '1h' });
    expect(hour.window).toBe(0);
    expect(hour.status).toHaveLength(12);
    expect(hour.status[11]).toEqual({
      time: new Date(now.getTime() - 1000).toISOString(),
      status: true,
      duration: 10,
      passed: 1,
      failed: 0,
    });
    expect(hour.status.map((point) => point.time)).toEqual([...hour.status.map((point) => point.time)].sort());
    expect(hour.uptime).toMatchObject({ ...sum(hour.status), passed: 11, failed: 1 });
    expect(hour.latency).toEqual({ p95: 100, p97: 100, p99: 100, rolling1h: 48 });
    expect(hour.runnerName).toBe('local');

    // Asking for 4 points: windows of 15 minutes, each with 3 runs (the first and last may be
    // partial), the mean duration, and failed when one of its runs failed.
    const four = await service.graph(['viewer'], { check: check!.id, count: 4, start: '1h' });
    expect(four.window).toBe(900);
    expect(four.status.length).toBeLessThanOrEqual(5);
    expect(sum(four.status)).toEqual({ passed: 11, failed: 1 });
    expect(four.status.filter((point) => !point.status)).toHaveLength(1);

    // Two days from raw rows (no roll-up yet): windows of 15 minutes (2 days / 300).
    const raw2d = await service.graph(['viewer'], { check: check!.id, count: 300, start: '2d' });
    expect(raw2d.window).toBe(900);
    expect(sum(raw2d.status)).toEqual({ passed: raw2d.uptime.passed, failed: raw2d.uptime.failed });
    expect(raw2d.uptime.passed + raw2d.uptime.failed).toBe(576);

    // Roll up, as the jobs would; then 9 days read from hourly buckets (windows of an hour), and
    // with 5 points from daily buckets (windows of a week): the same runs in every case.
    const mark = new Date(now.getTime() - 5 * 60_000);
    await repository.rollupHourly({ from: floorTo(new Date(now.getTime() - 11 * 86_400_000), HOUR_MS), to: mark });
    await repository.setRollupMark('1h', mark);
    await repository.rollupDaily({
      from: floorTo(new Date(now.getTime() - 11 * 86_400_000), 86_400_000),
      to: floorTo(mark, HOUR_MS),
    });
    await repository.setRollupMark('1d', floorTo(mark, HOUR_MS));
    // Whole buckets: the range starts at a day boundary, so buckets and raw rows cover the same runs.
    const start = floorTo(new Date(now.getTime() - 9 * 86_400_000), 86_400_000).toISOString();
    const { rows } = await database.pool.query<{ passed: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE status)::int AS passed, count(*) FILTER (WHERE NOT status)::int AS failed
       FROM check_statuses WHERE check_id = $1 AND time >= $2`,
      [check!.id, start],
    );
    const hourly = await service.graph(['viewer'], { check: check!.id, count: 300, start });
    expect(hourly.window).toBe(3600);
    expect(sum(hourly.status)).toEqual(rows[0]);
    expect(hourly.uptime).toMatchObject(rows[0]!);
    const weekly = await service.graph(['viewer'], { check: check!.id, count: 5, start });
    expect(weekly.window).toBe(7 * 86_400);
    expect(weekly.status.length).toBeLessThanOrEqual(3);
    expect(sum(weekly.status)).toEqual(rows[0]);
    expect(weekly.status.every((point) => point.duration! > 10 && point.duration! < 100)).toBe(true);
  });

  it('answers an empty graph for a range without runs, and 404 for an unknown check', async () => {
    const id = await insertCanary('graph-b', { http: httpChecks(1, 'quiet') });
    const [check] = await checksOf(id);
    const service = serviceAt(new Date());
    const empty = await service.graph(['viewer'], { check: check!.id, count: 300, start: '1h' });
    expect(empty).toMatchObject({
      window: 0,
      status: [],
      uptime: { passed: 0, failed: 0, last_pass: null, last_fail: null },
      latency: { p95: null, p97: null, p99: null, rolling1h: null },
    });
    await expect(
      service.graph(['viewer'], { check: '01a1fefe-8cb3-71f1-bdca-1f41fa7808d7', count: 300 }),
    ).rejects.toMatchObject({
      statusCode: 404,
      message: "Check '01a1fefe-8cb3-71f1-bdca-1f41fa7808d7' was not found.",
    });
    await expect(service.graph(['viewer'], { check: check!.id, count: 300, start: 'soon' })).rejects.toMatchObject({
      statusCode: 400,
      message: "start: 'soon' is not a time such as now-1h, 1h, 7d or an ISO time",
    });
  });
});
