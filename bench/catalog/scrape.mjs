#!/usr/bin/env node
// Benchmark of one file scrape (issue 13): BENCH_SCRAPE_FILES Kubernetes-style YAML manifests in
// a temporary folder, scraped by the real file scraper as a ScrapeConfig job into an embedded
// PostgreSQL; then BENCH_SCRAPE_CHANGED_PERCENT % of the files are edited and scraped again.
// The baseline, in the same run: reading and parsing the same files with the same YAML parser
// and nothing else (what any scrape of them costs at least).
//
//   npm run bench -- catalog            (builds first; runs run.mjs and this)
//   node bench/catalog/scrape.mjs       (after npm run build)
//
// Each kind of run is repeated BENCH_SCRAPE_ROUNDS times (a different 1 % each time); results
// go to stdout and bench/results/catalog-scrape.json.
//
// Environment: BENCH_SCRAPE_FILES (10000), BENCH_SCRAPE_CHANGED_PERCENT (1), BENCH_SCRAPE_ROUNDS (3).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestPostgres } from '@lookout/embedded-postgres/testing';
import { pino } from 'pino';
import { glob } from 'tinyglobby';
import { parseAllDocuments } from 'yaml';
import { median, positiveIntEnv, round, timed } from '../lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const resultsFile = path.join(root, 'bench/results/catalog-scrape.json');

const FILES = positiveIntEnv('BENCH_SCRAPE_FILES', 10_000);
const CHANGED_PERCENT = positiveIntEnv('BENCH_SCRAPE_CHANGED_PERCENT', 1);
const ROUNDS = positiveIntEnv('BENCH_SCRAPE_ROUNDS', 3);
const PER_FOLDER = 500;

/** A Deployment manifest; `revision` is what an edit changes (image tag and replicas). */
const manifest = (i, revision) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}
  namespace: team-${i % 40}
  labels:
    app: app-${i}
    tier: ${['web', 'api', 'worker', 'cache'][i % 4]}
spec:
  replicas: ${1 + ((i + revision) % 5)}
  selector:
    matchLabels:
      app: app-${i}
  template:
    metadata:
      labels:
        app: app-${i}
    spec:
      containers:
        - name: main
          image: registry.example.com/app-${i % 200}:1.${revision}
          ports:
            - containerPort: ${8000 + (i % 100)}
          resources:
            limits:
              cpu: 500m
              memory: 256Mi
`;
const fileOf = (dir, i) => path.join(dir, `folder-${Math.floor(i / PER_FOLDER)}`, `app-${i}.yaml`);

async function main() {
  const { createDatabase } = await import(dist('db/database.js'));
  const { runMigrations } = await import(dist('db/migrate.js'));
  const { createJobs } = await import(dist('jobs/jobs.js'));
  const { createCatalogScraping } = await import(dist('modules/catalog/catalog-scraping.js'));

  const logger = pino({ level: 'warn' });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-bench-files-'));
  const embedded = await startTestPostgres({ prefix: 'lookout-bench-scrape-', logger });
  const database = createDatabase({ url: embedded.url, logger, max: 10 });
  try {
    await runMigrations(database.pool, logger);
    for (let folder = 0; folder * PER_FOLDER < FILES; folder++) {
      await mkdir(path.join(dir, `folder-${folder}`));
    }
    const revision = new Array(FILES).fill(0);
    for (let i = 0; i < FILES; i++) await writeFile(fileOf(dir, i), manifest(i, 0));
    const spec = {
      schedule: '@every 1h',
      file: [
        {
          type: 'Kubernetes::Deployment',
          id: '$.metadata.name',
          name: '{{ .metadata.namespace }}/{{ .metadata.name }}',
          paths: [path.join(dir, '**', '*.yaml')],
        },
      ],
    };
    const { rows } = await database.pool.query(
      "INSERT INTO config_scrapers (name, spec) VALUES ('bench-files', $1) RETURNING id",
      [spec],
    );
    const scraperId = rows[0].id;
    const jobs = createJobs({ pool: database.pool, logger, hostname: 'bench' });
    const scraping = createCatalogScraping({ pool: database.pool, logger, jobs });
    const scrape = async () => {
      const result = await scraping.runNow(scraperId);
      if (result.status !== 'SUCCESS') throw new Error(`scrape ${JSON.stringify(result)}`);
      return result;
    };
    const baseline = async () => {
      const files = await glob(path.join(dir, '**', '*.yaml'));
      let documents = 0;
      for (const file of files) documents += parseAllDocuments(await readFile(file, 'utf8')).length;
      if (documents !== FILES) throw new Error(`baseline read ${documents} documents`);
    };
    const changes = async () =>
      Number((await database.pool.query('SELECT count(*) AS n FROM config_changes')).rows[0].n);

    const [firstMs] = await timed(scrape);
    const items = Number((await database.pool.query('SELECT count(*) AS n FROM config_items')).rows[0].n);
    if (items !== FILES) throw new Error(`expected ${FILES} items, found ${items}`);
    console.log(`catalog scrape bench: first scrape of ${FILES} files (all new) ${(firstMs / 1000).toFixed(2)} s`);

    const changed = Math.max(1, Math.round((FILES * CHANGED_PERCENT) / 100));
    const times = { baseline: [], unchanged: [], changed: [] };
    let step = 0;
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      times.baseline.push((await timed(baseline))[0]);
      times.unchanged.push((await timed(scrape))[0]);
      const before = await changes();
      for (let k = 0; k < changed; k++) {
        const i = (step++ * 97) % FILES;
        revision[i] += 1;
        await writeFile(fileOf(dir, i), manifest(i, revision[i]));
      }
      times.changed.push((await timed(scrape))[0]);
      const made = (await changes()) - before;
      if (made !== changed) throw new Error(`expected ${changed} changes, found ${made}`);
    }
    const output = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map(round),
      files: FILES,
      changedFiles: changed,
      rounds: ROUNDS,
      firstScrapeSeconds: round(firstMs / 1000),
      baseline: 'glob + read + YAML-parse every file in this process (no database)',
      medianMs: {
        baseline: round(median(times.baseline)),
        scrapeUnchanged: round(median(times.unchanged)),
        scrapeWithChanges: round(median(times.changed)),
      },
      ratioToBaseline: {
        scrapeUnchanged: round(median(times.unchanged) / median(times.baseline)),
        scrapeWithChanges: round(median(times.changed) / median(times.baseline)),
      },
      times,
    };
    console.log(
      `catalog scrape bench: ${FILES} files, ${changed} changed: scrape ${(output.medianMs.scrapeWithChanges / 1000).toFixed(2)} s (median of ${ROUNDS}), unchanged ${(output.medianMs.scrapeUnchanged / 1000).toFixed(2)} s, baseline read+parse ${(output.medianMs.baseline / 1000).toFixed(2)} s; ratio ${output.ratioToBaseline.scrapeWithChanges}`,
    );
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(output, null, 2)}\n`);
    console.log(
      `catalog scrape bench: load average ${output.loadAverage.join(', ')}; results in ${path.relative(process.cwd(), resultsFile)}`,
    );
  } finally {
    await database.close();
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
