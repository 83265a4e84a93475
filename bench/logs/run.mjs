#!/usr/bin/env node
// Benchmark of the files log source (issue 19 item 7; docs/logs.md): a log file of BENCH_LINES
// JSON lines (1,000,000 of about 2 KiB each: 2 GB by default), then, over real HTTP on loopback:
//
//   - the first page, POST /api/logs for the newest 100 lines, against `tail -n 100` of the file;
//   - a query matching 0.1 % of the lines (a token on every 1,000th line), counted over the whole
//     file with the newest 100 answered, against `grep -c <token>` of the file;
//
// each BENCH_ITERATIONS times alternating with its baseline, medians compared (the file stays in
// the page cache for both). The file is deleted at the end.
//
//   npm run bench -- logs                 (builds first)
//   BENCH_LINES=100000 node bench/logs/run.mjs
//
// It starts a throwaway embedded PostgreSQL, applies the migrations and runs the app in this
// process (every request acts as an admin). Results go to stdout and bench/results/logs.json.
// Targets (issue 19): first page within 3x of tail, the query within 3x of grep -c.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { median, positiveIntEnv, round } from '../lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/logs.json');

const LINES = positiveIntEnv('BENCH_LINES', 1_000_000);
const LINE_BYTES = positiveIntEnv('BENCH_LINE_BYTES', 2_100);
const ITERATIONS = positiveIntEnv('BENCH_ITERATIONS', 7);
const TOKEN = 'needle-7q3x';
const TARGET_RATIO = 3;

/** Writes the file in blocks of 10,000 lines; every 1,000th line carries the token. */
async function generate(file) {
  const stream = createWriteStream(file);
  const start = Date.UTC(2026, 0, 1);
  const filler = 'x'.repeat(LINE_BYTES);
  for (let block = 0; block < LINES; block += 10_000) {
    const parts = [];
    for (let index = block; index < Math.min(LINES, block + 10_000); index += 1) {
      const head = `{"time":"${new Date(start + index * 100).toISOString()}","level":"info","msg":"request ${index}${index % 1000 === 999 ? ` ${TOKEN}` : ''} `;
      parts.push(`${head}${filler.slice(0, Math.max(10, LINE_BYTES - head.length - 3))}"}\n`);
    }
    if (!stream.write(parts.join(''))) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
}

const timeCommand = (command, args) => {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
  return { ms, stdout: result.stdout };
};

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));
  const { createApp } = await import(dist('http/app.js'));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-bench-logs-'));
  const file = path.join(dir, 'app.log');
  const logger = pino({ level: 'warn' });
  const embedded = await startTestPostgres({ prefix: 'lookout-bench-logs-', logger });
  const database = createDatabase({ url: embedded.url, logger, max: 4 });
  let composed;
  try {
    let started = Date.now();
    await generate(file);
    const size = (await stat(file)).size;
    console.log(
      `logs bench: wrote ${LINES} lines, ${(size / 1e9).toFixed(2)} GB in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    await runMigrations(database.pool, logger);
    await database.pool.query(`INSERT INTO logging_backends (name, spec) VALUES ('bench-file', $1)`, [
      JSON.stringify({ file: { paths: [file], format: 'json' } }),
    ]);
    const { rows } = await database.pool.query(
      `INSERT INTO components (name, external_id, type, status, log_selectors) VALUES ('bench', 'bench', 'Service', 'healthy', $1) RETURNING id`,
      [JSON.stringify([{ name: 'app', type: 'bench-file' }])],
    );
    const componentId = rows[0].id;
    composed = await createApp({
      logger,
      database,
      version: 'bench',
      webDir: path.join(embedded.dataDir, 'no-web'),
      resolveRoles: async () => ['admin'],
      topology: { planIntervalMs: 3_600_000 },
    });
    await composed.app.ready();
    const address = await composed.app.listen({ port: 0, host: '127.0.0.1' });
    const logs = async (body) => {
      const begun = process.hrtime.bigint();
      const response = await fetch(`${address}/api/logs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: componentId, name: 'app', limit: 100, ...body }),
      });
      const answer = await response.json();
      const ms = Number(process.hrtime.bigint() - begun) / 1e6;
      if (response.status !== 200) throw new Error(`/api/logs: ${response.status} ${JSON.stringify(answer)}`);
      return { ms, answer };
    };

    // Warm the page cache for everyone, and check both sides count the same lines.
    const grepped = Number(timeCommand('grep', ['-c', TOKEN, file]).stdout.trim());
    const searched = await logs({ query: TOKEN });
    if (searched.answer.total !== grepped)
      throw new Error(`grep counted ${grepped}, /api/logs ${searched.answer.total}`);
    const page = await logs({});
    if (!page.answer.results[0]?.message.startsWith(`request ${LINES - 1}`)) {
      throw new Error(`the newest line is not first: ${page.answer.results[0]?.message.slice(0, 40)}`);
    }

    const samples = { tail: [], page: [], grep: [], query: [] };
    for (let index = 0; index < ITERATIONS; index += 1) {
      samples.tail.push(timeCommand('tail', ['-n', '100', file]).ms);
      samples.page.push((await logs({})).ms);
      samples.grep.push(timeCommand('grep', ['-c', TOKEN, file]).ms);
      samples.query.push((await logs({ query: TOKEN })).ms);
    }
    const medians = Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, round(median(values))]));
    const ratios = { pageVsTail: round(medians.page / medians.tail), queryVsGrep: round(medians.query / medians.grep) };
    const verdict = {
      pageWithin3x: ratios.pageVsTail <= TARGET_RATIO,
      queryWithin3x: ratios.queryVsGrep <= TARGET_RATIO,
    };
    const result = {
      bench: 'logs',
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, memoryGb: Math.round(os.totalmem() / 1e9) },
      file: { lines: LINES, bytes: size, matches: grepped },
      iterations: ITERATIONS,
      mediansMs: medians,
      ratios,
      verdict,
    };
    console.log(JSON.stringify(result, null, 2));
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
    if (!verdict.pageWithin3x || !verdict.queryWithin3x) process.exitCode = 1;
  } finally {
    await composed?.app.close();
    await database.close();
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
