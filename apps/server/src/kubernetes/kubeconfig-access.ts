import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';

/*
 * Reading a Kubernetes connection's kubeconfig: pure parsing plus the pod's service account.
 * Shared by the connections module (its tester) and the secrets module (reading a cluster's
 * Secrets and ConfigMaps), which may not import each other's code.
 */

/** TLS settings of a request to an API server: trust (CA, or none with insecure), and a client certificate. */
export type KubernetesTls = { insecure: boolean; ca?: string; cert?: string; key?: string };

/** The fields of a (hydrated) kubernetes connection that say how to reach its API server. */
export type KubernetesConnectionFields = {
  url?: string | undefined;
  certificate?: string | undefined;
  insecureTls: boolean;
  properties: Readonly<Record<string, string>>;
};

/** How Lookout reaches an API server: its URL, TLS trust and client certificate, and credentials. */
export type KubernetesAccess = {
  server: URL;
  tls: KubernetesTls;
  authorization?: string;
};

/** Where a pod finds its service account (Kubernetes' documented in-cluster layout). */
export type InClusterSource = { env: NodeJS.ProcessEnv; serviceAccountDir: string };
export const IN_CLUSTER: InClusterSource = {
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
  const tls: KubernetesTls = { insecure: cluster['insecure-skip-tls-verify'] === true };
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
  connection: KubernetesConnectionFields,
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
