import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitHttpServer } from '../../../../test/git-http-server.js';
import { isolatingSandboxCases, type SandboxCase } from '../../../../test/sandbox-helpers.js';
import { createTestDatabase, type TestDatabase } from '../../../../test/test-database.js';
import { createJobs } from '../../../jobs/jobs.js';
import type { Sandbox } from '../../../sandbox/sandbox.js';
import { createCatalogScraping } from '../catalog-scraping.js';
import type { ScrapeConnectionResolver } from './scraper-connections.js';

/**
 * kubernetesFile (manifests in files), the file scraper over a git repository (a local bare
 * repository, and one served over smart HTTP with a password from a git connection), and exec
 * (a script in the real sandbox), into the test PostgreSQL.
 */

const run = promisify(execFile);
let database: TestDatabase;
let dir: string;
let sandbox: Sandbox | undefined;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-scrapers-'));
  const cases = await isolatingSandboxCases([]);
  sandbox = cases.find((item): item is SandboxCase & { sandbox: Sandbox } => item.sandbox !== undefined)?.sandbox;
  if (!sandbox) console.warn('SKIPPED exec scraper in a sandbox: no isolation for scripts on this machine');
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

function scraping(options: { resolveConnection?: ScrapeConnectionResolver; sandbox?: Sandbox } = {}) {
  const jobs = createJobs({ pool: database.pool, logger: silent, hostname: 'test' });
  return createCatalogScraping({
    pool: database.pool,
    logger: silent,
    jobs,
    gitCacheDir: path.join(dir, 'git-cache'),
    // kubernetesFile reads manifests of this folder (LOOKOUT_SCRAPE_FILE_ROOTS).
    fileRoots: [dir],
    ...options,
  });
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
    await database.pool.query<{ type: string; name: string; external_id: string[]; tags: unknown; config: unknown }>(
      'SELECT type, name, external_id, tags, config FROM config_items WHERE scraper_id = $1 AND deleted_at IS NULL ORDER BY type, name',
      [scraperId],
    )
  ).rows;

const diffs = async (scraperId: string) =>
  (
    await database.pool.query<{ name: string; summary: string }>(
      `SELECT i.name, c.summary FROM config_changes c JOIN config_items i ON i.id = c.config_id
       WHERE i.scraper_id = $1 ORDER BY c.created_at`,
      [scraperId],
    )
  ).rows;

const lastJob = async (scraperId: string) =>
  (
    await database.pool.query<{ status: string; details: { errors?: string[] } }>(
      `SELECT status, details FROM job_history WHERE resource_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [scraperId],
    )
  ).rows[0]!;

const MANIFESTS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
  labels: { app: api }
spec:
  replicas: 2
---
apiVersion: v1
kind: Service
metadata: { name: api, namespace: shop }
spec:
  ports: [{ port: 80, targetPort: 8080 }]
---
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: api-settings, namespace: shop }
    data: { LOG_LEVEL: info }
`;

describe('kubernetesFile scraper', () => {
  it('gives one item per manifest (List entries too), filtered by the selector', async () => {
    const folder = path.join(dir, 'manifests');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'api.yaml'), MANIFESTS);
    const all = await addScraper('manifests', { kubernetesFile: [{ files: [{ path: [`${folder}/*.yaml`] }] }] });
    expect(await scraping().runNow(all)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect((await items(all)).map((row) => [row.type, row.name, row.external_id[0], row.tags])).toEqual([
      ['Kubernetes::ConfigMap', 'api-settings', 'ConfigMap/shop/api-settings', { namespace: 'shop' }],
      ['Kubernetes::Deployment', 'api', 'Deployment/shop/api', { namespace: 'shop' }],
      ['Kubernetes::Service', 'api', 'Service/shop/api', { namespace: 'shop' }],
    ]);

    const deployments = await addScraper('manifest-deployments', {
      kubernetesFile: [
        { selector: { kind: 'Deployment', namespace: 'shop' }, files: [{ path: [`${folder}/*.yaml`] }] },
      ],
    });
    await scraping().runNow(deployments);
    expect((await items(deployments)).map((row) => row.name)).toEqual(['api']);

    await writeFile(path.join(folder, 'api.yaml'), MANIFESTS.replace('replicas: 2', 'replicas: 4'));
    expect(await scraping().runNow(all)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect(await diffs(all)).toEqual([{ name: 'api', summary: 'spec.replicas: 2 → 4' }]);
  });
});

async function bareRepository(name: string, files: Record<string, string>): Promise<{ bare: string; work: string }> {
  const bare = path.join(dir, 'repos', `${name}.git`);
  const work = path.join(dir, 'work', name);
  await mkdir(work, { recursive: true });
  await run('git', ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  await run('git', ['init', '--quiet', '--initial-branch=main', work]);
  await commitFiles(work, files, 'first');
  await run('git', ['-C', work, 'remote', 'add', 'origin', bare]);
  await run('git', ['-C', work, 'push', '--quiet', 'origin', 'main']);
  return { bare, work };
}

async function commitFiles(work: string, files: Record<string, string>, message: string) {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), text);
  }
  await run('git', ['-C', work, 'add', '-A']);
  await run('git', [
    '-C',
    work,
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@example.com',
    'commit',
    '--quiet',
    '-m',
    message,
  ]);
}

