import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createJobs } from '../../jobs/jobs.js';
import { createCatalogScraping } from './catalog-scraping.js';

let database: TestDatabase;
let dir: string;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-scrape-'));
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

function scraping() {
  const jobs = createJobs({ pool: database.pool, logger: silent, hostname: 'test' });
  return createCatalogScraping({ pool: database.pool, logger: silent, jobs, fileRoots: [dir] });
}

async function addScraper(name: string, spec: unknown): Promise<string> {
  const result = await database.pool.query<{ id: string }>(
    'INSERT INTO config_scrapers (name, spec) VALUES ($1, $2) RETURNING id',
    [name, spec],
  );
  return result.rows[0]!.id;
}

const items = async (scraperId: string) =>
  (
    await database.pool.query<{
      id: string;
      name: string;
      type: string;
      config_class: string;
      external_id: string[];
      config: Record<string, unknown>;
      labels: Record<string, string> | null;
      deleted_at: Date | null;
      delete_reason: string | null;
    }>('SELECT * FROM config_items WHERE scraper_id = $1 ORDER BY name', [scraperId])
  ).rows;

const changes = async (scraperId: string) =>
  (
    await database.pool.query<{
      config_id: string;
      change_type: string;
      summary: string;
      diff: string;
      patches: unknown;
      count: number;
      severity: string;
    }>(
      `SELECT c.* FROM config_changes c JOIN config_items i ON i.id = c.config_id
       WHERE i.scraper_id = $1 ORDER BY c.created_at`,
      [scraperId],
    )
  ).rows;

