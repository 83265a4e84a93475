import { AsyncLocalStorage } from 'node:async_hooks';
import { SECRET_STORE_MESSAGES, type SecretStoreKind } from '@lookout/contracts';
import type { Logger } from 'pino';
import {
  IN_CLUSTER,
  kubernetesAccess,
  type InClusterSource,
  type KubernetesConnectionFields,
} from '../../kubernetes/kubeconfig-access.js';
import { kubernetesGet, statusMessageOf } from '../../kubernetes/kubernetes-api.js';
import { SecretLookupError } from './secret-lookup-error.js';

/** How long a cluster's Secret or ConfigMap is reused before it is read again. */
export const CLUSTER_CACHE_MS = 30_000;
const CLUSTER_TIMEOUT_MS = 10_000;

export type ClusterConnection = KubernetesConnectionFields & { type: string };

export type ClusterReaderDeps = {
  /** `connection://<namespace>/<name>` of a kubernetes connection (LOOKOUT_SECRETS_KUBERNETES_CONNECTION). */
  connection: string;
  /**
   * The connections service's `resolve`, called at lookup time: the connections module is built
   * after this one and reads its own `secret://` references through it, so it is bound late.
   */
  resolveConnection: (reference: string) => Promise<ClusterConnection>;
  logger: Pick<Logger, 'info' | 'warn'>;
  inCluster?: InClusterSource;
  cacheMs?: number;
  timeoutMs?: number;
  now?: () => number;
};

export type ClusterReader = ReturnType<typeof createClusterReader>;

const resourceOf = (kind: SecretStoreKind) => (kind === 'secret' ? 'secrets' : 'configmaps');

/**
 * Reads `data[key]` of a Secret (base64, decoded) or ConfigMap from the cluster a kubernetes
 * connection names: `GET /api/v1/namespaces/{ns}/secrets|configmaps/{name}`. Objects are kept
 * for {@link CLUSTER_CACHE_MS}; errors name the cluster's answer, never a value.
 */
export function createClusterReader(deps: ClusterReaderDeps) {
  const resolving = new AsyncLocalStorage<true>();
  const cache = new Map<string, { at: number; data: Record<string, string> }>();
  const now = deps.now ?? Date.now;
  const cacheMs = deps.cacheMs ?? CLUSTER_CACHE_MS;
  const label = deps.connection;

  const access = () =>
    resolving.run(true, async () => {
      const connection = await deps.resolveConnection(deps.connection);
      if (connection.type !== 'kubernetes') {
        throw new Error(`${label} is a ${connection.type} connection, not a kubernetes one`);
      }
      return kubernetesAccess(connection, deps.inCluster ?? IN_CLUSTER);
    });

  /** The object's data (a secret's decoded), from the cache or the cluster. */
  async function objectData(kind: SecretStoreKind, namespace: string, name: string): Promise<Record<string, string>> {
    const cacheKey = `${kind}/${namespace}/${name}`;
    const cached = cache.get(cacheKey);
    if (cached && now() - cached.at < cacheMs) return cached.data;
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/${resourceOf(kind)}/${encodeURIComponent(name)}`;
    let answer;
    try {
      answer = await kubernetesGet(await access(), path, deps.timeoutMs ?? CLUSTER_TIMEOUT_MS);
    } catch (error) {
      throw new SecretLookupError(SECRET_STORE_MESSAGES.clusterFailed(label, (error as Error).message));
    }
    const reason = statusMessageOf(answer.body);
    deps.logger.info(
      { kind, namespace, name, status: answer.status, cluster: label },
      'Read from the Kubernetes cluster',
    );
    if (answer.status === 404) {
      throw new SecretLookupError(SECRET_STORE_MESSAGES.clusterMissingEntry(kind, namespace, name, label));
    }
    if (answer.status === 401 || answer.status === 403) {
      const text = `${answer.status} ${answer.status === 401 ? 'unauthorized' : 'forbidden'}${reason ? `: ${reason}` : ''}`;
      throw new SecretLookupError(SECRET_STORE_MESSAGES.clusterRefused(kind, namespace, name, label, text));
    }
    const body = answer.body as { kind?: unknown; data?: unknown } | undefined;
    if (answer.status !== 200 || !body || typeof body !== 'object') {
      throw new SecretLookupError(
        SECRET_STORE_MESSAGES.clusterFailed(label, `HTTP ${answer.status}${reason ? `: ${reason}` : ''}`),
      );
    }
    const raw = body.data && typeof body.data === 'object' ? (body.data as Record<string, unknown>) : {};
    const data: Record<string, string> = {};
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value !== 'string') continue;
      data[key] = kind === 'secret' ? Buffer.from(value, 'base64').toString('utf8') : value;
    }
    cache.set(cacheKey, { at: now(), data });
    return data;
  }

  return {
    /** Whether this call runs inside the resolution of the cluster's own connection. */
    resolvingConnection: () => resolving.getStore() === true,

    async read(kind: SecretStoreKind, namespace: string, name: string, key: string): Promise<string> {
      const data = await objectData(kind, namespace, name);
      const value = data[key];
      if (value === undefined) {
        throw new SecretLookupError(SECRET_STORE_MESSAGES.clusterMissingKey(kind, namespace, name, key, label));
      }
      return value;
    },
  };
}
