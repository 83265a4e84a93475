#!/usr/bin/env node
// `npm run bench [-- <name>...]`: runs the named benchmarks (all when none is named) one after
// another, each in its own process, after the build. Results land in bench/results/<name>.json.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BENCHMARKS = {
  pgrest: 'pgrest/run.mjs',
  'data-api': 'data-api/run.mjs',
  'health-summary': 'health/summary.mjs',
  'health-scheduler': 'health/scheduler.mjs',
  'web-weight': 'web/weight.mjs',
  events: 'events/run.mjs',
  topology: 'topology/run.mjs',
  'catalog-api': 'catalog/run.mjs',
  'catalog-scrape': 'catalog/scrape.mjs',
  notifications: 'notifications/run.mjs',
  incidents: 'incidents/run.mjs',
  logs: 'logs/run.mjs',
  playbooks: 'playbooks/run.mjs',
  agents: 'agents/run.mjs',
};
// `pgrest` in the sense covers both the engine alone and the engine behind /api/db.
// `health` (issue 6): the summary endpoint on 20M statuses and the scheduler at 5,000 checks.
// `web-weight` (issue 20): JavaScript transferred by a cold /login and /health in Chromium.
// `events` (issue 12): 10,000 events through one consumer against an INSERT+DELETE loop.
// `topology` (issue 14): 10,000 components in 5 levels, 20,000 check links: fetches and the roll-up.
// `catalog` (issue 13): the list pages at 100,000 items and 1,000,000 changes, and a scrape of
// 10,000 files with 1 % changed.
// `notifications` (issue 15): 1,000 check failures through 20 rules to a local webhook, a kill -9 mid-way.
// `playbooks` (issue 16): 200 runs of exec, http and sql actions queued at once, a kill -9 mid-way.
// `logs` (issue 19): a 2 GB file of 1,000,000 JSON lines: the newest page and a 0.1 % query vs tail and grep -c.
// `agents` (issue 18): an agent with 5,000 tcp checks every 30 s pushing to an upstream on this
// machine: rows pushed/s, p95 lag from a check's run to its status upstream, upstream CPU and RSS.
// `incidents` (issue 17): 10,000 incidents, 100,000 hypotheses and evidences: the list with filters, one detail.
const ALIASES = {
  pgrest: ['pgrest', 'data-api'],
  health: ['health-summary', 'health-scheduler'],
  catalog: ['catalog-api', 'catalog-scrape'],
};

const requested = process.argv.slice(2);
const names =
  requested.length === 0 ? Object.keys(BENCHMARKS) : [...new Set(requested.flatMap((name) => ALIASES[name] ?? [name]))];
const unknown = names.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`Unknown benchmark: ${unknown.join(', ')}. Available: ${Object.keys(BENCHMARKS).join(', ')}.`);
  process.exit(2);
}
let failed = false;
for (const name of names) {
  console.log(`\n== bench ${name} ==`);
  const result = spawnSync(process.execPath, [path.join(here, BENCHMARKS[name])], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
