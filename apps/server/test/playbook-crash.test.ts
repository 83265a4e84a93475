import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parsePlaybookSpec } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRun } from '../src/modules/playbooks/playbook-runs-repository.js';
import { eventually } from './notification-helpers.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/*
 * kill -9 of an executor mid-way (ADR 0029): 120 runs of three sql actions, each action
 * recording itself in `pb_crash`. The first executor process is killed with SIGKILL while
 * runs are under way; a second one takes over. Every run must end, no action may have run
 * twice, and the actions the dead process held are failed as interrupted, not re-run.
 */

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'playbook-executor-worker.ts');
const RUNS = 120;
let database: TestDatabase;
const children: ChildProcess[] = [];

function startWorker(settings: Record<string, number>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', TSX, WORKER], {
    env: { ...process.env, PLAYBOOK_DATABASE_URL: database.url, PLAYBOOK_SETTINGS: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query('CREATE TABLE pb_crash (run_id uuid NOT NULL, action text NOT NULL)');
}, 120_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await database?.drop();
});

describe('an executor killed with SIGKILL mid-way', () => {
  it('loses no run and runs no action twice', async () => {
    const record = (name: string, sleep = 0) => ({
      name,
      sql: {
        url: database.url,
        query: `SELECT pg_sleep(${sleep}); INSERT INTO pb_crash (run_id, action) VALUES ('{{ .run.id }}', '${name}')`,
      },
    });
    const parsed = parsePlaybookSpec({ actions: [record('a'), record('b', 0.05), record('c')] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const { rows } = await database.pool.query<{ id: string }>(
      `INSERT INTO playbooks (name, spec) VALUES ('crash', $1) RETURNING id`,
      [parsed.spec],
    );
    for (let i = 0; i < RUNS; i++) {
      await insertRun(database.pool, {
        playbookId: rows[0]!.id,
        spec: parsed.spec,
        status: 'scheduled',
        parameters: {},
        createdBy: null,
        timeoutNanos: 600_000_000_000n,
      });
    }
    const settings = { runConcurrency: 2, actionConcurrency: 6, pollMs: 100, leaseMs: 1500, reapEveryMs: 300 };
    const first = await startWorker(settings);
    await eventually(async () => {
      const done = await database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pb_crash`);
      return done.rows[0]!.n >= RUNS;
    }, 120_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    const second = await startWorker(settings);
    await eventually(async () => {
      const open = await database.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM playbook_runs WHERE status NOT IN ('completed', 'failed', 'cancelled', 'timed_out')`,
      );
      return open.rows[0]!.n === 0;
    }, 180_000);
    second.kill('SIGTERM');

    const twice = await database.pool.query(
      `SELECT run_id, action, count(*) FROM pb_crash GROUP BY run_id, action HAVING count(*) > 1`,
    );
    expect(twice.rows).toEqual([]);
    const statuses = await database.pool.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM playbook_runs GROUP BY status ORDER BY status`,
    );
    const byStatus = Object.fromEntries(statuses.rows.map((row) => [row.status, row.n]));
    expect((byStatus.completed ?? 0) + (byStatus.failed ?? 0)).toBe(RUNS);
    // Only the actions the killed process held can fail, and each says why.
    const errors = await database.pool.query(
      `SELECT name, error FROM playbook_run_actions WHERE status = 'failed' LIMIT 3`,
    );
    expect(byStatus.failed ?? 0, JSON.stringify(errors.rows)).toBeLessThanOrEqual(settings.actionConcurrency);
    const interrupted = await database.pool.query<{ error: string }>(
      `SELECT error FROM playbook_run_actions WHERE status = 'failed'`,
    );
    for (const row of interrupted.rows) expect(row.error).toContain('stopped before it finished');
    const complete = await database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM playbook_runs r
        WHERE r.status = 'completed' AND (SELECT count(*) FROM pb_crash c WHERE c.run_id = r.id) <> 3`,
    );
    expect(complete.rows[0]!.n).toBe(0);
  }, 400_000);
});