describe('file scraper over a git repository', () => {
  it('checks out the repository, scrapes its files, and sees a pushed change as one diff', async () => {
    const { bare, work } = await bareRepository('settings', {
      'apps/web.yaml': 'id: web\nreplicas: 2\n',
      'apps/db.yaml': 'id: db\nreplicas: 1\n',
      'README.md': '# settings\n',
    });
    const scraperId = await addScraper('git-files', {
      file: [{ type: 'App::Setting', id: '$.id', url: bare, paths: ['apps/*.yaml'] }],
    });
    expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect((await items(scraperId)).map((row) => [row.name, row.external_id[0]])).toEqual([
      ['db.yaml', 'db'],
      ['web.yaml', 'web'],
    ]);

    await commitFiles(work, { 'apps/web.yaml': 'id: web\nreplicas: 3\n' }, 'scale web');
    await run('git', ['-C', work, 'push', '--quiet', 'origin', 'main']);
    expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect(await diffs(scraperId)).toEqual([{ name: 'web.yaml', summary: 'replicas: 2 → 3' }]);
  });

  it('clones over HTTP with the password of a git connection, at its ref', async () => {
    const { work } = await bareRepository('private', { 'app.json': '{"id":"private-app","tier":"gold"}' });
    await run('git', ['-C', work, 'checkout', '--quiet', '-b', 'release']);
    await commitFiles(work, { 'app.json': '{"id":"private-app","tier":"platinum"}' }, 'release');
    await run('git', ['-C', work, 'push', '--quiet', 'origin', 'release']);
    const server = await startGitHttpServer(path.join(dir, 'repos'), { user: 'scraper', password: 's3cret-token' });
    try {
      const resolve: ScrapeConnectionResolver = async (reference) => {
        expect(reference).toBe('connection://default/private-repo');
        return {
          type: 'git',
          url: `${server.url}/private.git`,
          username: 'scraper',
          password: 's3cret-token',
          properties: { ref: 'release' },
        };
      };
      const scraperId = await addScraper('git-http', {
        file: [
          { type: 'App::Setting', id: '$.id', connection: 'connection://default/private-repo', paths: ['*.json'] },
        ],
      });
      expect(await scraping({ resolveConnection: resolve }).runNow(scraperId)).toMatchObject({ status: 'SUCCESS' });
      expect((await items(scraperId)).map((row) => row.config)).toEqual([{ id: 'private-app', tier: 'platinum' }]);
      expect(server.requests.some((request) => request.user === 'scraper')).toBe(true);

      const refused = await addScraper('git-http-refused', {
        file: [{ type: 'App::Setting', url: `${server.url}/private.git`, paths: ['*.json'] }],
      });
      expect(await scraping().runNow(refused)).toMatchObject({ status: 'FAILED' });
      expect((await lastJob(refused)).details.errors).toEqual([
        expect.stringMatching(/^file\[0\]: git clone of http:\/\/127\.0\.0\.1:\d+\/private\.git failed: /),
      ]);
    } finally {
      await server.close();
    }
  });

  it('keeps paths and links inside the repository, and refuses transports that run commands', async () => {
    const { bare, work } = await bareRepository('escape', { 'ok.yaml': 'id: ok\n' });
    await symlink('/etc/hostname', path.join(work, 'host.yaml'));
    await commitFiles(work, {}, 'link');
    await run('git', ['-C', work, 'push', '--quiet', 'origin', 'main']);
    const scraperId = await addScraper('git-escape', {
      file: [{ type: 'T', id: '$.id', url: bare, paths: ['*.yaml'] }],
    });
    expect(await scraping().runNow(scraperId)).toMatchObject({ status: 'WARNING' });
    expect((await lastJob(scraperId)).details.errors).toEqual([
      'file[0]: host.yaml: links outside the repository; left out',
    ]);
    expect((await items(scraperId)).map((row) => row.name)).toEqual(['ok.yaml']);

    const absolute = await addScraper('git-absolute', { file: [{ type: 'T', url: bare, paths: ['/etc/*.conf'] }] });
    await scraping().runNow(absolute);
    expect((await lastJob(absolute)).details.errors).toEqual([
      "file[0]: paths: '/etc/*.conf' is outside the repository; give paths relative to its root",
    ]);
    const ext = await addScraper('git-ext', {
      file: [{ type: 'T', url: 'ext::sh -c touch% /tmp/pwned', paths: ['*'] }],
    });
    await scraping().runNow(ext);
    expect((await lastJob(ext)).details.errors).toEqual([
      expect.stringMatching(
        /^file\[0\]: url 'ext::sh -c touch% \/tmp\/pwned': ssh and other transports are not supported/,
      ),
    ]);
  });
});

