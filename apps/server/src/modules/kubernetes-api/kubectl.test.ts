import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { KubeconfigToken } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { selfSignedCertificate } from '../../../test/self-signed-certificate.js';

/*
 * The real kubectl against the real server (listening on a port) and real PostgreSQL, with a
 * kubeconfig downloaded from GET /api/kubeconfig: get, get -o yaml, apply (create and
 * configure), delete, a viewer refused, a bad document refused naming the field, a revoked
 * token refused. Debian's kubectl (package kubernetes-client, 1.20) is preferred: LOOKOUT_KUBECTL,
 * else its unpacked copy in /opt/kubernetes-client, else kubectl on the PATH
 * (scripts/ensure-test-tools.mjs installs it). kubectl sends tokens only over TLS, so it
 * reaches the app through a TLS-terminating proxy (as a deployment does), whose address is
 * LOOKOUT_PUBLIC_URL.
 */
const run = promisify(execFile);
const KUBECTL =
  process.env.LOOKOUT_KUBECTL ??
  (existsSync('/opt/kubernetes-client/usr/bin/kubectl') ? '/opt/kubernetes-client/usr/bin/kubectl' : 'kubectl');

let testApp: TestApp;
let base: string;
let publicUrl: string;
let dir: string;
let proxy: https.Server;
const users = {} as Record<'admin' | 'editor' | 'viewer', TestUser>;
const files = {} as Record<'admin' | 'editor' | 'viewer', string>;

async function download(user: TestUser): Promise<Response> {
  return fetch(`${base}/api/kubeconfig`, { headers: { authorization: `Bearer ${user.token}` } });
}

