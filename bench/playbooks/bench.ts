// Benchmark of the playbook executor (apps/server/src/modules/playbooks, ADR 0033):
// BENCH_RUNS runs (200) of three actions — exec `echo` in the sandbox, http POST to a local
// server, sql `SELECT` — queued at once, run by one executor process (BENCH_ACTIONS action
// workers, 5), which is SIGKILLed once half of the runs have finished (BENCH_KILL=0 to skip) and
// started again. Reports runs per second (first queued to last finished), queue-to-start latency
// (run created to its first action started: p50, p95, p99), and the kill's outcome: runs lost
// (never finished) and actions run twice (http requests per run, action rows per run).
// Results go to stdout and bench/results/playbooks.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { parsePlaybookSpec } from '@lookout/contracts';
import { pino } from 'pino';
import { createDatabase } from '../../apps/server/src/db/database.js';
import { runMigrations } from '../../apps/server/src/db/migrate.js';
import { insertRun } from '../../apps/server/src/modules/playbooks/playbook-runs-repository.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const WORKER = path.join(root, 'apps/server/test/playbook-executor-worker.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const int = (name: string, fallback: number) => Number.parseInt(process.env[name] ?? '', 10) || fallback;
const RUNS = int('BENCH_RUNS', 200);
const ACTIONS = int('BENCH_ACTIONS', 5);
const KILL = process.env.BENCH_KILL !== '0';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main() {
  const logger = pino({ level: 'warn' });
  const embedded = await startTestPostgres({ prefix: 'lookout-bench-playbooks-', logger });
  const database = createDatabase({ url: embedded.url, logger, max: 4 });
  const pool = database.pool;
  await runMigrations(pool, logger);
  const hits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = (request.url ?? '').split('/').pop() ?? '';
      hits.set(id, (hits.get(id) ?? 0) + 1);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const parsed = parsePlaybookSpec({
    actions: [
      { name: 'echo', exec: { script: 'echo "run {{ .run.id }}"' } },
      { name: 'call', http: { url: `${url}/runs/{{ .run.id }}`, method: 'POST', body: '{}' } },
      { name: 'query', sql: { url: embedded.url, query: 'SELECT 1 AS one' } },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO playbooks (name, spec) VALUES ('bench', $1) RETURNING id`,
    [parsed.spec],
  );
  const children: ChildProcess[] = [];
  const startWorker = () =>
    new Promise<ChildProcess>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', TSX, WORKER], {
        env: {
          ...process.env,
          PLAYBOOK_DATABASE_URL: embedded.url,
          PLAYBOOK_SANDBOX: '1',
          PLAYBOOK_SETTINGS: JSON.stringify({
            runConcurrency: 2,
            actionConcurrency: ACTIONS,
            pollMs: 200,
            leaseMs: 3000,
            reapEveryMs: 500,
          }),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
      child.once('exit', (code, signal) =>
        reject(new Error(`the worker exited (${code ?? signal}) before it was ready`)),
      );
    });
  const open = async () =>
    (
      await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM playbook_runs WHERE status NOT IN ('completed','failed','cancelled','timed_out')`,
      )
    ).rows[0]!.n;

  let worker = await startWorker();
  const started = Date.now();
  for (let i = 0; i < RUNS; i++) {
    await insertRun(pool, {
      playbookId: rows[0]!.id,
      spec: parsed.spec,
      status: 'scheduled',
      parameters: {},
      createdBy: null,
      timeoutNanos: 600_000_000_000n,
    });
  }
  let killedAt: number | undefined;
  while ((await open()) > 0) {
    if (KILL && killedAt === undefined && (await open()) <= RUNS / 2) {
      worker.kill('SIGKILL');
      await new Promise((resolve) => worker.once('exit', resolve));
      killedAt = Date.now();
      worker = await startWorker();
    }
    await sleep(100);
  }
  const elapsed = (Date.now() - started) / 1000;
  const latency = (
    await pool.query<{ ms: number }>(
      `SELECT extract(epoch FROM (min(a.start_time) - r.created_at)) * 1000 AS ms
         FROM playbook_runs r JOIN playbook_run_actions a ON a.playbook_run_id = r.id GROUP BY r.id, r.created_at`,
    )
  ).rows
    .map((row) => Number(row.ms))
    .sort((a, b) => a - b);
  const statuses = Object.fromEntries(
    (
      await pool.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM playbook_runs GROUP BY status`,
      )
    ).rows.map((row) => [row.status, row.n]),
  );
  const duplicateRows = (
    await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM playbook_run_actions GROUP BY playbook_run_id, name HAVING count(*) > 1) d`,
    )
  ).rows[0]!.n;
  const failedReasons = (
    await pool.query<{ error: string }>(`SELECT DISTINCT error FROM playbook_run_actions WHERE status = 'failed'`)
  ).rows.map((row) => row.error);
  const result = {
    runs: RUNS,
    actionWorkers: ACTIONS,
    cpus: (await import('node:os')).cpus().length,
    seconds: Math.round(elapsed * 10) / 10,
    runsPerSecond: Math.round((RUNS / elapsed) * 10) / 10,
    queueToStartMs: {
      p50: Math.round(percentile(latency, 50)),
      p95: Math.round(percentile(latency, 95)),
      p99: Math.round(percentile(latency, 99)),
    },
    killed: KILL,
    statuses,
    lostRuns: RUNS - (statuses.completed ?? 0) - (statuses.failed ?? 0),
    httpCalledTwice: [...hits.values()].filter((count) => count > 1).length,
    actionRowsTwice: duplicateRows,
    failedReasons,
  };
  console.log(JSON.stringify(result, null, 2));
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(path.join(root, 'bench/results/playbooks.json'), `${JSON.stringify(result, null, 2)}\n`);
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  server.close();
  await database.close();
  await embedded.stop();
  process.exit(result.lostRuns === 0 && result.httpCalledTwice === 0 && duplicateRows === 0 ? 0 : 1);
}

await main();
