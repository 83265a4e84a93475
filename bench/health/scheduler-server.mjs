#!/usr/bin/env node
// The Lookout process of bench/health/scheduler.mjs: the real application and the health
// workers (check scheduler, roll-up jobs) from the build, on the database the parent seeded,
// with the settings `lookout serve` reads (LOOKOUT_CHECK_CONCURRENCY, ...). It answers the
// parent over IPC: 'reset' starts the measured window, 'report' returns the scheduler's
// counters with this process's CPU time and memory, 'stop' shuts down as `lookout serve` does.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pino } from 'pino';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;

const { createDatabase } = await import(dist('db/database.js'));
const { buildApp } = await import(dist('http/app.js'));
const { createHealthWorkers } = await import(dist('modules/health/health-workers.js'));
const { createJobs } = await import(dist('jobs/jobs.js'));
const { readHealthSettings } = await import(dist('modules/health/health-settings.js'));
const { refusingSandbox } = await import(dist('sandbox/sandbox.js'));

const logger = pino({ level: 'warn' });
const database = createDatabase({ url: process.env.BENCH_DATABASE_URL, logger });
const settings = readHealthSettings(process.env);
const app = await buildApp({ logger, database, version: 'bench', webDir: path.join(root, 'no-web-for-bench') });
await app.listen({ port: 0, host: '127.0.0.1' });
// The benchmark's checks are http checks: no script runs, so no sandbox is probed.
const sandbox = refusingSandbox('the scheduler benchmark runs no scripts');
const jobs = createJobs({ pool: database.pool, logger });
const workers = createHealthWorkers({ pool: database.pool, logger, settings, sandbox, jobs });
workers.start();
jobs.start();

let window = { cpu: process.cpuUsage(), at: performance.now() };
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 500);

process.on('message', async (message) => {
  if (message === 'reset') {
    workers.scheduler.resetStats();
    window = { cpu: process.cpuUsage(), at: performance.now() };
    process.send({ type: 'reset' });
  } else if (message === 'report') {
    const cpu = process.cpuUsage(window.cpu);
    process.send({
      type: 'report',
      seconds: (performance.now() - window.at) / 1000,
      stats: workers.scheduler.stats(),
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      rss: process.memoryUsage().rss,
      peakRss: Math.max(peakRss, process.memoryUsage().rss),
      // The kernel's high-water mark for the whole life of the process (start-up included).
      maxRssKernel: process.resourceUsage().maxRSS * 1024,
      settings: { concurrency: settings.checkConcurrency, timeoutMs: settings.checkTimeoutMs },
    });
  } else if (message === 'stop') {
    clearInterval(sampler);
    await jobs.stop();
    await workers.stop();
    await app.close();
    await database.close();
    process.send({ type: 'stopped' }, () => process.exit(0));
  }
});
process.send({ type: 'ready' });
