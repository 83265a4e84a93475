import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBasicAuthServer, type BasicAuthServer } from '../../../../test/basic-auth-server.js';
import { connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { findFreePort } from '../../../db/free-port.js';
import { testElasticsearchConnection } from './elasticsearch-tester.js';
import { httpRequestOf } from './http-get.js';
import { testHttpConnection } from './http-tester.js';
import { testPrometheusConnection } from './prometheus-tester.js';

/*
 * The http, prometheus and elasticsearch testers: http against a loopback server that wants
 * basic auth or a bearer token; prometheus against a real Prometheus this file starts with
 * basic auth on its web API (Debian's prometheus package); elasticsearch against a loopback
 * server answering as Elasticsearch documents it (GET / with the cluster's JSON; 401 with a
 * security_exception), since no Elasticsearch or OpenSearch is packaged here.
 */

type Served = { url: string; close: () => Promise<void> };

async function serve(handler: http.RequestListener): Promise<Served> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('http tester', () => {
  let basic: BasicAuthServer;
  let bearer: Served;
  beforeAll(async () => {
    basic = await startBasicAuthServer('ops', 'right-Pass-1');
    bearer = await serve((request, response) => {
      const ok = request.headers.authorization === 'Bearer tok-123';
      response.writeHead(ok ? 200 : 403, { 'content-type': 'application/json' });
      response.end(ok ? '{"ok":true}' : '{"message":"invalid token"}');
    });
  });
  afterAll(async () => {
    await basic.close();
    await bearer.close();
  });

  it('answers ok with basic auth from the fields or the url, and the status and body otherwise', async () => {
    await testHttpConnection(
      connectionUnderTest('http', { url: basic.url, username: 'ops', password: 'right-Pass-1' }),
      testerContext(),
    );
    await testHttpConnection(
      connectionUnderTest('http', { url: basic.url.replace('http://', 'http://ops:right-Pass-1@') }),
      testerContext(),
    );
    await expect(
      testHttpConnection(
        connectionUnderTest('http', { url: basic.url, username: 'ops', password: 'wrong' }),
        testerContext(),
      ),
    ).rejects.toThrow('401 Unauthorized: who are you?');
  });

  it('sends a password without a user, or a bearer property, as a bearer token', async () => {
    await testHttpConnection(connectionUnderTest('http', { url: bearer.url, password: 'tok-123' }), testerContext());
    await testHttpConnection(
      connectionUnderTest('http', { url: bearer.url, properties: { bearer: 'tok-123' } }),
      testerContext(),
    );
    await expect(
      testHttpConnection(connectionUnderTest('http', { url: bearer.url, password: 'tok-999' }), testerContext()),
    ).rejects.toThrow('403 Forbidden: {"message":"invalid token"}');
  });

  it('keeps credentials out of the url it requests and says what is wrong with a url', () => {
    const { url, headers } = httpRequestOf(
      connectionUnderTest('http', { url: 'https://a:b@example.org/base', username: 'x' }),
      'api/v1/status/buildinfo',
    );
    expect(url.href).toBe('https://example.org/base/api/v1/status/buildinfo');
    expect(headers.authorization).toBe(`Basic ${Buffer.from('a:b').toString('base64')}`);
    expect(() => httpRequestOf(connectionUnderTest('http', { url: 'ftp://example.org' }))).toThrow(
      'The URL must start with http:// or https://, not ftp://',
    );
  });

  it('names the network error when nothing listens', async () => {
    const port = await findFreePort();
    await expect(
      testHttpConnection(connectionUnderTest('http', { url: `http://127.0.0.1:${port}/` }), testerContext()),
    ).rejects.toThrow(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });
});

describe('prometheus tester against Prometheus started by the test', () => {
  const binary = [process.env.PROMETHEUS_BIN, '/usr/bin/prometheus', '/usr/local/bin/prometheus'].find(
    (file): file is string => !!file && existsSync(file),
  );
  // bcrypt of 'right-Pass-1' (Prometheus' web config wants bcrypt hashes).
  const HASH = '$2b$12$nZ0Y3EKVRoQO4brLSr8bwOQZq9l3OZIj07V0ltdsiLnOYKRNF9LRW';
  let child: ChildProcess | undefined;
  let dir = '';
  let url = '';
  let unavailable: string | undefined = binary ? undefined : 'prometheus is not installed';

  beforeAll(async () => {
    if (!binary) return;
    dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-prometheus-auth-'));
    const port = await findFreePort();
    url = `http://127.0.0.1:${port}`;
    await writeFile(path.join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1m\n');
    await writeFile(path.join(dir, 'web.yml'), `basic_auth_users:\n  ops: ${HASH}\n`);
    child = spawn(
      binary,
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--web.config.file=${path.join(dir, 'web.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 20_000;
    const auth = `Basic ${Buffer.from('ops:right-Pass-1').toString('base64')}`;
    for (;;) {
      try {
        if ((await fetch(`${url}/-/ready`, { headers: { authorization: auth } })).ok) break;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null || Date.now() > deadline) {
        unavailable = `prometheus did not start (exit code ${child.exitCode})`;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 30_000);
  afterAll(async () => {
    child?.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("answers ok with the right password and Prometheus' answer with a wrong one", async () => {
    if (unavailable) {
      console.warn(`SKIPPED prometheus tester test: ${unavailable}`);
      return;
    }
    await testPrometheusConnection(
      connectionUnderTest('prometheus', { url, username: 'ops', password: 'right-Pass-1' }),
      testerContext(),
    );
    await expect(
      testPrometheusConnection(
        connectionUnderTest('prometheus', { url, username: 'ops', password: 'wrong-Pass' }),
        testerContext(),
      ),
    ).rejects.toThrow(/^401 Unauthorized: Unauthorized/);
  });
});

describe('prometheus and elasticsearch testers against servers speaking their documented formats', () => {
  let elastic: Served;
  let oldPrometheus: Served;
  const user = `Basic ${Buffer.from('elastic:right-Pass-1').toString('base64')}`;
  beforeAll(async () => {
    elastic = await serve((request, response) => {
      response.setHeader('content-type', 'application/json');
      if (request.url !== '/') {
        response.writeHead(404).end('{"error":"not found"}');
      } else if (request.headers.authorization === user) {
        response.end(
          JSON.stringify({
            name: 'node-1',
            cluster_name: 'test',
            version: { number: '8.15.0', build_flavor: 'default' },
            tagline: 'You Know, for Search',
          }),
        );
      } else {
        response.writeHead(401, { 'www-authenticate': 'Basic realm="security"' }).end(
          JSON.stringify({
            error: {
              root_cause: [
                { type: 'security_exception', reason: 'unable to authenticate user [elastic] for REST request [/]' },
              ],
              type: 'security_exception',
              reason: 'unable to authenticate user [elastic] for REST request [/]',
            },
            status: 401,
          }),
        );
      }
    });
    // A server of the query API only (no buildinfo), as some Prometheus-compatible stores are.
    oldPrometheus = await serve((request, response) => {
      response.setHeader('content-type', 'application/json');
      if (request.url?.startsWith('/api/v1/query?')) {
        response.end('{"status":"success","data":{"resultType":"scalar","result":[0,"1"]}}');
      } else {
        response.writeHead(404).end('404 page not found');
      }
    });
  });
  afterAll(async () => {
    await elastic.close();
    await oldPrometheus.close();
  });

  it('elasticsearch: ok for the cluster answer, its reason for a refusal, and a clear word for anything else', async () => {
    await testElasticsearchConnection(
      connectionUnderTest('elasticsearch', { url: elastic.url, username: 'elastic', password: 'right-Pass-1' }),
      testerContext(),
    );
    await expect(
      testElasticsearchConnection(
        connectionUnderTest('elasticsearch', { url: elastic.url, username: 'elastic', password: 'nope' }),
        testerContext(),
      ),
    ).rejects.toThrow(
      '401 Unauthorized: security_exception: unable to authenticate user [elastic] for REST request [/]',
    );
    await expect(
      testElasticsearchConnection(connectionUnderTest('elasticsearch', { url: oldPrometheus.url }), testerContext()),
    ).rejects.toThrow('404 Not Found: 404 page not found');
  });

  it('prometheus: asks the query API when there is no buildinfo, and says when the answer is not the API', async () => {
    await testPrometheusConnection(connectionUnderTest('prometheus', { url: oldPrometheus.url }), testerContext());
    await expect(
      testPrometheusConnection(
        connectionUnderTest('prometheus', { url: elastic.url, username: 'elastic', password: 'right-Pass-1' }),
        testerContext(),
      ),
    ).rejects.toThrow('404 Not Found: not found');
  });
});