const lastJob = async (scraperId: string) =>
  (
    await database.pool.query<{
      name: string;
      status: string;
      resource_type: string;
      success_count: number;
      error_count: number;
      details: { scrape_summary?: Record<string, Record<string, number>>; errors?: string[] };
    }>(
      `SELECT * FROM job_history WHERE resource_type = 'config_scraper' AND resource_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [scraperId],
    )
  ).rows[0];

describe('file scraper', () => {
  it('scrapes YAML and JSON files into items, records one change with a correct diff, de-duplicates, and deletes vanished items', async () => {
    const appDir = path.join(dir, 'apps');
    await import('node:fs/promises').then((fs) => fs.mkdir(appDir));
    await writeFile(
      path.join(appDir, 'web.yaml'),
      'kind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  replicas: 2\n  image: web:1.0\n',
    );
    await writeFile(
      path.join(appDir, 'api.json'),
      JSON.stringify({ kind: 'Deployment', metadata: { name: 'api', namespace: 'shop' }, spec: { replicas: 1 } }),
    );
    const scraperId = await addScraper('apps', {
      file: [
        {
          type: 'App::Deployment',
          id: '$.metadata.name',
          name: '{{ .metadata.namespace }}/{{ .metadata.name }}',
          class: 'expr: config.kind',
          paths: [path.join(appDir, '*.yaml'), path.join(appDir, '*.json')],
          labels: { team: 'shop' },
        },
      ],
    });
    const scrape = scraping();

    const first = await scrape.runNow(scraperId);
    expect(first).toMatchObject({ ran: true, status: 'SUCCESS' });
    let rows = await items(scraperId);
    expect(rows.map((row) => [row.name, row.type, row.config_class, row.external_id])).toEqual([
      ['shop/api', 'App::Deployment', 'Deployment', ['api']],
      ['shop/web', 'App::Deployment', 'Deployment', ['web']],
    ]);
    expect(rows[0]!.labels).toEqual({ team: 'shop' });
    let job = await lastJob(scraperId);
    expect(job).toMatchObject({ name: 'ScrapeConfig', status: 'SUCCESS', success_count: 2, error_count: 0 });
    expect(job!.details.scrape_summary).toEqual({
      'App::Deployment': { added: 2, updated: 0, unchanged: 0, deleted: 0, changes: 0, errors: 0 },
    });
    expect(await changes(scraperId)).toEqual([]);

    // A changed file: exactly one change, with the merge patch, the diff and the summary.
    await writeFile(
      path.join(appDir, 'web.yaml'),
      'kind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  replicas: 3\n  image: web:1.0\n',
    );
    await scrape.runNow(scraperId);
    const [change, ...others] = await changes(scraperId);
    expect(others).toEqual([]);
    const web = (await items(scraperId)).find((row) => row.name === 'shop/web')!;
    expect(change).toMatchObject({
      config_id: web.id,
      change_type: 'diff',
      summary: 'spec.replicas: 2 → 3',
      patches: { spec: { replicas: 3 } },
      count: 1,
      severity: 'info',
    });
    expect(change!.diff).toContain('-  replicas: 2\n+  replicas: 3');
    expect(web.config).toMatchObject({ spec: { replicas: 3 } });
    job = await lastJob(scraperId);
    expect(job!.details.scrape_summary!['App::Deployment']).toEqual({
      added: 0,
      updated: 1,
      unchanged: 1,
      deleted: 0,
      changes: 1,
      errors: 0,
    });

    // The same files again: nothing new.
    await scrape.runNow(scraperId);
    expect(await changes(scraperId)).toHaveLength(1);
    expect((await lastJob(scraperId))!.details.scrape_summary!['App::Deployment']).toMatchObject({
      unchanged: 2,
      changes: 0,
    });

    // A deleted file: its item gets deleted_at and the reason.
    await unlink(path.join(appDir, 'api.json'));
    await scrape.runNow(scraperId);
    rows = await items(scraperId);
    expect(rows.find((row) => row.name === 'shop/api')).toMatchObject({ delete_reason: 'NotFound' });
    expect(rows.find((row) => row.name === 'shop/api')!.deleted_at).toBeInstanceOf(Date);
    expect(rows.find((row) => row.name === 'shop/web')!.deleted_at).toBeNull();
    expect((await lastJob(scraperId))!.details.scrape_summary!['App::Deployment']).toMatchObject({
      deleted: 1,
      unchanged: 1,
    });
  });

  it('splits multi-document YAML and `items` lists, with every expression kind', async () => {
    const file = path.join(dir, 'inventory.yaml');
    await writeFile(
      file,
      [
        'hosts:',
        '  - {host: db-1, role: Database, zone: eu}',
        '  - {host: web-1, role: Web, zone: us}',
        '---',
        'hosts:',
        '  - {host: cache-1, role: Cache, zone: eu}',
        '',
      ].join('\n'),
    );
    const scraperId = await addScraper('inventory', {
      file: [
        {
          type: 'Inventory::Host',
          items: '$.hosts[*]',
          id: '{{ .host | upper }}',
          name: "expr: config.host + '.' + config.zone",
          class: '$.role',
          paths: [file],
        },
      ],
    });
    expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect((await items(scraperId)).map((row) => [row.external_id[0], row.name, row.config_class])).toEqual([
      ['CACHE-1', 'cache-1.eu', 'Cache'],
      ['DB-1', 'db-1.eu', 'Database'],
      ['WEB-1', 'web-1.us', 'Web'],
    ]);
  });

  it('names malformed files and unsupported types in the job errors, and the types in not_supported', async () => {
    const good = path.join(dir, 'good.json');
    const bad = path.join(dir, 'bad.json');
    await writeFile(good, JSON.stringify({ name: 'good' }));
    await writeFile(bad, '{ not json');
    const scraperId = await addScraper('mixed', {
      file: [{ type: 'Thing', id: '$.name', paths: [good, bad] }],
      aws: [{ type: 'AWS::Account' }],
      trivy: [{ version: '0.50' }],
    });
    const run = await scraping().runNow(scraperId);
    expect(run).toMatchObject({ ran: true, status: 'WARNING' });
    const job = await lastJob(scraperId);
    expect(job!.details.errors).toEqual([
      expect.stringMatching(/^file\[0\]: .*bad\.json: /),
      'the aws scraper is not supported by this build',
      'the trivy scraper is not supported by this build',
    ]);
    expect(job!.details).toMatchObject({ not_supported: ['aws', 'trivy'] });
    expect(job!.details.scrape_summary!.Thing).toMatchObject({ added: 1 });
  });

  it('fails a run of an unsupported type alone, saying so', async () => {
    const scraperId = await addScraper('azure-only', { azure: [{ connection: 'connection://default/azure' }] });
    expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'FAILED' });
    const job = await lastJob(scraperId);
    expect(job!.details).toMatchObject({
      not_supported: ['azure'],
      errors: ['the azure scraper is not supported by this build'],
    });
  });

  it('scrapes files with a javascript id, and names the field of a script that never ends', async () => {
    const file = path.join(dir, 'services.json');
    await writeFile(
      file,
      JSON.stringify({
        services: [
          { svc: 'Api', env: 'prod' },
          { svc: 'Jobs', env: 'dev' },
        ],
      }),
    );
    const scraperId = await addScraper('js', {
      file: [
        {
          type: 'Service',
          items: '$.services[*]',
          id: "javascript: config.env + ':' + config.svc.toLowerCase()",
          name: 'js: return [config.svc, config.env].join("-")',
          paths: [file],
        },
      ],
    });
    expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect((await items(scraperId)).map((row) => [row.external_id[0], row.name])).toEqual([
      ['prod:api', 'Api-prod'],
      ['dev:jobs', 'Jobs-dev'],
    ]);

    const looping = await addScraper('js-loop', {
      file: [{ type: 'Service', id: 'javascript: while (true) {}', paths: [file] }],
    });
    await scraping().runNow(looping);
    expect((await lastJob(looping))!.details.errors).toEqual([
      `file[0]: ${file}: id: javascript 'while (true) {}': stopped after 100 ms (time limit)`,
    ]);
  });

  it('fails a run of an invalid spec with the field named', async () => {
    const scraperId = await addScraper('broken', { file: [{ type: 'Thing', id: '$..[', paths: ['/tmp'] }] });
    expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'FAILED' });
    const job = await lastJob(scraperId);
    expect(job!.details.errors).toEqual([
      expect.stringMatching(/^Invalid scraper spec: spec\.file\[0\]\.id: jsonpath expression/),
    ]);
  });

  it('keeps at most `count` changes of a type per item (retention)', async () => {
    const file = path.join(dir, 'counter.json');
    const scraperId = await addScraper('counter', {
      retention: { changes: [{ name: 'diff', count: 1 }] },
      file: [{ type: 'Counter', id: '$.name', paths: [file] }],
    });
    const scrape = scraping();
    for (const value of ['a', 'b', 'c']) {
      await writeFile(file, JSON.stringify({ name: 'counter', value }));
      await scrape.runNow(scraperId);
    }
    const kept = await changes(scraperId);
    expect(kept).toHaveLength(1);
    expect(kept[0]!.summary).toBe('value: b → c');
  });

  it('runs due scrapers on their schedule: a new scraper at once, then not again before its interval', async () => {
    const file = path.join(dir, 'scheduled.json');
    await writeFile(file, JSON.stringify({ name: 'scheduled' }));
    const scraperId = await addScraper('scheduled', {
      schedule: '@every 1h',
      file: [{ type: 'Scheduled', id: '$.name', paths: [file] }],
    });
    const scrape = scraping();
    await scrape.runDue();
    const runs = async () =>
      (await database.pool.query('SELECT 1 FROM job_history WHERE resource_id = $1', [scraperId])).rowCount;
    expect(await runs()).toBe(1);
    await scrape.runDue();
    expect(await runs()).toBe(1);
  });
});
