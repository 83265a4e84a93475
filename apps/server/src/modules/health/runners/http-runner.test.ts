import http, { type IncomingMessage, type RequestListener, type Server } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { HttpCheck } from '@lookout/contracts';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../db/free-port.js';
import { runCheck } from './runners.js';
import type { SecretResolver } from './runner-types.js';

const DAY = 86_400_000;
const secrets: Record<string, string> = { 'web/password': 's3cret', 'web/token': 'abc123' };
const resolveSecret: SecretResolver = async (ref) => {
  const key = ref.secretKeyRef ? `${ref.secretKeyRef.name}/${ref.secretKeyRef.key}` : '';
  const value = secrets[key];
  if (value === undefined) throw new Error(`no secret ${key}`);
  return value;
};
const run = (check: HttpCheck, timeoutMs = 5000) => runCheck({ type: 'http', check }, { resolveSecret, timeoutMs });

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
  });

/** The service under test: each path is one behaviour a health check meets in real life. */
const handler: RequestListener = (request, response) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  switch (path) {
    case '/ok':
      response.writeHead(200, { 'content-type': 'application/json', 'x-version': '1.2.3' });
      response.end(
        JSON.stringify({
          status: 'up',
          items: [
            { name: 'db', ok: true },
            { name: 'cache', ok: false },
          ],
        }),
      );
      return;
    case '/down':
      response.writeHead(503, { 'content-type': 'text/plain' });
      response.end('maintenance');
      return;
    case '/slow':
      setTimeout(() => response.end('finally'), 300);
      return;
    case '/moved':
      response.writeHead(302, { location: '/ok' });
      response.end();
      return;
    case '/secure': {
      const expected = `Basic ${Buffer.from('admin:s3cret').toString('base64')}`;
      response.writeHead(request.headers.authorization === expected ? 200 : 401);
      response.end(request.headers.authorization === expected ? 'welcome' : 'who are you?');
      return;
    }
    case '/echo':
      void readBody(request).then((body) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ method: request.method, token: request.headers['x-token'] ?? null, body }));
      });
      return;
    case '/hang':
      return; // never answers
    default:
      response.writeHead(404);
      response.end();
  }
};

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Each certificate gets its own name: OpenSSL finds a trusted issuer by subject name. */
async function certificate(commonName: string, validForMs: number) {
  return generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    notBeforeDate: new Date(Date.now() - 60_000),
    notAfterDate: new Date(Date.now() + validForMs),
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
}

const servers: Server[] = [];
let plain = '';
let secure = '';
let expiring = '';
let caBundle = '';

