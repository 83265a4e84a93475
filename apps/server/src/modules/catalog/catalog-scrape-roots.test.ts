import { mkdir, mkdtemp, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { createJobs } from '../../jobs/jobs.js';
import { createCatalogScraping } from './catalog-scraping.js';

/*
 * LOOKOUT_SCRAPE_FILE_ROOTS through the app and the real PostgreSQL: a scraper naming a host
 * path outside the roots is refused on save with a 400 naming the field; one stored anyway (or
 * under a wider setting) fails its run naming the file and the setting, and keeps its items.
 */

let testApp: TestApp;
let dir: string;
let root: string;
let outside: string;
const users = {} as Record<'editor' | 'viewer', TestUser>;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'lookout-scrape-roots-app-')));
  root = path.join(dir, 'catalog');
  outside = path.join(dir, 'secret');
  await Promise.all([mkdir(root), mkdir(outside)]);
  testApp = await buildTestApp({ background: false, catalog: { fileRoots: [root] } });
  for (const role of ['editor', 'viewer'] as const) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@example.com`,
      roles: [role],
    });
  }
});
afterAll(async () => {
  await testApp.close();
  await rm(dir, { recursive: true, force: true });
});

const call = (user: TestUser, method: 'POST' | 'PATCH', url: string, body: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: { ...bearer(user), 'content-type': 'application/json', prefer: 'return=representation' },
    payload: JSON.stringify(body),
  });

const setting = () => `LOOKOUT_SCRAPE_FILE_ROOTS=${root}`;

describe('saving a scraper', () => {
  it('refuses host paths outside the roots with a 400 naming each field, and stores nothing', async () => {
    const response = await call(users.editor, 'POST', '/api/db/config_scrapers', {
      name: 'shadow',
      source: 'UI',
      spec: {
        file: [{ type: 'File::Config', paths: [path.join(root, '*.yaml'), '/etc/shadow'] }],
        kubernetesFile: [{ files: [{ path: [path.join(outside, '*.yaml')] }] }],
      },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json() as { code: string; message: string; details: string };
    expect(body.code).toBe('23514');
    expect(body.details.split('\n')).toEqual([
      `spec.file[0].paths[1]: /etc/shadow is outside the directories file scrapers may read (${setting()}); add its directory there to allow it`,
      `spec.kubernetesFile[0].files[0].path[0]: ${path.join(outside, '*.yaml')} is outside the directories file scrapers may read (${setting()}); add its directory there to allow it`,
    ]);
    expect(body.message).toMatch(/^Invalid scraper: spec\.file\[0\]\.paths\[1\]: \/etc\/shadow is outside/);
    const stored = await testApp.database.pool.query(`SELECT 1 FROM config_scrapers WHERE name = 'shadow'`);
    expect(stored.rowCount).toBe(0);
  });

  it('accepts paths under a root and git repository paths, and refuses a PATCH or a list row leading out', async () => {
    const created = await call(users.editor, 'POST', '/api/db/config_scrapers', {
      name: 'inside',
      source: 'UI',
      spec: {
        file: [
          { type: 'File::Config', paths: [path.join(root, '**', '*.yaml')] },
          { type: 'Repo', url: 'https://git.example.com/ops.git', paths: ['deploy/*.yaml'] },
        ],
      },
    });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as Array<{ id: string }>)[0]!.id;
    const patched = await call(users.editor, 'PATCH', `/api/db/config_scrapers?id=eq.${id}`, {
      spec: { file: [{ type: 'File::Config', paths: [`${root}/*/../../secret/*`] }] },
    });
    expect(patched.statusCode).toBe(400);
    expect((patched.json() as { details: string }).details).toBe(
      `spec.file[0].paths[0]: ${root}/*/../../secret/* goes up with .. after a wildcard, which could leave the directories file scrapers may read; write it without ..`,
    );
    const listed = await call(users.editor, 'POST', '/api/db/config_scrapers', [
      { name: 'list-ok', source: 'UI', spec: { file: [{ type: 'F', paths: [path.join(root, 'a.yaml')] }] } },
      { name: 'list-out', source: 'UI', spec: { file: [{ type: 'F', paths: ['/var/lib/lookout/key'] }] } },
    ]);
    expect(listed.statusCode).toBe(400);
    expect((listed.json() as { details: string }).details).toMatch(/^\[1\]\.spec\.file\[0\]\.paths\[0\]: \/var\/lib/);
  });

  it('leaves a viewer to the data API, which refuses the write whatever its paths', async () => {
    const response = await call(users.viewer, 'POST', '/api/db/config_scrapers', {
      name: 'by-viewer',
      source: 'UI',
      spec: { file: [{ type: 'F', paths: ['/etc/shadow'] }] },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('running a scraper', () => {
  it('fails on a link out of the roots, naming the file and the setting, and keeps what it stored', async () => {
    const { pool } = testApp.database;
    await writeFile(path.join(root, 'shop.yaml'), 'name: shop\n');
    await writeFile(path.join(outside, 'key.yaml'), 'name: the-secret-key\n');
    const { rows } = await pool.query<{ id: string }>(
      'INSERT INTO config_scrapers (name, spec) VALUES ($1, $2) RETURNING id',
      ['links', { file: [{ type: 'File::Config', id: '$.name', name: '$.name', paths: [path.join(root, '*.yaml')] }] }],
    );
    const scraperId = rows[0]!.id;
    const silent = pino({ level: 'silent' });
    const scraping = createCatalogScraping({
      pool,
      logger: silent,
      jobs: createJobs({ pool, logger: silent, hostname: 'test' }),
      fileRoots: [root],
    });
    const names = async () =>
      (
        await pool.query<{ name: string; deleted: boolean }>(
          'SELECT name, deleted_at IS NOT NULL AS deleted FROM config_items WHERE scraper_id = $1 ORDER BY name',
          [scraperId],
        )
      ).rows;
    expect(await scraping.runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect(await names()).toEqual([{ name: 'shop', deleted: false }]);

    // shop.yaml is replaced by a link to the secret: the glob still matches it.
    await unlink(path.join(root, 'shop.yaml'));
    await symlink(path.join(outside, 'key.yaml'), path.join(root, 'shop.yaml'));
    const failed = await scraping.runNow(scraperId);
    expect(failed).toMatchObject({ ran: true, status: 'FAILED' });
    const job = await pool.query<{ status: string; details: { errors: string[] } }>(
      `SELECT status, details FROM job_history WHERE resource_id = $1 ORDER BY time_start DESC LIMIT 1`,
      [scraperId],
    );
    expect(job.rows[0]?.status).toBe('FAILED');
    expect(job.rows[0]?.details.errors).toEqual([
      `file[0]: paths: ${path.join(root, 'shop.yaml')} (really ${path.join(outside, 'key.yaml')}) is outside the directories file scrapers may read (${setting()}); add its directory there to allow it`,
    ]);
    expect(JSON.stringify(job.rows[0]?.details)).not.toContain('the-secret-key');
    // Nothing stored is lost, and the secret became no item.
    expect(await names()).toEqual([{ name: 'shop', deleted: false }]);
  });
});
