import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortableContext, connectionUnderTest, testerContext } from '../../../../test/connection-under-test.js';
import { startKubernetesApiServer, type KubernetesApiServer } from '../../../../test/kubernetes-api-server.js';
import {
  clientCertificate,
  selfSignedCertificate,
  type SelfSignedCertificate,
} from '../../../../test/self-signed-certificate.js';
import { startSilentTcpServer } from '../../../../test/silent-tcp-server.js';
import { createKubernetesTester, kubeconfigAccess, testKubernetesConnection } from './kubernetes-tester.js';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.test-token';
let certificate: SelfSignedCertificate;
let client: SelfSignedCertificate;
let api: KubernetesApiServer;
let serviceAccountDir = '';

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  const clients = await clientCertificate('lookout');
  client = clients.client;
  api = await startKubernetesApiServer({ tls: certificate, clientCa: clients.ca.cert, token: TOKEN });
  serviceAccountDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-sa-'));
  await writeFile(path.join(serviceAccountDir, 'token'), `${TOKEN}\n`);
  await writeFile(path.join(serviceAccountDir, 'ca.crt'), certificate.cert);
});

afterAll(async () => {
  await api.close();
  await rm(serviceAccountDir, { recursive: true, force: true });
});

const b64 = (value: string) => Buffer.from(value).toString('base64');

/** A kubeconfig with one context, `lab`, for the given server and user. */
function kubeconfig(server: string, user: Record<string, unknown>, cluster: Record<string, unknown> = {}): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'lab',
    clusters: [
      { name: 'lab-cluster', cluster: { server, 'certificate-authority-data': b64(certificate.cert), ...cluster } },
    ],
    contexts: [{ name: 'lab', context: { cluster: 'lab-cluster', user: 'lab-user' } }],
    users: [{ name: 'lab-user', user }],
  });
}

const kubernetes = (config: string, fields = {}) =>
  connectionUnderTest('kubernetes', { certificate: config, ...fields });

describe('kubeconfigAccess', () => {
  it("reads the current context's server, CA, token or client certificate", () => {
    const access = kubeconfigAccess(kubeconfig('https://k8s.example.org:6443', { token: 't' }));
    expect(access).toEqual({
      server: new URL('https://k8s.example.org:6443'),
      tls: { insecure: false, ca: certificate.cert },
      authorization: 'Bearer t',
    });
  });

  it('refuses exec plugins, auth providers, file paths and a missing context, saying why', () => {
    expect(() => kubeconfigAccess(kubeconfig('https://x', { exec: { command: 'aws' } }))).toThrow(
      "The kubeconfig's user 'lab-user' runs an exec plugin, which Lookout does not run; use a token or a client certificate",
    );
    expect(() => kubeconfigAccess(kubeconfig('https://x', { 'auth-provider': { name: 'gcp' } }))).toThrow(
      /uses an auth-provider/,
    );
    expect(() =>
      kubeconfigAccess(kubeconfig('https://x', { 'client-certificate': '/home/me/.kube/cert.pem' })),
    ).toThrow(
      "The kubeconfig refers to the file '/home/me/.kube/cert.pem' (client-certificate); paste its contents as client-certificate-data",
    );
    expect(() => kubeconfigAccess(kubeconfig('https://x', {}), 'prod')).toThrow(
      "The kubeconfig has no context named 'prod'",
    );
    expect(() => kubeconfigAccess('clusters: [')).toThrow(/^The kubeconfig is not valid YAML/);
  });
});

describe('testKubernetesConnection against a local API server speaking /version', () => {
  it('gets the version with the bearer token and with the client certificate', async () => {
    api.requests.length = 0;
    await testKubernetesConnection(kubernetes(kubeconfig(api.url, { token: TOKEN })), testerContext());
    await testKubernetesConnection(
      kubernetes(
        kubeconfig(api.url, {
          'client-certificate-data': b64(client.cert),
          'client-key-data': b64(client.key),
        }),
      ),
      testerContext(),
    );
    expect(api.requests).toEqual([
      { path: '/version', as: 'token' },
      { path: '/version', as: 'client-certificate' },
    ]);
  });

  it("answers a wrong token and no credentials with the API server's Status", async () => {
    await expect(
      testKubernetesConnection(kubernetes(kubeconfig(api.url, { token: 'wrong' })), testerContext()),
    ).rejects.toThrow(/^401 Unauthorized: Unauthorized$/);
    await expect(testKubernetesConnection(kubernetes(kubeconfig(api.url, {})), testerContext())).rejects.toThrow(
      '403 Forbidden: forbidden: User "system:anonymous" cannot get path "/version"',
    );
  });

  it('verifies the server certificate against the CA data, unless insecure', async () => {
    const noCa = kubeconfig(api.url, { token: TOKEN }, { 'certificate-authority-data': undefined });
    await expect(testKubernetesConnection(kubernetes(noCa), testerContext())).rejects.toThrow(
      /self-signed certificate/,
    );
    await testKubernetesConnection(kubernetes(noCa, { insecureTls: true }), testerContext());
    const skipVerify = kubeconfig(
      api.url,
      { token: TOKEN },
      { 'certificate-authority-data': undefined, 'insecure-skip-tls-verify': true },
    );
    await testKubernetesConnection(kubernetes(skipVerify), testerContext());
  });

  it("uses the connection's URL over the kubeconfig's server", async () => {
    await testKubernetesConnection(
      kubernetes(kubeconfig('https://unreachable.invalid:6443', { token: TOKEN }), { url: api.url }),
      testerContext(),
    );
  });

  it("without a kubeconfig, uses the pod's service account, or says Lookout is not in a cluster", async () => {
    const port = new URL(api.url).port;
    const inPod = createKubernetesTester({
      env: { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: port },
      serviceAccountDir,
    });
    await inPod(connectionUnderTest('kubernetes'), testerContext());
    const outside = createKubernetesTester({ env: {}, serviceAccountDir });
    await expect(outside(connectionUnderTest('kubernetes'), testerContext())).rejects.toThrow(
      'The kubernetes connection has no kubeconfig, and Lookout does not run in a Kubernetes cluster',
    );
  });

  it('stops and closes its socket when the signal fires while the server says nothing', async () => {
    const silent = await startSilentTcpServer();
    try {
      const context = abortableContext();
      const test = testKubernetesConnection(
        kubernetes(kubeconfig(`https://127.0.0.1:${silent.port}`, { token: TOKEN })),
        context,
      );
      const closed = silent.allClosed();
      setTimeout(context.abort, 200);
      await expect(test).rejects.toThrow('The connection test timed out');
      await closed;
    } finally {
      await silent.close();
    }
  });
});
