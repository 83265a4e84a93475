import { ApiException, AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { SCRAPE_ENGINE_LIMITS } from '@lookout/contracts';
import {
  IN_CLUSTER,
  kubeconfigAccess,
  kubernetesAccess,
  type InClusterSource,
  type KubernetesAccess,
} from '../../../kubernetes/kubeconfig-access.js';
import type { FetchResult } from '../scrape-engine.js';
import type { ScrapedChange, ScrapedLink } from '../scrape-extras.js';
import type { ScrapedDocument } from '../scrape-item-fns.js';
import {
  eventChange,
  isExcluded,
  objectDocument,
  ownerLinks,
  placementLinks,
  type KubernetesEvent,
  type KubernetesFilters,
  type KubernetesObject,
} from './kubernetes-fns.js';
import { plainValue, type ScrapeConnectionResolver } from './scraper-connections.js';

/**
 * The `kubernetes` scraper: lists namespaces, nodes, deployments, statefulsets, daemonsets,
 * replicasets, pods and services of a cluster with @kubernetes/client-node (paged, 500 a page),
 * and its events as changes. Owner references are hard edges; a node and its pods, a service
 * and the pods it selects are soft ones. The cluster is reached through a kubernetes connection,
 * a kubeconfig value, or the cluster Lookout runs in; the kubeconfig is read by Lookout's own
 * parser first, which refuses exec plugins, auth providers and file paths, so the client never
 * runs a program or reads a file a scraper names.
 */

export type KubernetesEntry = KubernetesFilters & {
  clusterName: string;
  connection?: string | undefined;
  kubeconfig?: unknown;
  namespace?: string | undefined;
  selector?: string | undefined;
  fieldSelector?: string | undefined;
};

type Page = { items: unknown[]; metadata?: { _continue?: string } };
type ListOptions = { labelSelector?: string; fieldSelector?: string; limit: number; _continue?: string };

const PAGE_SIZE = 500;
const REQUEST_TIMEOUT_MS = 30_000;

/** One kind the scraper lists: its apiVersion and the all-namespaces / one-namespace calls. */
type Lister = {
  kind: string;
  apiVersion: string;
  clusterScoped?: boolean;
  all: (options: ListOptions) => Promise<Page>;
  namespaced?: (namespace: string, options: ListOptions) => Promise<Page>;
};

function listers(core: CoreV1Api, apps: AppsV1Api): Lister[] {
  return [
    { kind: 'Namespace', apiVersion: 'v1', clusterScoped: true, all: (o) => core.listNamespace(o) },
    { kind: 'Node', apiVersion: 'v1', clusterScoped: true, all: (o) => core.listNode(o) },
    {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      all: (o) => apps.listDeploymentForAllNamespaces(o),
      namespaced: (namespace, o) => apps.listNamespacedDeployment({ namespace, ...o }),
    },
    {
      kind: 'StatefulSet',
      apiVersion: 'apps/v1',
      all: (o) => apps.listStatefulSetForAllNamespaces(o),
      namespaced: (namespace, o) => apps.listNamespacedStatefulSet({ namespace, ...o }),
    },
    {
      kind: 'DaemonSet',
      apiVersion: 'apps/v1',
      all: (o) => apps.listDaemonSetForAllNamespaces(o),
      namespaced: (namespace, o) => apps.listNamespacedDaemonSet({ namespace, ...o }),
    },
    {
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      all: (o) => apps.listReplicaSetForAllNamespaces(o),
      namespaced: (namespace, o) => apps.listNamespacedReplicaSet({ namespace, ...o }),
    },
    {
      kind: 'Pod',
      apiVersion: 'v1',
      all: (o) => core.listPodForAllNamespaces(o),
      namespaced: (namespace, o) => core.listNamespacedPod({ namespace, ...o }),
    },
    {
      kind: 'Service',
      apiVersion: 'v1',
      all: (o) => core.listServiceForAllNamespaces(o),
      namespaced: (namespace, o) => core.listNamespacedService({ namespace, ...o }),
    },
  ];
}

/** A client configuration from access Lookout already checked (no exec, no files). */
export function kubeConfigOf(access: KubernetesAccess): KubeConfig {
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  const user: Record<string, string> = { name: 'lookout' };
  if (access.authorization?.startsWith('Bearer ')) user.token = access.authorization.slice('Bearer '.length);
  else if (access.authorization?.startsWith('Basic ')) {
    const [username = '', ...rest] = Buffer.from(access.authorization.slice('Basic '.length), 'base64')
      .toString('utf8')
      .split(':');
    user.username = username;
    user.password = rest.join(':');
  }
  if (access.tls.cert) user.certData = base64(access.tls.cert);
  if (access.tls.key) user.keyData = base64(access.tls.key);
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [
      {
        name: 'cluster',
        server: access.server.href.replace(/\/$/, ''),
        // The client refuses plain HTTP unless told to skip TLS checks; over http:// (an API
        // server behind `kubectl proxy`) there is no certificate to check anyway.
        skipTLSVerify: access.tls.insecure || access.server.protocol === 'http:',
        ...(access.tls.ca ? { caData: base64(access.tls.ca) } : {}),
      },
    ],
    users: [user],
    contexts: [{ name: 'lookout', cluster: 'cluster', user: 'lookout' }],
    currentContext: 'lookout',
  });
  return config;
}

