import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, makeDataDir, runCli, startLookout, type LookoutServer } from './support/lookout-server.js';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'Lookout-admin-e2e-1';
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };

/** The URL of the embedded PostgreSQL a running server started, from its log and data directory. */
async function embeddedDatabaseUrl(server: LookoutServer): Promise<string> {
  const port = /"port":(\d+)[^\n]*Embedded PostgreSQL is running/.exec(server.output())?.[1];
  if (!port) throw new Error(`No embedded PostgreSQL port in the log:\n${server.output()}`);
  const credentials = JSON.parse(await readFile(path.join(server.dataDir, 'postgres-credentials.json'), 'utf8')) as {
    user: string;
    password: string;
  };
  return `postgres://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/lookout`;
}

async function json<T>(response: Response): Promise<T> {
  const body = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${response.url}: ${body}`);
  return JSON.parse(body) as T;
}

/**
 * Issue 10, item 8: two servers on one database (two data directories, one DATABASE_URL). A
 * second server that generated its own secret key stops at start-up naming
 * LOOKOUT_SECRET_KEY; given the first one's key, it starts and accepts the recovery code the
 * first one issued.
 */
describe('replicas on one database share one secret key', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('refuses a replica with its own key, and a replica with the shared key takes the first one’s recovery codes', async () => {
    const firstData = await makeDataDir();
    const secondData = await makeDataDir();
    cleanups.push(firstData.remove, secondData.remove);
    const first = await startLookout({
      dataDir: firstData.dir,
      env: { LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL, LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    cleanups.push(() => first.stop());
    const databaseUrl = await embeddedDatabaseUrl(first);

    const refused = await runCli(['serve'], {
      DATABASE_URL: databaseUrl,
      LOOKOUT_DATA_DIR: secondData.dir,
      PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
    });
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain(
      'LOOKOUT_SECRET_KEY differs from the key the other Lookout servers on this database use',
    );
    expect(refused.output).toContain(path.join(secondData.dir, 'secret-key'));

    const sharedKey = (await readFile(path.join(firstData.dir, 'secret-key'), 'utf8')).trim();
    const second = await startLookout({
      dataDir: secondData.dir,
      env: { DATABASE_URL: databaseUrl, LOOKOUT_SECRET_KEY: sharedKey },
    });
    // Stopped before the first server, whose PostgreSQL it uses.
    cleanups.push(() => second.stop());

    // The admin signs in on the first server and has it issue a recovery code for themselves.
    const flow = await json<{ id: string }>(await fetch(`${first.url}/api/.ory/self-service/login/api`));
    const login = await json<{ session_token: string; session: { identity: { id: string } } }>(
      await fetch(`${first.url}/api/.ory/self-service/login?flow=${flow.id}`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ method: 'password', identifier: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
      }),
    );
    const issued = await json<{ recovery_link: string; recovery_code: string }>(
      await fetch(`${first.url}/api/.ory/admin/recovery/code`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, authorization: `Bearer ${login.session_token}` },
        body: JSON.stringify({ identity_id: login.session.identity.id, flow_type: 'api' }),
      }),
    );
    const recoveryFlow = new URL(issued.recovery_link).searchParams.get('flow');

    // The second server takes the code: it keys codes with the same secret.
    const recovered = await fetch(`${second.url}/api/.ory/self-service/recovery?flow=${recoveryFlow}`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ method: 'code', code: issued.recovery_code }),
    });
    const body = await json<{ continue_with: { action: string; ory_session_token?: string }[] }>(recovered);
    const token = body.continue_with.find((step) => step.action === 'set_ory_session_token')?.ory_session_token;
    expect(token).toBeDefined();
    const whoami = await fetch(`${second.url}/api/.ory/sessions/whoami`, { headers: { 'x-session-token': token! } });
    expect(whoami.status).toBe(200);
  });
});

/** How often the test canary's checks run, and how long its slow target takes to answer. */
const INTERVAL_MS = 10_000;
const SLOW_ANSWER_MS = 2_000;
/** LOOKOUT_CHECK_TIMEOUT of both replicas: a claim's lease is this plus 30 s. */
const CHECK_TIMEOUT = '4s';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * What the checks call: `/fast` answers at once, `/slow` after SLOW_ANSWER_MS, so a run of the
 * slow check is still under way when its replica is killed. Each arrival is recorded.
 */
async function startTarget() {
  const arrivals: { path: string; at: number }[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    arrivals.push({ path: request.url ?? '', at: Date.now() });
    open.add(response);
    response.on('close', () => open.delete(response));
    const answer = () => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    if (request.url === '/slow') setTimeout(answer, SLOW_ANSWER_MS);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * GET /api/health on a server every 250 ms, the way a load balancer's clients would call it,
 * without waiting for one answer before sending the next (a stopped process delays them).
 */
function pollHealth(server: LookoutServer) {
  const results: { sentAt: number; ok: boolean; detail: string }[] = [];
  const pending = new Set<Promise<void>>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const sentAt = Date.now();
      const call: Promise<void> = fetch(`${server.url}/api/health`)
        .then(async (response) => {
          results.push({ sentAt, ok: response.status === 200, detail: `${response.status} ${await response.text()}` });
        })
        .catch((error: unknown) => {
          results.push({ sentAt, ok: false, detail: String(error) });
        })
        .finally(() => pending.delete(call));
      pending.add(call);
      await sleep(250);
    }
  })();
  return {
    results,
    /** Stops sending and waits for the answers still due. */
    stop: async () => {
      running = false;
      await loop;
      await Promise.all(pending);
    },
  };
}

/** Start times of a check's stored runs, oldest first. */
async function runTimes(db: pg.Client, checkId: string): Promise<{ time: number; status: boolean }[]> {
  const { rows } = await db.query<{ time: Date; status: boolean }>(
    'SELECT time, status FROM check_statuses WHERE check_id = $1 ORDER BY time',
    [checkId],
  );
  return rows.map((row) => ({ time: row.time.getTime(), status: row.status }));
}

/** Seconds between successive runs, for messages that show what happened. */
const gapsOf = (times: number[]) => times.slice(1).map((time, index) => (time - times[index]!) / 1000);

/**
 * Issue 20 item 7: N stateless replicas on one database. Two `lookout serve` processes share
 * one DATABASE_URL (a PostgreSQL of the test's own) and one LOOKOUT_SECRET_KEY, started
 * together. A canary with two checks every 10 s runs once per slot, never twice; after
 * `kill -9` of one replica the other runs every check on, including the run the dead one had
 * claimed (once its lease ends); a request in flight on the killed one is the only one that
 * fails; and the lookout-self canary, whose address is the dead replica's (it started last),
 * stays healthy because each replica runs it against itself.
 */
describe('two replicas on one DATABASE_URL', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('runs each check once per slot, and after kill -9 of one replica the other runs every check and serves every request', async () => {
    // A PostgreSQL of the test's own: the replicas share it, and it outlives any one of them.
    const postgres = await startTestPostgres({ prefix: 'lookout-e2e-' });
    cleanups.push(postgres.stop);
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    cleanups.push(() => db.end());
    const target = await startTarget();
    cleanups.push(target.close);

    // Started together, as an orchestrator starts replicas: the migrations, the first admin
    // and the self canary are each done once.
    const env = {
      DATABASE_URL: postgres.url,
      LOOKOUT_SECRET_KEY: randomBytes(32).toString('hex'),
      LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL,
      LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOOKOUT_CHECK_TIMEOUT: CHECK_TIMEOUT,
    };
    const replicas = await Promise.all(
      [1, 2].map(async () => {
        const data = await makeDataDir();
        cleanups.push(data.remove);
        const server = await startLookout({ dataDir: data.dir, env });
        cleanups.push(() => server.stop());
        return server;
      }),
    );
    for (const replica of replicas) {
      await waitFor(
        'the check scheduler',
        () => replica.output().includes('Check scheduler started') || undefined,
        30_000,
      );
    }

    // The replica that started last wrote its address into lookout-self: that one dies.
    const selfCanary = async () =>
      (
        await db.query<{ id: string; url: string }>(
          `SELECT id, spec->'http'->0->>'url' AS url FROM canaries
           WHERE name = 'lookout-self' AND source = 'System' AND deleted_at IS NULL`,
        )
      ).rows;
    const selfCanaries = await selfCanary();
    expect(selfCanaries).toHaveLength(1);
    const self = selfCanaries[0]!;
    expect(replicas.filter((replica) => replica.output().includes('Applied database migrations'))).toHaveLength(1);
    const identities = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM identities');
    expect(identities.rows[0]!.n).toBe(1);
    const victim = replicas.find((replica) => self.url.includes(`:${replica.port}/`))!;
    const survivor = replicas.find((replica) => replica !== victim)!;
    expect(victim).toBeDefined();

    const flow = await json<{ id: string }>(await fetch(`${victim.url}/api/.ory/self-service/login/api`));
    const login = await json<{ session_token: string }>(
      await fetch(`${victim.url}/api/.ory/self-service/login?flow=${flow.id}`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ method: 'password', identifier: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
      }),
    );
    // Sessions live in the database: the token signed in on one replica works on the other.
    const bearer = { authorization: `Bearer ${login.session_token}` };
    const admin = { ...JSON_HEADERS, ...bearer };
    const applied = await json<{ checks: { id: string; name: string }[] }>(
      await fetch(`${survivor.url}/api/canary/apply`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({
          apiVersion: 'canaries.flanksource.com/v1',
          kind: 'Canary',
          metadata: { name: 'replicas' },
          spec: {
            interval: INTERVAL_MS / 1000,
            http: [
              { name: 'fast', url: `${target.base}/fast`, responseCodes: [200] },
              { name: 'slow', url: `${target.base}/slow`, responseCodes: [200] },
            ],
          },
        }),
      }),
    );
    const appliedAt = Date.now();
    const fast = applied.checks.find((check) => check.name === 'fast')!.id;
    const slow = applied.checks.find((check) => check.name === 'slow')!.id;
    const pollers = new Map(replicas.map((replica) => [replica, pollHealth(replica)]));
    cleanups.push(async () => {
      for (const poller of pollers.values()) await poller.stop();
    });

    // Both replicas claim and run checks for a few slots.
    await sleep(appliedAt + 2.5 * INTERVAL_MS - Date.now());

    // The slow check's next run goes to the victim: the survivor is paused (SIGSTOP) from just
    // before the run is due until the victim has claimed it. Otherwise which replica claims a
    // run is a race, and the test needs the victim to die holding one.
    const due = await waitFor(
      'the slow check to be idle until its next run',
      async () => {
        const { rows } = await db.query<{ next_runtime: Date }>(
          'SELECT next_runtime FROM checks WHERE id = $1 AND claimed_by IS NULL',
          [slow],
        );
        const next = rows[0]?.next_runtime.getTime();
        return next !== undefined && next - Date.now() > 1_000 ? next : undefined;
      },
      INTERVAL_MS + 5_000,
    );
    const slowArrivals = () => target.arrivals.filter((arrival) => arrival.path === '/slow').length;
    const before = slowArrivals();
    await sleep(due - 500 - Date.now());
    process.kill(survivor.process.pid!, 'SIGSTOP');
    try {
      await waitFor('the victim to call /slow', () => slowArrivals() > before || undefined, 5_000);
    } finally {
      process.kill(survivor.process.pid!, 'SIGCONT');
    }
    const claim = (
      await db.query<{ claimed_by: string; claimed_until: Date }>(
        'SELECT claimed_by, claimed_until FROM checks WHERE id = $1',
        [slow],
      )
    ).rows[0]!;
    expect(claim.claimed_by).toContain(`:${victim.process.pid}:`);

    // A request in flight on the victim when it dies: Run Now of the slow check, which waits
    // for /slow's answer inside the victim.
    const inFlight = fetch(`${victim.url}/api/canary/run/check/${slow}`, { method: 'POST', headers: bearer }).then(
      (response) => `answered ${response.status}`,
      (error: unknown) => `failed: ${String(error)}`,
    );
    await waitFor('Run Now to call /slow', () => slowArrivals() > before + 1 || undefined, 5_000).catch(
      async (error: unknown) => {
        throw new Error(`${String(error)}; Run Now ${await inFlight}`);
      },
    );
    // The victim's other claims (a fast run due at the same moment) are finished and stored.
    await waitFor(
      'the victim to hold no claim but the slow check',
      async () =>
        (
          await db.query<{ n: number }>('SELECT count(*)::int AS n FROM checks WHERE claimed_by = $1 AND id <> $2', [
            claim.claimed_by,
            slow,
          ])
        ).rows[0]!.n === 0 || undefined,
      2_000,
    );
    // Callers stop sending to the victim (a load balancer takes it out), then it is killed
    // with its slow run and its Run Now still under way.
    await pollers.get(victim)!.stop();
    const killedAt = Date.now();
    process.kill(victim.process.pid!, 'SIGKILL');
    await victim.exited;
    expect(slowArrivals()).toBe(before + 2);
    expect(await inFlight).toMatch(/^failed/);

    // lookout-self still names the dead replica, and its next run (made due now, rather than
    // in up to a minute) is healthy: the survivor checks its own /api/health and database.
    const [selfAfter] = await selfCanary();
    expect(selfAfter!.url).toContain(`:${victim.port}/`);
    await db.query('UPDATE checks SET next_runtime = now() WHERE canary_id = $1 AND deleted_at IS NULL', [self.id]);
    const selfChecks = (
      await db.query<{ id: string; name: string }>(
        'SELECT id, name FROM checks WHERE canary_id = $1 AND deleted_at IS NULL',
        [self.id],
      )
    ).rows;
    expect(selfChecks.map((check) => check.name).sort()).toEqual([
      'localhost-dns',
      'lookout-api-health',
      'lookout-postgres',
    ]);
    for (const check of selfChecks) {
      const run = await waitFor(
        `the survivor to run lookout-self/${check.name}`,
        async () => (await runTimes(db, check.id)).find((entry) => entry.time > killedAt),
        15_000,
      );
      expect(run.status, check.name).toBe(true);
    }
    // The survivor picks the killed run up once its lease ends, and not before: nothing else
    // tells it that the victim is gone.
    const pickedUp = await waitFor(
      'the survivor to run the slow check the victim had claimed',
      async () => (await runTimes(db, slow)).find((run) => run.time > killedAt),
      claim.claimed_until.getTime() - Date.now() + 15_000,
    );
    expect(pickedUp.time).toBeGreaterThanOrEqual(claim.claimed_until.getTime() - 1_000);
    expect(pickedUp.status).toBe(true);

    // Run Now of it on the survivor also checks the survivor.
    const apiCheck = selfChecks.find((check) => check.name === 'lookout-api-health')!.id;
    const runNow = await json<{ result: { status: boolean; message: string } }>(
      await fetch(`${survivor.url}/api/canary/run/check/${apiCheck}`, { method: 'POST', headers: bearer }),
    );
    expect(runNow.result, runNow.result.message).toMatchObject({ status: true });

    // The fast check ran once per slot all along, before and after the kill: after its first
    // run (at once, when it was created) one run every 10 s, never two in one slot, none missed.
    const end = Date.now();
    const fastRuns = await runTimes(db, fast);
    const fastTimes = fastRuns.slice(1).map((run) => run.time);
    const fastGaps = gapsOf(fastTimes);
    expect(fastRuns.every((run) => run.status)).toBe(true);
    expect(
      fastGaps.every((gap) => gap >= 5 && gap <= 15),
      `gaps between fast runs (s): ${fastGaps.join(', ')}`,
    ).toBe(true);
    expect(fastTimes.filter((time) => time > killedAt).length).toBeGreaterThanOrEqual(
      Math.floor((end - killedAt) / INTERVAL_MS),
    );
    expect(end - fastTimes[fastTimes.length - 1]!).toBeLessThan(15_000);
    // The slow check likewise until the kill, which lost the run under way and nothing else.
    const slowTimes = (await runTimes(db, slow)).map((run) => run.time);
    const slowBeforeKill = slowTimes.slice(1).filter((time) => time < killedAt);
    const slowGaps = gapsOf(slowBeforeKill);
    expect(slowBeforeKill.length).toBeGreaterThanOrEqual(2);
    expect(
      slowGaps.every((gap) => gap >= 5 && gap <= 15),
      `gaps between slow runs (s): ${slowGaps.join(', ')}`,
    ).toBe(true);

    // Every request to the survivor was answered, during the pause and after the kill; every
    // request to the victim before it was killed too.
    const survivorPoller = pollers.get(survivor)!;
    await survivorPoller.stop();
    const failedOnSurvivor = survivorPoller.results.filter((result) => !result.ok);
    expect(failedOnSurvivor, JSON.stringify(failedOnSurvivor.slice(0, 3))).toEqual([]);
    expect(survivorPoller.results.filter((result) => result.sentAt > killedAt).length).toBeGreaterThan(40);
    const failedOnVictim = pollers.get(victim)!.results.filter((result) => !result.ok);
    expect(failedOnVictim, JSON.stringify(failedOnVictim.slice(0, 3))).toEqual([]);
    const summary = await json<{ checks_summary: { id: string; status: string }[] }>(
      await fetch(`${survivor.url}/api/canary/api/summary`, { headers: bearer }),
    );
    expect(summary.checks_summary.filter((check) => check.id === fast || check.id === slow)).toHaveLength(2);
  }, 180_000);
});