beforeAll(async () => {
  const plainServer = http.createServer(handler);
  servers.push(plainServer);
  plain = `http://127.0.0.1:${await listen(plainServer)}`;

  const longLived = await certificate('localhost', 365 * DAY);
  const shortLived = await certificate('expiring-soon', 3 * DAY + 3_600_000);
  caBundle = `${longLived.cert}\n${shortLived.cert}`;
  const secureServer = https.createServer({ key: longLived.private, cert: longLived.cert }, handler);
  const expiringServer = https.createServer({ key: shortLived.private, cert: shortLived.cert }, handler);
  servers.push(secureServer, expiringServer);
  secure = `https://127.0.0.1:${await listen(secureServer)}`;
  expiring = `https://127.0.0.1:${await listen(expiringServer)}`;
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('http runner against a local HTTP server', () => {
  it('passes a healthy endpoint, with CEL test, display and transform over the response', async () => {
    const result = await run({
      name: 'api',
      url: `${plain}/ok`,
      responseCodes: [200],
      responseContent: '"status":"up"',
      thresholdMillis: 2000,
      test: {
        expr: 'code == 200 && json.status == "up" && headers["X-Version"] == "1.2.3" && elapsed < duration("5s")',
      },
      display: { expr: '"status is " + json.status' },
      transform: { expr: 'json.items.map(i, {"name": i.name, "pass": i.ok})' },
    });
    expect(result).toMatchObject({ pass: true, message: 'status is up' });
    expect(result.transformed).toEqual([
      { name: 'db', pass: true },
      { name: 'cache', pass: false },
    ]);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.detail).toMatchObject({ code: 200, url: `${plain}/ok` });
  });

  it('says which status it expected and which it got', async () => {
    expect(await run({ name: 'down', url: `${plain}/down`, responseCodes: [200] })).toMatchObject({
      pass: false,
      message: 'expected status 200, got 503',
    });
    expect(await run({ name: 'down', url: `${plain}/down` })).toMatchObject({
      pass: false,
      message: 'expected status 2xx, got 503',
    });
  });

  it('fails a response slower than thresholdMillis and says how slow', async () => {
    const result = await run({ name: 'slow', url: `${plain}/slow`, thresholdMillis: 100 });
    expect(result.pass).toBe(false);
    expect(result.message).toMatch(/^response took \d+ ms, threshold 100 ms$/);
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('fails when the expected content is missing or the test expression is false', async () => {
    expect(await run({ name: 'content', url: `${plain}/ok`, responseContent: 'healthy' })).toMatchObject({
      pass: false,
      message: 'response does not contain "healthy"',
    });
    const tested = await run({ name: 'test', url: `${plain}/ok`, test: { expr: 'json.items.all(i, i.ok)' } });
    expect(tested.pass).toBe(false);
    expect(tested.message).toMatch(/^test `json\.items\.all\(i, i\.ok\)` returned false; 200 OK in [\d.]+ ms$/);
  });

  it('authenticates with basic credentials read from a secret', async () => {
    const authentication = {
      username: { value: 'admin' },
      password: { valueFrom: { secretKeyRef: { name: 'web', key: 'password' } } },
    };
    expect(await run({ name: 'auth', url: `${plain}/secure`, authentication })).toMatchObject({ pass: true });
    expect(
      await run({
        name: 'auth',
        url: `${plain}/secure`,
        authentication: { ...authentication, password: { value: 'wrong' } },
      }),
    ).toMatchObject({ pass: false, message: 'expected status 2xx, got 401' });
    expect(
      await run({
        name: 'auth',
        url: `${plain}/secure`,
        authentication: { ...authentication, password: { valueFrom: { secretKeyRef: { name: 'web', key: 'nope' } } } },
      }),
    ).toMatchObject({
      pass: false,
      message: "could not read the password from secret 'web' key 'nope' (no secret web/nope)",
    });
  });

  it('sends the method, headers (from secrets too) and body', async () => {
    const result = await run({
      name: 'echo',
      url: `${plain}/echo`,
      method: 'POST',
      headers: [{ name: 'X-Token', valueFrom: { secretKeyRef: { name: 'web', key: 'token' } } }],
      body: '{"ping":true}',
      test: { expr: 'json.method == "POST" && json.token == "abc123" && json.body == "{\\"ping\\":true}"' },
    });
    expect(result).toMatchObject({ pass: true });
  });

  it('follows redirects unless the check expects the redirect itself', async () => {
    expect(await run({ name: 'moved', url: `${plain}/moved`, test: { expr: 'json.status == "up"' } })).toMatchObject({
      pass: true,
    });
    expect(await run({ name: 'moved', url: `${plain}/moved`, responseCodes: [302] })).toMatchObject({ pass: true });
    expect(await run({ name: 'moved', url: `${plain}/moved`, responseCodes: [301] })).toMatchObject({
      pass: false,
      message: 'expected status 301, got 302 (redirect to /ok)',
    });
  });

  it('fails with the reason when nothing listens', async () => {
    const port = await findFreePort();
    expect(await run({ name: 'closed', url: `http://127.0.0.1:${port}/health` })).toMatchObject({
      pass: false,
      message: `could not reach http://127.0.0.1:${port}/health: connection refused`,
    });
  });

  it('fails with "timed out after N ms" when the server never answers', async () => {
    const result = await run({ name: 'hang', url: `${plain}/hang` }, 300);
    expect(result).toMatchObject({ pass: false, message: 'timed out after 300 ms' });
  });
});

describe('http runner against local HTTPS servers', () => {
  it('passes a trusted certificate with time to spare and exposes sslAge', async () => {
    const result = await run({
      name: 'tls',
      url: `${secure}/ok`,
      maxSSLExpiry: 30,
      tlsConfig: { ca: { value: caBundle } },
      test: { expr: 'sslAge > duration("720h")' },
    });
    expect(result.pass).toBe(true);
    expect(result.message).toMatch(/^200 OK in [\d.]+ ms, certificate valid for 36[45] more days$/);
    expect(result.detail).toMatchObject({ certificate: { subject: 'localhost' } });
  });

  it('fails a certificate that expires sooner than maxSSLExpiry', async () => {
    expect(
      await run({ name: 'tls', url: `${expiring}/ok`, maxSSLExpiry: 7, tlsConfig: { ca: { value: caBundle } } }),
    ).toMatchObject({ pass: false, message: 'certificate expires in 3 days, minimum 7' });
  });

  it('fails a certificate nobody trusts, unless told to skip verification', async () => {
    expect(await run({ name: 'tls', url: `${secure}/ok` })).toMatchObject({
      pass: false,
      message: `could not reach ${secure}/ok: TLS certificate is self-signed and not trusted`,
    });
    expect(
      await run({ name: 'tls', url: `${secure}/ok`, tlsConfig: { insecureSkipVerify: true }, maxSSLExpiry: 7 }),
    ).toMatchObject({ pass: true });
  });
});
