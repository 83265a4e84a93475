import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { bearer, type TestUser } from './access-helpers.js';
import { isolatingSandboxCases } from './sandbox-helpers.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';

/** A sandbox that works on this machine (bubblewrap or nobody), or undefined. */
export async function workingSandbox(): Promise<Sandbox | undefined> {
  const cases = await isolatingSandboxCases([]);
  return cases.find((item) => item.sandbox)?.sandbox;
}

/** A local HTTP server answering every request with JSON of what it got. */
export async function startEchoServer(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      hits++;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ method: request.method, url: request.url, body, auth: request.headers.authorization ?? null }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const api =
  (app: FastifyInstance) =>
  (user: TestUser | undefined, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: {
        ...bearer(user),
        ...(body === undefined ? {} : { 'content-type': 'application/json', prefer: 'return=representation' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

/** Whether any process's command line holds `marker` (a killed script must leave none). */
export async function processWith(marker: string): Promise<boolean> {
  const { readdir, readFile } = await import('node:fs/promises');
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) return true;
  }
  return false;
}
