#!/usr/bin/env node
// The agent Lookout of bench/agents/run.mjs: the real application from the build on the
// agent's database, its health workers (the check scheduler runs the checks the parent
// created) and the agent-push module pushing to the upstream the parent names, as
// `lookout serve --upstream <url> --agent-name <name> --agent-token <token>` runs them.
// IPC: 'report' returns this process's CPU time and memory, 'stop' shuts down.
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
const { createAgentPushModule } = await import(dist('modules/agent-push/agent-push-module.js'));

const logger = pino({ level: 'warn' });
const database = createDatabase({ url: process.env.BENCH_DATABASE_URL, logger });
const settings = readHealthSettings(process.env);
const app = await buildApp({ logger, database, version: 'bench', webDir: path.join(root, 'no-web-for-bench') });
// The benchmark's checks are tcp checks: no script runs, so no sandbox is probed.
const sandbox = refusingSandbox('the agent benchmark runs no scripts');
const jobs = createJobs({ pool: database.pool, logger });
const workers = createHealthWorkers({ pool: database.pool, logger, settings, sandbox, jobs });
const agentPush = createAgentPushModule({
  pool: database.pool,
  logger,
  jobs,
  settings: {
    url: process.env.BENCH_UPSTREAM_URL,
    agentName: process.env.BENCH_AGENT_NAME,
    token: process.env.BENCH_AGENT_TOKEN,
    intervalMs: Number(process.env.LOOKOUT_AGENT_PUSH_INTERVAL_MS ?? 1000),
    // A Job History summary every 10 s: the parent sums the rows pushed in its window from them.
    summaryEveryMs: 10_000,
  },
});
// As `lookout serve --upstream` does before its jobs start: this database becomes an agent's,
// and the canaries the parent created before are queued for the first push.
await agentPush.bootstrap({});
workers.start();
jobs.start();

let window = { cpu: process.cpuUsage(), at: performance.now() };
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
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      rss: process.memoryUsage().rss,
      scheduler: workers.scheduler.stats(),
    });
  } else if (message === 'stop') {
    await jobs.stop();
    await agentPush.stop();
    await workers.stop();
    await app.close();
    await database.close();
    process.send({ type: 'stopped' }, () => process.exit(0));
  }
});
process.send({ type: 'ready' });
