import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import mysql from 'mysql2/promise';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createJobs } from '../../jobs/jobs.js';
import { createCatalogScraping } from './catalog-scraping.js';
import type { ScrapeConnectionResolver } from './scrapers/scraper-connections.js';

/** The http and sql scrapers against a local HTTP server, the test PostgreSQL and MariaDB. */

let database: TestDatabase;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

function scraping(resolveConnection?: ScrapeConnectionResolver) {
  const jobs = createJobs({ pool: database.pool, logger: silent, hostname: 'test' });
  return createCatalogScraping({
    pool: database.pool,
    logger: silent,
    jobs,
    ...(resolveConnection ? { resolveConnection } : {}),
  });
}

async function addScraper(name: string, spec: unknown): Promise<string> {
  const result = await database.pool.query<{ id: string }>(
    'INSERT INTO config_scrapers (name, spec) VALUES ($1, $2) RETURNING id',
    [name, spec],
  );
  return result.rows[0]!.id;
}

const itemsOf = async (scraperId: string) =>
  (
    await database.pool.query<{
      id: string;
      name: string;
      type: string;
      external_id: string[];
      config: Record<string, unknown>;
    }>(
      'SELECT id, name, type, external_id, config FROM config_items WHERE scraper_id = $1 AND deleted_at IS NULL ORDER BY name',
      [scraperId],
    )
  ).rows;

const summariesOf = async (scraperId: string) =>
  (
    await database.pool.query<{ summary: string }>(
      `SELECT c.summary FROM config_changes c JOIN config_items i ON i.id = c.config_id WHERE i.scraper_id = $1 ORDER BY c.created_at`,
      [scraperId],
    )
  ).rows.map((row) => row.summary);

const lastErrors = async (scraperId: string) =>
  (
    await database.pool.query<{ details: { errors?: string[] } }>(
      `SELECT details FROM job_history WHERE resource_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [scraperId],
    )
  ).rows[0]?.details.errors;

describe('http scraper', () => {
  let server: http.Server;
  let baseUrl: string;
  let services = [
    { id: 'svc-1', name: 'checkout', version: '1.0' },
    { id: 'svc-2', name: 'payments', version: '2.1' },
  ];
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.headers.authorization !== `Basic ${Buffer.from('reader:s3cret').toString('base64')}`) {
        response.writeHead(401).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { services } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads a JSON endpoint with basic auth from a connection, splits items by jsonpath, and records a change', async () => {
    const resolveConnection: ScrapeConnectionResolver = async (reference, namespace) => {
      expect([reference, namespace]).toEqual(['connection://default/registry', 'default']);
      return { type: 'http', url: `${baseUrl}/services`, username: 'reader', password: 's3cret' };
    };
    const scraperId = await addScraper('registry', {
      http: [
        {
          type: 'Registry::Service',
          connection: 'connection://default/registry',
          items: '$.data.services',
          id: '$.id',
          name: '$.name',
        },
      ],
    });
    const scrape = scraping(resolveConnection);
    expect(await scrape.runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect((await itemsOf(scraperId)).map((item) => [item.name, item.external_id[0]])).toEqual([
      ['checkout', 'svc-1'],
      ['payments', 'svc-2'],
    ]);
    services = [services[0]!, { ...services[1]!, version: '2.2' }];
    await scrape.runNow(scraperId);
    expect(await summariesOf(scraperId)).toEqual(['version: 2.1 → 2.2']);
  });

  it("names the endpoint's refusal in the job errors and keeps the items", async () => {
    const scraperId = await addScraper('registry-no-auth', {
      http: [{ type: 'Registry::Service', url: `${baseUrl}/services`, items: '$.data.services', id: '$.id' }],
    });
    expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'FAILED' });
    expect(await lastErrors(scraperId)).toEqual([`http[0]: ${baseUrl}/services answered 401 Unauthorized`]);
  });
});

describe('sql scraper', () => {
  it('turns PostgreSQL rows into items (id/type/name columns) and a changed row into a change', async () => {
    await database.pool.query('CREATE TABLE scrape_hosts (id int PRIMARY KEY, hostname text, kind text, cpus int)');
    await database.pool.query("INSERT INTO scrape_hosts VALUES (1, 'db-1', 'Database', 8), (2, 'web-1', 'Web', 4)");
    const scraperId = await addScraper('hosts', {
      sql: [
        {
          connection: database.url,
          query: 'SELECT id, hostname, kind, cpus FROM scrape_hosts ORDER BY id',
          type: 'expr: "Host::" + config.kind',
          id: '$.id',
          name: '$.hostname',
        },
      ],
    });
    const scrape = scraping();
    expect(await scrape.runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect((await itemsOf(scraperId)).map((item) => [item.name, item.type, item.external_id[0]])).toEqual([
      ['db-1', 'Host::Database', '1'],
      ['web-1', 'Host::Web', '2'],
    ]);
    await database.pool.query('UPDATE scrape_hosts SET cpus = 16 WHERE id = 1');
    await scrape.runNow(scraperId);
    expect(await summariesOf(scraperId)).toEqual(['cpus: 8 → 16']);
  });

  it('refuses a query that writes (the query runs read-only)', async () => {
    const scraperId = await addScraper('writer', {
      sql: [{ connection: database.url, query: 'DELETE FROM scrape_hosts RETURNING id', type: 'Host', id: '$.id' }],
    });
    expect(await scraping().runNow(scraperId)).toMatchObject({ status: 'FAILED' });
    expect(await lastErrors(scraperId)).toEqual(['sql[0]: cannot execute DELETE in a read-only transaction']);
    expect((await database.pool.query('SELECT count(*)::int AS n FROM scrape_hosts')).rows[0]).toEqual({ n: 2 });
  });

  it('turns MariaDB rows into items', async () => {
    const available = await new Promise<boolean>((resolve) => {
      const socket = net.connect(3306, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (!available) {
      console.warn('SKIPPED sql scraper MariaDB test: no MariaDB at 127.0.0.1:3306');
      return;
    }
    const table = `scrape_${Date.now()}`;
    const admin = await mysql.createConnection({ uri: 'mysql://root@127.0.0.1:3306/test' });
    try {
      await admin.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name varchar(50))`);
      await admin.query(`INSERT INTO ${table} VALUES (1, 'orders'), (2, 'users')`);
      const scraperId = await addScraper('mariadb-tables', {
        sql: [
          {
            connection: 'mariadb://root@127.0.0.1:3306/test',
            query: `SELECT id, name FROM ${table}`,
            type: 'MariaDB::Row',
            id: '$.id',
            name: '$.name',
          },
        ],
      });
      expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
      expect((await itemsOf(scraperId)).map((item) => item.name)).toEqual(['orders', 'users']);
    } finally {
      await admin.query(`DROP TABLE IF EXISTS ${table}`);
      await admin.end();
    }
  });
});
