import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchConsole } from './support/browser.js';
import { makeDataDir, startLookout, type LookoutServer } from './support/lookout-server.js';

/*
 * The kubeconfig journey (spec 1 section 2.3, issue 19): in Chromium the admin opens the user
 * menu's Download kubeconfig, downloads the file from the dialog, and the real kubectl
 * (Debian's kubernetes-client when unpacked in /opt, else kubectl on the PATH) applies, lists
 * and deletes a canary with it. kubectl sends tokens only over TLS, so LOOKOUT_PUBLIC_URL is a
 * TLS proxy in front of the built server, as in a deployment.
 */
const run = promisify(execFile);
const KUBECTL =
  process.env.LOOKOUT_KUBECTL ??
  (existsSync('/opt/kubernetes-client/usr/bin/kubectl') ? '/opt/kubernetes-client/usr/bin/kubectl' : 'kubectl');
const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'Lookout-admin-e2e-1';

describe('Download kubeconfig, then kubectl', () => {
  let server: LookoutServer;
  let browser: Browser;
  let proxy: https.Server;
  let dir: string;
  let removeData: () => Promise<void>;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-kubeconfig-e2e-'));
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    await writeFile(path.join(dir, 'ca.pem'), pems.cert);
    let target = '';
    proxy = https.createServer({ cert: pems.cert, key: pems.private }, (request, response) => {
      const forwarded = http.request(
        `${target}${request.url ?? '/'}`,
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
    const publicUrl = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const data = await makeDataDir();
    removeData = data.remove;
    server = await startLookout({
      dataDir: data.dir,
      env: { LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL, LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD, LOOKOUT_PUBLIC_URL: publicUrl },
    });
    target = server.url;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    proxy?.close();
    await removeData?.();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('downloads the file from the dialog and kubectl applies, lists and deletes a canary with it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    const { errors } = watchConsole(page);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-Mail').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Download kubeconfig' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download and install kubeconfig' });
    await dialog.waitFor();
    await dialog.getByText('kubectl --kubeconfig ~/Downloads/lookout-kubeconfig.yaml get canaries -A').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}kubeconfig-dialog.png` });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('link', { name: 'Download kubeconfig' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('lookout-kubeconfig.yaml');
    const file = path.join(dir, 'lookout-kubeconfig.yaml');
    await download.saveAs(file);
    expect(await readFile(file, 'utf8')).toContain('/api/kubernetes');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();

    // The proxy's certificate is this test's own CA.
    const kubectl = (...args: string[]) =>
      run(KUBECTL, ['--kubeconfig', file, '--cache-dir', path.join(dir, 'cache'), ...args], { timeout: 60_000 });
    await kubectl(
      'config',
      'set-cluster',
      'lookout',
      `--certificate-authority=${path.join(dir, 'ca.pem')}`,
      '--embed-certs=true',
    );
    const canary = path.join(dir, 'canary.yaml');
    await writeFile(
      canary,
      'apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata: { name: e2e-web }\nspec:\n  interval: 300\n  http:\n    - name: home\n      url: http://127.0.0.1:9/\n',
    );
    expect((await kubectl('apply', '-f', canary)).stdout.trim()).toBe(
      'canary.canaries.flanksource.com/e2e-web created',
    );
    expect((await kubectl('get', 'canaries', '-A')).stdout).toMatch(/^default\s+e2e-web\s+/m);
    expect((await kubectl('delete', 'canary', 'e2e-web')).stdout.trim()).toBe(
      'canary.canaries.flanksource.com "e2e-web" deleted',
    );
  });
});