/** kubectl with a user's kubeconfig; resolves with exit code, stdout and stderr. */
async function kubectl(who: keyof typeof files, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      KUBECTL,
      ['--kubeconfig', files[who], '--cache-dir', path.join(dir, `cache-${who}`), ...args],
      { timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const canary = (interval: number, url = 'http://127.0.0.1:9/') => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: web
  namespace: default
  labels:
    team: web
spec:
  interval: ${interval}
  http:
    - name: home
      url: ${url}
`;

async function writeFileIn(name: string, text: string) {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-kubectl-'));
  const certificate = await selfSignedCertificate('127.0.0.1');
  const caFile = await writeFileIn('ca.pem', certificate.cert);
  // The TLS proxy in front of the app: forwards each request as it came.
  proxy = https.createServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
    const forwarded = http.request(
      `${base}${request.url ?? '/'}`,
      { method: request.method, headers: { ...request.headers, 'x-forwarded-proto': 'https' } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  publicUrl = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  testApp = await buildTestApp({ publicUrl });
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `kubectl-${role}@example.org`,
      roles: role === 'viewer' ? [] : [role],
    });
    const response = await download(users[role]);
    expect(response.status).toBe(200);
    files[role] = await writeFileIn(`${role}.yaml`, await response.text());
    // The file trusts the system's CAs; this test's proxy has its own.
    await run(KUBECTL, [
      'config',
      'set-cluster',
      'lookout',
      `--certificate-authority=${caFile}`,
      '--embed-certs=true',
      '--kubeconfig',
      files[role],
    ]);
  }
}, 180_000);

afterAll(async () => {
  await testApp?.close();
  proxy?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('GET /api/kubeconfig', () => {
  it('is a kubeconfig for this server under /api/kubernetes with a token, as a download', async () => {
    const response = await download(users.admin);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="lookout-kubeconfig.yaml"');
    const text = await response.text();
    expect(text).toContain(`server: ${publicUrl}/api/kubernetes`);
    expect(text).toMatch(/token: lkt_[A-Za-z0-9_-]{43}/);
    expect(text).toContain('current-context: lookout');
  });

  it('needs a session', async () => {
    expect((await fetch(`${base}/api/kubeconfig`)).status).toBe(401);
  });
});

describe('kubectl with a downloaded kubeconfig', () => {
  it('applies, lists, shows and deletes a canary', async () => {
    const file = await writeFileIn('canary.yaml', canary(60));
    const created = await kubectl('editor', 'apply', '-f', file);
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe('canary.canaries.flanksource.com/web created');

    // Another canary, so that the list and kubectl's wait after delete must filter by name.
    const other = await writeFileIn('other-canary.yaml', canary(60).replace('name: web', 'name: api'));
    expect((await kubectl('editor', 'apply', '-f', other)).stdout.trim()).toBe(
      'canary.canaries.flanksource.com/api created',
    );
    const selected = await kubectl('viewer', 'get', 'canaries', '--field-selector', 'metadata.name=api');
    expect(selected.stdout, selected.stderr).toMatch(/^NAME\s+AGE\napi\s+\d+s\n$/);
    const labelled = await kubectl('viewer', 'get', 'canaries', '-l', 'team=web,!tier');
    expect(labelled.stdout, labelled.stderr).toMatch(/^NAME\s+AGE\napi\s+\d+s\nweb\s+\d+s\n$/);
    expect((await kubectl('viewer', 'get', 'canaries', '-l', 'team!=web')).stderr).toContain('No resources found');
    expect((await kubectl('admin', 'delete', 'canary', 'api')).stdout.trim()).toBe(
      'canary.canaries.flanksource.com "api" deleted',
    );
    const watched = await kubectl('viewer', 'get', 'canaries', '--watch');
    expect(watched.stderr).toContain('Error from server (MethodNotAllowed)');

    const listed = await kubectl('viewer', 'get', 'canaries');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^NAME\s+AGE\nweb\s+\d+s\n$/);
    // The dialog's command lists every namespace.
    const everywhere = await kubectl('viewer', 'get', 'canaries', '-A');
    expect(everywhere.stdout, everywhere.stderr).toMatch(/^NAMESPACE\s+NAME\s+AGE\ndefault\s+web\s+\d+s\n$/);

    const shown = await kubectl('viewer', 'get', 'canary', 'web', '-o', 'yaml');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('kind: Canary');
    expect(shown.stdout).toContain('interval: 60');
    expect(shown.stdout).toContain('url: http://127.0.0.1:9/');
    expect(shown.stdout).toContain('team: web');

    const changed = await writeFileIn('canary2.yaml', canary(120));
    const configured = await kubectl('editor', 'apply', '-f', changed);
    expect(configured.stdout.trim(), configured.stderr).toBe('canary.canaries.flanksource.com/web configured');
    expect((await kubectl('viewer', 'get', 'canary', 'web', '-o', 'yaml')).stdout).toContain('interval: 120');
    // The same row the console and /api/db see.
    const rows = await testApp.database.pool.query(
      "SELECT spec->>'interval' AS interval FROM canaries WHERE name = 'web' AND deleted_at IS NULL",
    );
    expect(rows.rows).toEqual([{ interval: '120' }]);

    const deleted = await kubectl('admin', 'delete', 'canary', 'web');
    expect(deleted.stdout.trim(), deleted.stderr).toBe('canary.canaries.flanksource.com "web" deleted');
    const gone = await kubectl('viewer', 'get', 'canary', 'web');
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('Error from server (NotFound): canaries.canaries.flanksource.com "web" not found');
  });

  it("refuses a viewer's writes with Forbidden", async () => {
    const file = await writeFileIn('viewer-canary.yaml', canary(60));
    const refused = await kubectl('viewer', 'apply', '-f', file);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Error from server (Forbidden)');
    expect(refused.stderr).toContain('do not allow create (write on canaries)');
    const rows = await testApp.database.pool.query("SELECT 1 FROM canaries WHERE name = 'web' AND deleted_at IS NULL");
    expect(rows.rowCount).toBe(0);
  });

  it('refuses an invalid document naming the field', async () => {
    const file = await writeFileIn('bad-canary.yaml', canary(60, 'ftp://nowhere'));
    const refused = await kubectl('admin', 'apply', '-f', file);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('The Canary "web" is invalid: spec: ');
    expect(refused.stderr).toContain('url');
  });

  it('refuses a scrape config reading a host file outside LOOKOUT_SCRAPE_FILE_ROOTS, naming the field', async () => {
    const file = await writeFileIn(
      'shadow-scraper.yaml',
      `apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata: { name: shadow, namespace: default }
spec:
  file:
    - type: Config
      paths: [/etc/shadow]
`,
    );
    const refused = await kubectl('editor', 'apply', '-f', file);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('The ScrapeConfig "shadow" is invalid: ');
    expect(refused.stderr).toContain(
      'spec.file[0].paths[0]: /etc/shadow is outside the directories file scrapers may read (LOOKOUT_SCRAPE_FILE_ROOTS=/etc/lookout/catalog)',
    );
    const rows = await testApp.database.pool.query("SELECT 1 FROM config_scrapers WHERE name = 'shadow'");
    expect(rows.rowCount).toBe(0);
  });

  it('serves topologies, scrape configs, playbooks and notifications too', async () => {
    const scraper = await writeFileIn(
      'scraper.yaml',
      `apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata: { name: files, namespace: default }
spec:
  file:
    - type: Config
      paths: [/etc/lookout/catalog/none.json]
`,
    );
    const applied = await kubectl('admin', 'apply', '-f', scraper);
    expect(applied.stdout.trim(), applied.stderr).toBe('scrapeconfig.configs.flanksource.com/files created');
    expect((await kubectl('viewer', 'get', 'scrapeconfigs')).stdout).toMatch(/^files\s/m);
    expect((await kubectl('viewer', 'get', 'topologies')).stderr).toContain('No resources found in default namespace.');
    expect((await kubectl('viewer', 'get', 'notifications')).code).toBe(0);
    const playbook = await writeFileIn(
      'playbook.yaml',
      `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: { name: restart, namespace: default }
spec:
  title: Restart
  checks: [{ types: [http] }]
  actions:
    - name: greet
      exec: { script: echo hello }
`,
    );
    const playbookApplied = await kubectl('editor', 'apply', '-f', playbook);
    expect(playbookApplied.stdout.trim(), playbookApplied.stderr).toBe(
      'playbook.mission-control.flanksource.com/restart created',
    );
    expect((await kubectl('viewer', 'get', 'playbook', 'restart', '-o', 'yaml')).stdout).toContain(
      'script: echo hello',
    );
    const deleted = await kubectl('admin', 'delete', 'scrapeconfig', 'files');
    expect(deleted.stdout, deleted.stderr).toContain('deleted');
  });

  it('stops working once its token is revoked', async () => {
    const tokens = await fetch(`${base}/api/kubeconfig/tokens`, {
      headers: { authorization: `Bearer ${users.editor.token}` },
    }).then((response) => response.json() as Promise<KubeconfigToken[]>);
    expect(tokens).toHaveLength(1);
    expect(Object.keys(tokens[0]!).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'name']);
    const other = await fetch(`${base}/api/kubeconfig/tokens/${tokens[0]!.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${users.viewer.token}` },
    });
    expect(other.status).toBe(404);
    const bad = await fetch(`${base}/api/kubeconfig/tokens/nope`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${users.editor.token}` },
    });
    expect(bad.status).toBe(400);
    const revoked = await fetch(`${base}/api/kubeconfig/tokens/${tokens[0]!.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${users.editor.token}` },
    });
    expect(revoked.status).toBe(204);
    const refused = await kubectl('editor', 'get', 'canaries');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Unauthorized|must be logged in/);
  });
});
