#!/usr/bin/env node
// How much JavaScript the console makes a browser download: a cold /login (signed out) and a
// cold /health (signed in), each in a fresh browser context with an empty cache, in headless
// Chromium against the built `lookout serve`. It is a measurement, not a timing: byte counts
// of the same build come out the same on any machine.
//
//   npm run bench -- web-weight        (builds first)
//   node bench/web/weight.mjs          (after npm run build)
//
// For every script the page loads it records the bytes that crossed the wire (encoded body
// plus response headers, as DevTools' "transferred") and the decoded size, so each figure has
// its baseline from the same run: the ratio transferred / decoded shows what compression saves,
// and the decoded total is what the page weighed before the server compressed anything.
// Budgets (issue 20): under 250 kB of JavaScript transferred on /login, under 400 kB on
// /health; a page over its budget makes the run exit 1. Results go to stdout and
// bench/results/web-weight.json; docs/web-shell.md ("Page weight") keeps the figures.
//
// Environment: CHROMIUM_PATH (/usr/bin/chromium).
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEALTH_PAGE_TEXTS, IDENTITY_MESSAGES } from '@lookout/contracts';
import { findFreePort } from '@lookout/embedded-postgres';
import { makeTempDataDir } from '@lookout/embedded-postgres/testing';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(root, 'apps/server/dist/cli.js');
const resultsFile = path.join(root, 'bench/results/web-weight.json');

// The flags of e2e/support/browser.ts: what this machine's headless Chromium needs, and no
// traffic of its own.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const ADMIN_EMAIL = 'bench@example.com';
const ADMIN_PASSWORD = 'Lookout-bench-weight-1';
/** Bytes of JavaScript a cold page may transfer (issue 20: 250 kB and 400 kB). */
const BUDGETS = { login: 250_000, health: 400_000 };

/** `lookout serve` from the build on a free port and a throwaway data directory. */
async function startLookout(dataDir) {
  const port = await findFreePort();
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      LOOKOUT_DATA_DIR: dataDir,
      LOOKOUT_PUBLIC_URL: url,
      LOOKOUT_ADMIN_EMAIL: ADMIN_EMAIL,
      LOOKOUT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`lookout serve exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`${url}/api/health`)
      .then((response) => response.status === 200)
      .catch(() => false);
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`lookout serve did not become healthy in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Signs the context in through the Kratos browser flow, as the sign-in page does. */
async function signIn(context, url) {
  const flow = await context.request.get(`${url}/api/.ory/self-service/login/browser`, {
    headers: { accept: 'application/json' },
  });
  const body = await flow.json();
  const csrf = body.ui.nodes.find((node) => node.attributes?.name === 'csrf_token')?.attributes.value;
  const submitted = await context.request.post(`${url}/api/.ory/self-service/login?flow=${body.id}`, {
    headers: { accept: 'application/json' },
    data: { method: 'password', identifier: ADMIN_EMAIL, password: ADMIN_PASSWORD, csrf_token: csrf },
  });
  if (submitted.status() !== 200)
    throw new Error(`Signing in answered ${submitted.status()}: ${await submitted.text()}`);
}

/**
 * Opens `path` in `context` (fresh, so its cache is empty), waits until `ready` shows and the
 * network is idle, and sums the scripts it loaded.
 */
async function measure(context, url, pagePath, ready) {
  const page = await context.newPage();
  const scripts = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    scripts.push(
      (async () => {
        const response = await request.response();
        const sizes = await request.sizes();
        const body = response ? await response.body() : Buffer.alloc(0);
        return {
          file: new URL(request.url()).pathname,
          encoding: response?.headers()['content-encoding'] ?? 'identity',
          transferredBytes: sizes.responseBodySize + sizes.responseHeadersSize,
          decodedBytes: body.length,
        };
      })(),
    );
  });
  await page.goto(`${url}${pagePath}`);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all(scripts);
  await page.close();
  const transferredBytes = loaded.reduce((sum, script) => sum + script.transferredBytes, 0);
  const decodedBytes = loaded.reduce((sum, script) => sum + script.decodedBytes, 0);
  return {
    path: pagePath,
    scripts: loaded.length,
    transferredBytes,
    decodedBytes,
    ratio: Math.round((transferredBytes / decodedBytes) * 1000) / 1000,
    encodings: [...new Set(loaded.map((script) => script.encoding))],
    files: loaded.sort((a, b) => b.transferredBytes - a.transferredBytes),
  };
}

async function main() {
  const data = await makeTempDataDir('lookout-bench-web-');
  const server = await startLookout(data.dir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const signedOut = await browser.newContext();
    const login = await measure(signedOut, server.url, '/login', (page) =>
      page.getByRole('heading', { name: IDENTITY_MESSAGES.signInTitle }).waitFor(),
    );
    await signedOut.close();

    const signedIn = await browser.newContext();
    await signIn(signedIn, server.url);
    const health = await measure(signedIn, server.url, '/health', (page) =>
      page.getByRole('heading', { name: HEALTH_PAGE_TEXTS.title, level: 1 }).waitFor(),
    );
    await signedIn.close();

    const pages = {
      login: { ...login, budgetBytes: BUDGETS.login, withinBudget: login.transferredBytes < BUDGETS.login },
      health: { ...health, budgetBytes: BUDGETS.health, withinBudget: health.transferredBytes < BUDGETS.health },
    };
    const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
    for (const [name, result] of Object.entries(pages)) {
      console.log(
        `${name.padEnd(7)} ${String(result.scripts).padStart(2)} scripts: ${kB(result.transferredBytes)} transferred ` +
          `(${result.encodings.join(', ')}), ${kB(result.decodedBytes)} decoded, ratio ${result.ratio}; ` +
          `budget ${kB(result.budgetBytes)}: ${result.withinBudget ? 'within' : 'OVER'}`,
      );
    }
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(
      resultsFile,
      `${JSON.stringify(
        {
          benchmark: 'web-weight',
          description:
            'JavaScript a cold page load transfers in headless Chromium (encoded bodies plus headers), against the decoded size of the same scripts in the same run',
          date: new Date().toISOString(),
          pages,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`Results written to ${path.relative(root, resultsFile)}`);
    if (!pages.login.withinBudget || !pages.health.withinBudget) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.stop();
    await data.remove();
  }
}

await main();
