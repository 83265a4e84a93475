import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ClusterFixture } from './kubernetes-cluster-fixtures.js';

/**
 * The list calls of a Kubernetes API server over HTTPS (with `tls`) or plain HTTP (as behind
 * `kubectl proxy`), answering from a fixture the test
 * may change between scrapes: `GET /api/v1/{resource}`, `/apis/apps/v1/{resource}` and their
 * `/namespaces/{ns}/` forms, with `labelSelector` (`k=v` terms), `fieldSelector`
 * (`metadata.name=`), and paging by `limit` and `continue` (at most `pageSize` items a page, so
 * a test sees the client follow the token). A wrong bearer token is a 401 Status.
 */

export type KubernetesListServer = {
  url: string;
  /** Paths with query of every request, in order. */
  requests: string[];
  close: () => Promise<void>;
};

const LIST_KINDS: Record<string, { group: 'core' | 'apps'; kind: string }> = {
  namespaces: { group: 'core', kind: 'NamespaceList' },
  nodes: { group: 'core', kind: 'NodeList' },
  pods: { group: 'core', kind: 'PodList' },
  services: { group: 'core', kind: 'ServiceList' },
  events: { group: 'core', kind: 'EventList' },
  deployments: { group: 'apps', kind: 'DeploymentList' },
  statefulsets: { group: 'apps', kind: 'StatefulSetList' },
  daemonsets: { group: 'apps', kind: 'DaemonSetList' },
  replicasets: { group: 'apps', kind: 'ReplicaSetList' },
};

const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

type Item = Record<string, unknown> & {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
};

function matchesLabels(item: Item, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [key = '', value] = term.split('=');
    return item.metadata?.labels?.[key.trim()] === value?.trim();
  });
}

function matchesFields(item: Item, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [key, value] = term.split('=');
    return key === 'metadata.name'
      ? item.metadata?.name === value
      : key === 'metadata.namespace'
        ? item.metadata?.namespace === value
        : true;
  });
}

export function startKubernetesListServer(options: {
  cluster: () => ClusterFixture;
  token: string;
  pageSize?: number;
  /** Resources answered with a 403 Status (RBAC). */
  forbidden?: string[];
  /** Serve over TLS with this certificate. */
  tls?: { cert: string; key: string };
}): Promise<KubernetesListServer> {
  const requests: string[] = [];
  const pageSize = options.pageSize ?? 2;
  const handler: http.RequestListener = (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(url.pathname + url.search);
    const json = (code: number, body: string) =>
      response.writeHead(code, { 'content-type': 'application/json' }).end(body);
    if (request.headers.authorization !== `Bearer ${options.token}`)
      return json(401, status(401, 'Unauthorized', 'Unauthorized'));
    const match = /^\/(?:api\/v1|apis\/apps\/v1)(?:\/namespaces\/([^/]+))?\/([a-z]+)$/.exec(url.pathname);
    const resource = match?.[2];
    const list = resource ? LIST_KINDS[resource] : undefined;
    if (!match || !list || (list.group === 'apps') !== url.pathname.startsWith('/apis/apps/v1')) {
      return json(404, status(404, 'NotFound', 'the server could not find the requested resource'));
    }
    if (options.forbidden?.includes(resource!)) {
      return json(
        403,
        status(
          403,
          'Forbidden',
          `${resource} is forbidden: User "system:serviceaccount:lookout:scraper" cannot list resource "${resource}" in API group "${list.group === 'apps' ? 'apps' : ''}" at the cluster scope`,
        ),
      );
    }
    const namespace = match[1];
    const all = ((options.cluster()[resource!] ?? []) as Item[]).filter(
      (item) =>
        (!namespace || item.metadata?.namespace === namespace) &&
        matchesLabels(item, url.searchParams.get('labelSelector')) &&
        matchesFields(item, url.searchParams.get('fieldSelector')),
    );
    const start = Number(url.searchParams.get('continue') ?? '0');
    const limit = Math.min(Number(url.searchParams.get('limit') ?? all.length) || all.length, pageSize);
    const items = all.slice(start, start + limit);
    const next = start + limit < all.length ? String(start + limit) : undefined;
    return json(
      200,
      JSON.stringify({
        kind: list.kind,
        apiVersion: list.group === 'apps' ? 'apps/v1' : 'v1',
        metadata: {
          resourceVersion: '5000',
          ...(next ? { continue: next, remainingItemCount: all.length - start - limit } : {}),
        },
        items,
      }),
    );
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
        requests,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
