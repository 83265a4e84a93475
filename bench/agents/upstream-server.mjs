#!/usr/bin/env node
// The upstream Lookout of bench/agents/run.mjs: the real application from the build on the
// database the parent migrated, listening on a loopback port, with one agent registered through
// the agents module's own service. It answers the parent over IPC: 'reset' starts the measured
// window, 'report' returns this process's CPU time and memory since then, 'stop' shuts down.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pino } from 'pino';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;

const { createDatabase } = await import(dist('db/database.js'));
const { buildApp } = await import(dist('http/app.js'));
const { createAgentsService } = await import(dist('modules/agents/agents-service.js'));
const { createAgentsRepository } = await import(dist('modules/agents/agents-repository.js'));
const { createAgentTokensRepository } = await import(dist('modules/agents/agent-tokens-repository.js'));

const logger = pino({ level: 'warn' });
const database = createDatabase({ url: process.env.BENCH_DATABASE_URL, logger });
const app = await buildApp({ logger, database, version: 'bench', webDir: path.join(root, 'no-web-for-bench') });
await app.listen({ port: 0, host: '127.0.0.1' });
const agents = createAgentsService({
  pool: database.pool,
  agents: createAgentsRepository(database.pool),
  tokens: createAgentTokensRepository(database.pool),
});
const agent = await agents.generate({ name: process.env.BENCH_AGENT_NAME ?? 'bench-agent' }, null);

let window = { cpu: process.cpuUsage(), at: performance.now() };
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 500);

process.on('message', async (message) => {
  if (message === 'reset') {
    window = { cpu: process.cpuUsage(), at: performance.now() };
    peakRss = process.memoryUsage().rss;
    process.send({ type: 'reset' });
  } else if (message === 'report') {
    const cpu = process.cpuUsage(window.cpu);
    process.send({
      type: 'report',
      seconds: (performance.now() - window.at) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      rss: process.memoryUsage().rss,
      peakRss: Math.max(peakRss, process.memoryUsage().rss),
    });
  } else if (message === 'stop') {
    clearInterval(sampler);
    await app.close();
    await database.close();
    process.send({ type: 'stopped' }, () => process.exit(0));
  }
});
process.send({
  type: 'ready',
  url: `http://127.0.0.1:${app.server.address().port}`,
  agent: { id: agent.id, name: process.env.BENCH_AGENT_NAME ?? 'bench-agent', token: agent.access_token },
});
