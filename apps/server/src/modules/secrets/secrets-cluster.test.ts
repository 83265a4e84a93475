import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubernetesApiServer, type KubernetesApiServer } from '../../../test/kubernetes-api-server.js';
import {
  clientCertificate,
  selfSignedCertificate,
  type SelfSignedCertificate,
} from '../../../test/self-signed-certificate.js';
import { createClusterReader, type ClusterConnection } from './secrets-cluster.js';

/*
 * The reader against a local HTTPS server speaking the Kubernetes API's documented format for
 * Secrets and ConfigMaps (no cluster runs here): bearer token checked, 404 and 403 Status bodies.
 */

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.cluster-secrets-token';
const PASSWORD = 'cluster-pass-7b3e0c91';
const b64 = (value: string) => Buffer.from(value).toString('base64');
let certificate: SelfSignedCertificate;
let api: KubernetesApiServer;
const logged: string[] = [];
const logger = {
  info: (...args: unknown[]) => void logged.push(JSON.stringify(args)),
  warn: (...args: unknown[]) => void logged.push(JSON.stringify(args)),
};

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  const clients = await clientCertificate('lookout');
  api = await startKubernetesApiServer({
    tls: certificate,
    clientCa: clients.ca.cert,
    token: TOKEN,
    objects: {
      'secrets/payments/web-login': { password: b64(PASSWORD), user: b64('ops') },
      'configmaps/payments/web-settings': { path: '/login' },
    },
    forbiddenNamespaces: ['kube-system'],
  });
});
afterAll(async () => api?.close());

const kubernetesConnection = (token: string): ClusterConnection => ({
  type: 'kubernetes',
  insecureTls: false,
  properties: {},
  certificate: stringify({
    'current-context': 'lab',
    clusters: [{ name: 'lab', cluster: { server: api.url, 'certificate-authority-data': b64(certificate.cert) } }],
    contexts: [{ name: 'lab', context: { cluster: 'lab', user: 'lab' } }],
    users: [{ name: 'lab', user: { token } }],
  }),
});

const reader = (options: { token?: string; now?: () => number; type?: string } = {}) =>
  createClusterReader({
    connection: 'connection://default/lab',
    resolveConnection: async () => ({
      ...kubernetesConnection(options.token ?? TOKEN),
      type: options.type ?? 'kubernetes',
    }),
    logger,
    ...(options.now ? { now: options.now } : {}),
  });

describe('createClusterReader', () => {
  it("reads a secret's base64 data and a config map's data with the connection's token", async () => {
    const before = api.requests.length;
    const read = reader();
    expect(await read.read('secret', 'payments', 'web-login', 'password')).toBe(PASSWORD);
    expect(await read.read('configmap', 'payments', 'web-settings', 'path')).toBe('/login');
    expect(api.requests.slice(before)).toEqual([
      { path: '/api/v1/namespaces/payments/secrets/web-login', as: 'token' },
      { path: '/api/v1/namespaces/payments/configmaps/web-settings', as: 'token' },
    ]);
  });

  it('keeps an object for 30 seconds, then reads it again', async () => {
    let clock = 1_000;
    const read = reader({ now: () => clock });
    const before = api.requests.length;
    await read.read('secret', 'payments', 'web-login', 'password');
    await read.read('secret', 'payments', 'web-login', 'user');
    expect(api.requests.length - before).toBe(1);
    clock += 30_000;
    expect(await read.read('secret', 'payments', 'web-login', 'user')).toBe('ops');
    expect(api.requests.length - before).toBe(2);
  });

  it('names a missing secret, a missing key and a forbidden namespace with the cluster answer', async () => {
    const read = reader();
    await expect(read.read('secret', 'payments', 'db-login', 'password')).rejects.toThrow(
      "no secret 'db-login' in namespace 'payments' of the cluster of connection://default/lab (404 not found)",
    );
    await expect(read.read('secret', 'payments', 'web-login', 'token')).rejects.toThrow(
      "secret 'web-login' in namespace 'payments' of the cluster of connection://default/lab has no key 'token'",
    );
    await expect(read.read('configmap', 'kube-system', 'cluster-info', 'ca')).rejects.toThrow(
      /^the cluster of connection:\/\/default\/lab refused to read config map 'cluster-info' in namespace 'kube-system' \(403 forbidden: configmaps "cluster-info" is forbidden: .*\); grant its user get on configmaps there$/,
    );
  });

  it('reports a wrong token as 401 and a connection of another type, without reading', async () => {
    await expect(reader({ token: 'wrong' }).read('secret', 'payments', 'web-login', 'password')).rejects.toThrow(
      "refused to read secret 'web-login' in namespace 'payments' (401 unauthorized: Unauthorized)",
    );
    await expect(reader({ type: 'postgres' }).read('secret', 'payments', 'web-login', 'password')).rejects.toThrow(
      'could not reach the cluster of connection://default/lab (connection://default/lab is a postgres connection, not a kubernetes one)',
    );
  });

  it('knows when a lookup runs inside the resolution of its own connection', async () => {
    let inside: boolean | undefined;
    const read = createClusterReader({
      connection: 'connection://default/lab',
      resolveConnection: async () => {
        inside = read.resolvingConnection();
        return kubernetesConnection(TOKEN);
      },
      logger,
    });
    await read.read('configmap', 'payments', 'web-settings', 'path');
    expect(inside).toBe(true);
    expect(read.resolvingConnection()).toBe(false);
  });

  it('logs names and statuses, never a value', () => {
    expect(logged.some((line) => line.includes('Read from the Kubernetes cluster'))).toBe(true);
    for (const line of logged) {
      expect(line).not.toContain(PASSWORD);
      expect(line).not.toContain(b64(PASSWORD));
      expect(line).not.toContain(TOKEN);
    }
  });
});
