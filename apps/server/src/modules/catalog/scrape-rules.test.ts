import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createJobs } from '../../jobs/jobs.js';
import { createCatalogScraping } from './catalog-scraping.js';

/**
 * Insight and relationship rules of a scraper spec on real files and the test PostgreSQL: a
 * rule that matches opens a config_analysis row, one that stops matching resolves it; a
 * relationship rule links items to what its selector finds, and ends the link when the item no
 * longer points there.
 */

let database: TestDatabase;
let dir: string;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-rules-'));
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

const runNow = (id: string) =>
  createCatalogScraping({
    pool: database.pool,
    logger: silent,
    jobs: createJobs({ pool: database.pool, logger: silent, hostname: 'test' }),
    fileRoots: [dir],
  }).runNow(id);

async function addScraper(name: string, spec: unknown): Promise<string> {
  const result = await database.pool.query<{ id: string }>(
    'INSERT INTO config_scrapers (name, spec) VALUES ($1, $2) RETURNING id',
    [name, spec],
  );
  return result.rows[0]!.id;
}

const insights = async (scraperId: string) =>
  (
    await database.pool.query<{
      config_name: string;
      analyzer: string;
      analysis_type: string;
      severity: string;
      status: string;
      summary: string;
      message: string | null;
    }>(
      `SELECT config_name, analyzer, analysis_type, severity, status, summary, message FROM config_analysis_items
       WHERE scraper_id = $1 ORDER BY config_name, analyzer`,
      [scraperId],
    )
  ).rows;

const links = async (scraperId: string) =>
  (
    await database.pool.query<{ from: string; to: string; deleted: boolean }>(
      `SELECT a.name AS from, b.name AS to, r.deleted_at IS NOT NULL AS deleted FROM config_relationships r
       JOIN config_items a ON a.id = r.config_id JOIN config_items b ON b.id = r.related_id
       WHERE r.scraper_id = $1 ORDER BY 1, 2`,
      [scraperId],
    )
  ).rows;

