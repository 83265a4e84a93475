import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from './access-helpers.js';
import { startBasicAuthServer, type BasicAuthServer } from './basic-auth-server.js';
import { buildTestApp, type TestApp } from './build-test-app.js';
import { startKubernetesApiServer, type KubernetesApiServer } from './kubernetes-api-server.js';
import { clientCertificate, selfSignedCertificate } from './self-signed-certificate.js';
import { createLogger } from '../src/logger.js';

/*
 * Issue 12: "with a Kubernetes connection they can read the cluster's instead". Lookout runs
 * with LOOKOUT_SECRETS_KUBERNETES_CONNECTION naming a kubernetes connection; the cluster is a
 * local HTTPS server speaking the Kubernetes API's documented format (no cluster runs here).
 * The connection's own kubeconfig sits in Lookout's store (secret://lab-kubeconfig/config): the
 * lookups made while that connection is read go to the store, not back to the cluster.
 */

const USERNAME = 'ops';
const PASSWORD = 'cluster-only-pass-5d9a2e61';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.lookout-reader';
const b64 = (value: string) => Buffer.from(value).toString('base64');

let testApp: TestApp;
let web: BasicAuthServer;
let api: KubernetesApiServer;
let admin: TestUser;
const logLines: string[] = [];

beforeAll(async () => {
  web = await startBasicAuthServer(USERNAME, PASSWORD);
  const certificate = await selfSignedCertificate();
  const clients = await clientCertificate('lookout');
  api = await startKubernetesApiServer({
    tls: certificate,
    clientCa: clients.ca.cert,
    token: TOKEN,
    objects: { 'secrets/payments/web-login': { password: b64(PASSWORD) } },
    forbiddenNamespaces: ['restricted'],
  });
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(chunk.toString('utf8'));
      callback();
    },
  });
  testApp = await buildTestApp({
    logger: createLogger('trace', sink),
    secretsKubernetesConnection: 'connection://default/lab',
  });
  admin = await createSignedInUser(testApp.app, testApp.database.pool, {
    email: 'admin@cluster.example',
    roles: ['admin'],
  });
  const kubeconfig = stringify({
    'current-context': 'lab',
    clusters: [{ name: 'lab', cluster: { server: api.url, 'certificate-authority-data': b64(certificate.cert) } }],
    contexts: [{ name: 'lab', context: { cluster: 'lab', user: 'lab' } }],
    users: [{ name: 'lab', user: { token: TOKEN } }],
  });
  const stored = await call('POST', '/api/secrets', {
    kind: 'secret',
    name: 'lab-kubeconfig',
    data: { config: kubeconfig },
  });
  expect(stored.statusCode, stored.body).toBe(201);
  const connection = await call('POST', '/api/db/connections', {
    namespace: 'default',
    name: 'lab',
    type: 'kubernetes',
    certificate: 'secret://lab-kubeconfig/config',
    properties: {},
  });
  expect(connection.statusCode, connection.body).toBe(201);
});
afterAll(async () => {
  await testApp?.close();
  await web?.close();
  await api?.close();
});

function call(method: 'GET' | 'POST', url: string, payload?: unknown) {
  return testApp.app.inject({
    method,
    url,
    headers: { ...bearer(admin), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

async function applyAndRun(name: string, namespace: string, secretKey = 'password') {
  const applied = await call('POST', '/api/canary/apply', {
    apiVersion: 'canaries.flanksource.com/v1',
    kind: 'Canary',
    metadata: { name, namespace },
    spec: {
      schedule: '@every 1h',
      http: [
        {
          name: `${name}-login`,
          url: web.url,
          authentication: {
            username: { value: USERNAME },
            password: { valueFrom: { secretKeyRef: { name: 'web-login', key: secretKey } } },
          },
        },
      ],
    },
  });
  expect(applied.statusCode, applied.body).toBe(200);
  const checkId = applied.json<{ checks: { id: string }[] }>().checks[0]!.id;
  const run = await call('POST', `/api/canary/run/check/${checkId}`);
  expect(run.statusCode, run.body).toBe(200);
  return run.json<{ result: { status: boolean; message: string; error: string | null } }>().result;
}

describe('a canary whose password is a secret of the Kubernetes cluster', () => {
  it('passes against a real server with basic auth, reading the cluster with the bearer token', async () => {
    const result = await applyAndRun('web', 'payments');
    expect(result).toMatchObject({ status: true, error: null });
    expect(web.counts.accepted).toBeGreaterThanOrEqual(1);
    expect(api.requests).toContainEqual({ path: '/api/v1/namespaces/payments/secrets/web-login', as: 'token' });
    // The kubeconfig came from the store: the cluster was never asked for it.
    expect(api.requests.some((request) => request.path.includes('lab-kubeconfig'))).toBe(false);
  });

  it('fails with the cluster answer for a missing secret, a missing key and a forbidden namespace', async () => {
    expect((await applyAndRun('web', 'billing')).message).toBe(
      "could not read the password from secret 'web-login' key 'password' (no secret 'web-login' in namespace 'billing' of the cluster of connection://default/lab (404 not found))",
    );
    expect((await applyAndRun('web-nokey', 'payments', 'token')).message).toBe(
      "could not read the password from secret 'web-login' key 'token' (secret 'web-login' in namespace 'payments' of the cluster of connection://default/lab has no key 'token')",
    );
    const forbidden = await applyAndRun('web', 'restricted');
    expect(forbidden.status).toBe(false);
    expect(forbidden.message).toContain(
      "the cluster of connection://default/lab refused to read secret 'web-login' in namespace 'restricted' (403 forbidden: secrets \"web-login\" is forbidden",
    );
  });

  it('writes neither the password nor the token into any log line', () => {
    expect(logLines.some((line) => line.includes('Read from the Kubernetes cluster'))).toBe(true);
    for (const line of logLines) {
      expect(line).not.toContain(PASSWORD);
      expect(line).not.toContain(b64(PASSWORD));
      expect(line).not.toContain(TOKEN);
    }
  });
});
