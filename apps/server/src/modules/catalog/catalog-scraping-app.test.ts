import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/** The scrape engine as createApp wires it: a scraper written to the table is run by the planner. */

let testApp: TestApp;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-scrape-app-'));
  // The scrapers read files of this folder only (LOOKOUT_SCRAPE_FILE_ROOTS).
  testApp = await buildTestApp({ catalog: { fileRoots: [dir] } });
});
afterAll(async () => {
  await testApp.close();
  await rm(dir, { recursive: true, force: true });
});

async function until<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('scrape planner in the app', () => {
  it('runs a new scraper as a ScrapeConfig job linked to the scraper, with its scrape summary', async () => {
    const file = path.join(dir, 'service.yaml');
    await writeFile(file, 'name: billing\nowner: finance\n');
    const { pool } = testApp.database;
    const { rows } = await pool.query<{ id: string }>(
      'INSERT INTO config_scrapers (name, spec) VALUES ($1, $2) RETURNING id',
      ['services', { file: [{ type: 'Service', id: '$.name', paths: [file] }] }],
    );
    const scraperId = rows[0]!.id;
    const job = await until(async () => {
      const found = await pool.query<{ name: string; status: string; details: Record<string, unknown> }>(
        `SELECT name, status, details FROM job_history
         WHERE resource_type = 'config_scraper' AND resource_id = $1 AND status <> 'RUNNING'`,
        [scraperId],
      );
      return found.rows[0];
    });
    expect(job).toEqual({
      name: 'ScrapeConfig',
      status: 'SUCCESS',
      details: {
        scrape_summary: { Service: { added: 1, updated: 0, unchanged: 0, deleted: 0, changes: 0, errors: 0 } },
      },
    });
    const status = await pool.query('SELECT job_status, last_runtime FROM config_scrapers_with_status WHERE id = $1', [
      scraperId,
    ]);
    expect(status.rows[0]).toMatchObject({ job_status: 'SUCCESS' });
  });
});