const lastJob = async (scraperId: string) =>
  (
    await database.pool.query<{ status: string; details: { errors?: string[]; summary?: Record<string, number> } }>(
      `SELECT status, details FROM job_history WHERE resource_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [scraperId],
    )
  ).rows[0]!;

describe('analysis and relationship rules', () => {
  it('opens and resolves insights, and links items to what the selectors find', async () => {
    const apps = path.join(dir, 'apps.json');
    const databases = path.join(dir, 'databases.json');
    const write = (web: object, api: object) =>
      writeFile(
        apps,
        JSON.stringify({
          apps: [
            { name: 'web', ...web },
            { name: 'api', ...api },
          ],
        }),
      );
    await write({ replicas: 1, db: 'orders' }, { replicas: 3, db: 'orders' });
    await writeFile(databases, JSON.stringify([{ name: 'orders', engine: 'postgres', public: true }]));
    const scraperId = await addScraper('rules', {
      file: [
        {
          type: 'App::Service',
          id: '$.name',
          name: '$.name',
          items: '$.apps',
          paths: [apps],
          analysis: [
            {
              name: 'single-replica',
              filter: 'config.replicas < 2.0',
              type: 'availability',
              severity: 'high',
              message: '{{ .name }} runs one replica: a restart takes it down',
            },
          ],
          transform: {
            relationship: [{ filter: 'has(config.db)', type: { value: 'App::Database' }, name: { expr: 'config.db' } }],
          },
        },
        {
          type: 'App::Database',
          id: '$.name',
          name: '$.name',
          items: '$[*]',
          paths: [databases],
          analysis: [{ name: 'public-database', filter: 'config.public', type: 'security', severity: 'critical' }],
        },
      ],
    });

    expect(await runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect(await insights(scraperId)).toEqual([
      {
        config_name: 'orders',
        analyzer: 'public-database',
        analysis_type: 'security',
        severity: 'critical',
        status: 'open',
        summary: 'public-database',
        message: null,
      },
      {
        config_name: 'web',
        analyzer: 'single-replica',
        analysis_type: 'availability',
        severity: 'high',
        status: 'open',
        summary: 'single-replica',
        message: 'web runs one replica: a restart takes it down',
      },
    ]);
    // Rules run once every item of the scrape is stored: the database of the same run is found.
    expect(await links(scraperId)).toEqual([
      { from: 'api', to: 'orders', deleted: false },
      { from: 'web', to: 'orders', deleted: false },
    ]);
    expect((await lastJob(scraperId)).details.summary).toMatchObject({ relationships: 2, insights_opened: 2 });

    // web scales up, api stops using the database: the insight resolves, the link ends.
    await write({ replicas: 2, db: 'orders' }, { replicas: 3 });
    expect(await runNow(scraperId)).toMatchObject({ status: 'SUCCESS' });
    expect((await insights(scraperId)).map((row) => [row.config_name, row.status])).toEqual([
      ['orders', 'open'],
      ['web', 'resolved'],
    ]);
    expect(await links(scraperId)).toEqual([
      { from: 'api', to: 'orders', deleted: true },
      { from: 'web', to: 'orders', deleted: false },
    ]);
    expect((await lastJob(scraperId)).details.summary).toMatchObject({ insights_resolved: 1, relationships_ended: 1 });

    // It comes back: the same row opens again.
    await write({ replicas: 1, db: 'orders' }, { replicas: 3, db: 'orders' });
    await runNow(scraperId);
    expect((await insights(scraperId)).map((row) => [row.config_name, row.status])).toEqual([
      ['orders', 'open'],
      ['web', 'open'],
    ]);
    expect((await links(scraperId)).every((row) => !row.deleted)).toBe(true);
  });

  it('names a rule whose filter is not a boolean, and keeps links then', async () => {
    const file = path.join(dir, 'one.json');
    await writeFile(file, JSON.stringify({ name: 'one', replicas: 1 }));
    const scraperId = await addScraper('bad-rule', {
      file: [
        {
          type: 'App::Thing',
          id: '$.name',
          paths: [file],
          analysis: [{ name: 'not-boolean', filter: 'config.replicas' }],
          transform: { relationship: [{ expr: 'config.name' }] },
        },
      ],
    });
    expect(await runNow(scraperId)).toMatchObject({ status: 'WARNING' });
    expect((await lastJob(scraperId)).details.errors).toEqual([
      `${file}: transform.relationship[0]: expr gave "one", not a selector object`,
      `${file}: analysis 'not-boolean': filter 'config.replicas' gave 1, not true or false`,
    ]);
  });
});

describe('status, health and description expressions', () => {
  it('sets them on items, updates them without a change row, and names a health that is not one', async () => {
    const file = path.join(dir, 'health.json');
    await writeFile(
      file,
      JSON.stringify([
        { name: 'a', replicas: 2, state: 'Running' },
        { name: 'b', replicas: 1, state: 'Degraded' },
      ]),
    );
    const scraperId = await addScraper('health', {
      file: [
        {
          type: 'App::Service',
          id: '$.name',
          name: '$.name',
          items: '$[*]',
          paths: [file],
          status: '$.state',
          health: "expr: config.replicas > 1.0 ? 'healthy' : 'Warning'",
          description: '{{ .name }} service',
        },
      ],
    });
    expect(await runNow(scraperId)).toMatchObject({ status: 'SUCCESS' });
    const rows = async () =>
      (
        await database.pool.query<{ name: string; status: string; health: string; description: string }>(
          'SELECT name, status, health, description FROM config_items WHERE scraper_id = $1 ORDER BY name',
          [scraperId],
        )
      ).rows;
    expect(await rows()).toEqual([
      { name: 'a', status: 'Running', health: 'healthy', description: 'a service' },
      { name: 'b', status: 'Degraded', health: 'warning', description: 'b service' },
    ]);

    await writeFile(
      file,
      JSON.stringify([
        { name: 'a', replicas: 2, state: 'Running' },
        { name: 'b', replicas: 1, state: 'Scaling' },
      ]),
    );
    await runNow(scraperId);
    expect((await rows())[1]).toMatchObject({ status: 'Scaling' });

    await database.pool.query(
      `UPDATE config_scrapers SET spec = jsonb_set(spec, '{file,0,health}', '"$.state"') WHERE id = $1`,
      [scraperId],
    );
    expect(await runNow(scraperId)).toMatchObject({ status: 'FAILED' });
    expect((await lastJob(scraperId)).details.errors).toEqual([
      `file[0]: ${file} item 0: health: 'Running' is not one of healthy, unhealthy, warning, unknown`,
      `file[0]: ${file} item 1: health: 'Scaling' is not one of healthy, unhealthy, warning, unknown`,
    ]);
  });
});