async function accessOf(
  entry: KubernetesEntry,
  context: { namespace: string; resolveConnection?: ScrapeConnectionResolver | undefined; inCluster: InClusterSource },
): Promise<KubernetesAccess> {
  if (entry.connection) {
    if (!context.resolveConnection)
      throw new Error(`connection '${entry.connection}': connections are not available here`);
    const connection = await context.resolveConnection(entry.connection, context.namespace);
    if (connection.type !== 'kubernetes')
      throw new Error(`connection '${entry.connection}' is a ${connection.type} connection, not kubernetes`);
    return kubernetesAccess(
      {
        url: connection.url,
        certificate: connection.certificate,
        insecureTls: connection.insecureTls ?? false,
        properties: connection.properties ?? {},
      },
      context.inCluster,
    );
  }
  const kubeconfig = plainValue('kubeconfig', entry.kubeconfig);
  return kubeconfig
    ? kubeconfigAccess(kubeconfig)
    : kubernetesAccess({ insecureTls: false, properties: {} }, context.inCluster);
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)),
      REQUEST_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const HTTP_REASONS: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

/** The API server's own words for a failed call (its Status message), else the error's. */
function reason(error: unknown): string {
  if (error instanceof ApiException) {
    const body = error.body as unknown;
    let message: string | undefined;
    try {
      const parsed = (typeof body === 'string' ? JSON.parse(body) : body) as { message?: unknown };
      if (typeof parsed?.message === 'string') message = parsed.message;
    } catch {
      message = undefined;
    }
    const words = message ?? HTTP_REASONS[error.code];
    return `the API server answered ${error.code}${words ? `: ${words}` : ''}`;
  }
  return (error as Error).message;
}

/** Every page of a list (the API's `continue` token), at most the scraper's item limit. */
async function listAll(call: (options: ListOptions) => Promise<Page>, selectors: Omit<ListOptions, 'limit'>) {
  const items: unknown[] = [];
  let token: string | undefined;
  do {
    const page = await withTimeout(
      call({ ...selectors, limit: PAGE_SIZE, ...(token ? { _continue: token } : {}) }),
      'list',
    );
    items.push(...page.items);
    token = page.metadata?._continue || undefined;
  } while (token && items.length < SCRAPE_ENGINE_LIMITS.itemsPerScraper);
  // The client hands back typed objects (dates as Date); stored as JSON like the API's answer.
  return JSON.parse(JSON.stringify(items)) as KubernetesObject[];
}

export async function scrapeKubernetes(
  entry: KubernetesEntry,
  context: { namespace: string; resolveConnection?: ScrapeConnectionResolver | undefined; inCluster?: InClusterSource },
): Promise<FetchResult> {
  const access = await accessOf(entry, { ...context, inCluster: context.inCluster ?? IN_CLUSTER });
  const config = kubeConfigOf(access);
  const core = config.makeApiClient(CoreV1Api);
  const apps = config.makeApiClient(AppsV1Api);
  const selectors = {
    ...(entry.selector ? { labelSelector: entry.selector } : {}),
    ...(entry.fieldSelector ? { fieldSelector: entry.fieldSelector } : {}),
  };
  const documents: ScrapedDocument[] = [];
  const links: ScrapedLink[] = [];
  const errors: string[] = [];
  const kept = new Map<string, KubernetesObject[]>();
  for (const lister of listers(core, apps)) {
    // One namespace: cluster-scoped kinds are kept to that namespace's own object.
    const namespace = entry.namespace;
    let objects: KubernetesObject[];
    try {
      if (namespace && lister.namespaced) objects = await listAll((o) => lister.namespaced!(namespace, o), selectors);
      else if (namespace && lister.kind === 'Namespace')
        objects = await listAll(lister.all, { ...selectors, fieldSelector: `metadata.name=${namespace}` });
      else if (namespace) continue;
      else objects = await listAll(lister.all, selectors);
    } catch (error) {
      // Credentials the server does not take fail every list alike: one error for the entry.
      if (error instanceof ApiException && error.code === 401)
        throw new Error(`listing ${lister.kind}s: ${reason(error)}`);
      errors.push(`listing ${lister.kind}s: ${reason(error)}`);
      continue;
    }
    for (const object of objects) {
      if (isExcluded(object, lister.kind, entry)) continue;
      const document = objectDocument(object, lister.kind, lister.apiVersion, entry.clusterName);
      if (!document) continue;
      documents.push(document);
      links.push(...ownerLinks(object, lister.kind));
      kept.set(lister.kind, [...(kept.get(lister.kind) ?? []), object]);
    }
  }
  links.push(...placementLinks(kept));
  const changes: ScrapedChange[] = [];
  try {
    const events = await listAll(
      (o) =>
        entry.namespace
          ? core.listNamespacedEvent({ namespace: entry.namespace, ...o })
          : core.listEventForAllNamespaces(o),
      {},
    );
    for (const event of events as KubernetesEvent[]) {
      const change = eventChange(event, entry);
      if (change) changes.push(change);
    }
  } catch (error) {
    errors.push(`listing Events: ${reason(error)}`);
  }
  return { documents, errors, changes, links };
}