describe('exec scraper', () => {
  it('runs the script in the sandbox and takes its JSON output as items', async () => {
    // Said SKIPPED at the top of the file where the machine offers no isolation.
    if (!sandbox) return;
    const scraperId = await addScraper('exec', {
      exec: [
        {
          type: 'Script::Host',
          id: '$.name',
          env: [{ name: 'TIER', value: 'gold' }],
          script: `printf '[{"name":"alpha","tier":"%s","user":"%s"},{"name":"beta","tier":"%s"}]' "$TIER" "$(id -u)" "$TIER"`,
        },
      ],
    });
    expect(await scraping({ sandbox }).runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
    const rows = await items(scraperId);
    expect(rows.map((row) => [row.name, row.config])).toEqual([
      ['alpha', { name: 'alpha', tier: 'gold', user: expect.not.stringMatching(/^0$/) }],
      ['beta', { name: 'beta', tier: 'gold' }],
    ]);
  });

  it('names a failing script, output that is not JSON, and a server without the sandbox', async (context) => {
    if (sandbox) {
      const failing = await addScraper('exec-fail', {
        exec: [
          { type: 'T', id: '$.id', script: 'echo "no inventory here" >&2; exit 3' },
          { type: 'T', id: '$.id', script: 'echo hello' },
        ],
      });
      expect(await scraping({ sandbox }).runNow(failing)).toMatchObject({ status: 'FAILED' });
      expect((await lastJob(failing)).details.errors).toEqual([
        'exec[0]: the script exited with code 3: no inventory here',
        expect.stringMatching(/^exec\[1\]: the script did not print JSON: /),
      ]);
    } else context.annotate('the sandboxed cases were skipped');
    const unsandboxed = await addScraper('exec-nosandbox', { exec: [{ type: 'T', script: 'echo []' }] });
    expect(await scraping().runNow(unsandboxed)).toMatchObject({ status: 'FAILED' });
    expect((await lastJob(unsandboxed)).details.errors).toEqual([
      'exec[0]: exec scrapers need the script sandbox, which this server did not set up',
    ]);
  });
});
