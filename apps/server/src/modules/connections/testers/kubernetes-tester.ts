import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import type { ConnectionTester, ConnectionUnderTest } from './tester.js';
import { jsonOf, statusMessage } from './http-get.js';
import { httpRequest, type RequestTls } from './http-request.js';

/** How Lookout reaches an API server: its URL, TLS trust and client certificate, and credentials. */
export type KubernetesAccess = {
  server: URL;
  tls: RequestTls;
  authorization?: string;
};

/** Where a pod finds its service account (Kubernetes' documented in-cluster layout). */
export type InClusterSource = { env: NodeJS.ProcessEnv; serviceAccountDir: string };
const IN_CLUSTER: InClusterSource = {
  env: process.env,
  serviceAccountDir: '/var/run/secrets/kubernetes.io/serviceaccount',
};

type Named<T> = { name?: unknown } & Record<string, T | unknown>;
type Kubeconfig = {
  'current-context'?: unknown;
  clusters?: Named<Record<string, unknown>>[];
  contexts?: Named<Record<string, unknown>>[];
  users?: Named<Record<string, unknown>>[];
};

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const decode = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

function entry(list: Kubeconfig['clusters'], name: string, what: string): Record<string, unknown> {
  const found = Array.isArray(list) ? list.find((item) => item?.name === name) : undefined;
  const body = found?.[what];
  if (!body || typeof body !== 'object') throw new Error(`The kubeconfig has no ${what} named '${name}'`);
  return body as Record<string, unknown>;
}

/**
 * The API server, TLS and credentials of a kubeconfig's context (`properties.context`, else
 * its current-context). Only what the file holds is used: `*-data` fields, a token, a user and
 * password. Paths to files and exec or auth-provider plugins are refused with a reason: they
 * name files and programs of another machine.
 */
export function kubeconfigAccess(kubeconfig: string, context?: string): KubernetesAccess {
  let config: Kubeconfig;
  try {
    config = parse(kubeconfig) as Kubeconfig;
  } catch (error) {
    throw new Error(`The kubeconfig is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!config || typeof config !== 'object') throw new Error('The kubeconfig is not a kubeconfig file');
  const contextName = context ?? text(config['current-context']);
  if (!contextName) throw new Error('The kubeconfig has no current-context; name one in the context property');
  const chosen = entry(config.contexts, contextName, 'context');
  const clusterName = text(chosen.cluster);
  if (!clusterName) throw new Error(`The kubeconfig's context '${contextName}' names no cluster`);
  const cluster = entry(config.clusters, clusterName, 'cluster');
  const userName = text(chosen.user);
  const user = userName ? entry(config.users, userName, 'user') : {};

  const server = text(cluster.server);
  if (!server) throw new Error(`The kubeconfig's cluster '${clusterName}' has no server`);
  for (const [field, value] of Object.entries({ ...cluster, ...user })) {
    if (['certificate-authority', 'client-certificate', 'client-key', 'tokenFile'].includes(field) && text(value)) {
      throw new Error(
        `The kubeconfig refers to the file '${String(value)}' (${field}); paste its contents as ${field === 'tokenFile' ? 'token' : `${field}-data`}`,
      );
    }
  }
  if (user.exec)
    throw new Error(
      `The kubeconfig's user '${userName}' runs an exec plugin, which Lookout does not run; use a token or a client certificate`,
    );
  if (user['auth-provider']) {
    throw new Error(
      `The kubeconfig's user '${userName}' uses an auth-provider, which Lookout does not run; use a token or a client certificate`,
    );
  }
  const tls: RequestTls = { insecure: cluster['insecure-skip-tls-verify'] === true };
  const ca = text(cluster['certificate-authority-data']);
  if (ca) tls.ca = decode(ca);
  const cert = text(user['client-certificate-data']);
  const key = text(user['client-key-data']);
  if (cert) tls.cert = decode(cert);
  if (key) tls.key = decode(key);
  const token = text(user.token);
  const username = text(user.username);
  const authorization = token
    ? `Bearer ${token}`
    : username
      ? `Basic ${Buffer.from(`${username}:${text(user.password) ?? ''}`).toString('base64')}`
      : undefined;
  return { server: new URL(server), tls, ...(authorization ? { authorization } : {}) };
}

/** A pod's own access: KUBERNETES_SERVICE_HOST/PORT, and the mounted service account token and CA. */
export async function inClusterAccess(source: InClusterSource): Promise<KubernetesAccess> {
  const host = source.env.KUBERNETES_SERVICE_HOST;
  const port = source.env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) {
    throw new Error('The kubernetes connection has no kubeconfig, and Lookout does not run in a Kubernetes cluster');
  }
  const read = (file: string) => readFile(path.join(source.serviceAccountDir, file), 'utf8');
  const [token, ca] = await Promise.all([read('token'), read('ca.crt')]).catch(() => {
    throw new Error(`Lookout runs in a cluster but has no service account token in ${source.serviceAccountDir}`);
  });
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    server: new URL(`https://${hostPart}:${port}`),
    tls: { insecure: false, ca },
    authorization: `Bearer ${token.trim()}`,
  };
}

/** The access a connection describes: its kubeconfig, or the cluster Lookout runs in, with the url as server when set. */
export async function kubernetesAccess(
  connection: ConnectionUnderTest,
  inCluster: InClusterSource,
): Promise<KubernetesAccess> {
  const kubeconfig = connection.certificate?.trim();
  const access = kubeconfig
    ? kubeconfigAccess(kubeconfig, connection.properties.context?.trim() || undefined)
    : await inClusterAccess(inCluster);
  if (connection.url?.trim()) access.server = new URL(connection.url.trim());
  if (connection.insecureTls) access.tls.insecure = true;
  return access;
}

/**
 * Kubernetes: `GET /version` of the API server with the kubeconfig's credentials (or the pod's
 * service account when the connection has no kubeconfig). Resolves on the server's version
 * document; otherwise the status and the Status message the API server sent.
 */
export function createKubernetesTester(inCluster: InClusterSource = IN_CLUSTER): ConnectionTester {
  return async (connection, { signal }) => {
    const access = await kubernetesAccess(connection, inCluster);
    const url = new URL('version', access.server.href.endsWith('/') ? access.server : `${access.server.href}/`);
    const answer = await httpRequest(url, {
      headers: { accept: 'application/json', ...(access.authorization ? { authorization: access.authorization } : {}) },
      tls: access.tls,
      signal,
    });
    const body = jsonOf(answer) as { gitVersion?: unknown; kind?: unknown; message?: unknown } | undefined;
    if (answer.status === 200 && typeof body?.gitVersion === 'string') return;
    if (answer.status === 200) throw new Error(`${url.href} answered, but not with a Kubernetes version document`);
    // The API server's errors are Status objects whose message says what was wrong.
    throw new Error(
      statusMessage(answer, body?.kind === 'Status' && typeof body.message === 'string' ? body.message : undefined),
    );
  };
}

export const testKubernetesConnection = createKubernetesTester();
