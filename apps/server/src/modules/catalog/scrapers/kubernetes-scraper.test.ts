import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterFixture, UIDS, type ClusterFixture } from '../../../../test/kubernetes-cluster-fixtures.js';
import { startKubernetesListServer, type KubernetesListServer } from '../../../../test/kubernetes-list-server.js';
import { selfSignedCertificate } from '../../../../test/self-signed-certificate.js';
import { createTestDatabase, type TestDatabase } from '../../../../test/test-database.js';
import { createJobs } from '../../../jobs/jobs.js';
import { createCatalogScraping } from '../catalog-scraping.js';
import type { ScrapeConnectionResolver } from './scraper-connections.js';

/**
 * The kubernetes scraper through @kubernetes/client-node against a local server answering the
 * Kubernetes list API from recorded-shape fixtures (there is no cluster on this machine), into
 * the test PostgreSQL: items, owner references as relationships, events as changes, a changed
 * object as one diff, a vanished one deleted, and the API's refusals in the job's errors.
 */

let database: TestDatabase;
let api: KubernetesListServer;
let cluster: ClusterFixture;
let ca: string;
const TOKEN = 'scraper-token-7f1c';
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
  cluster = clusterFixture();
  const certificate = await selfSignedCertificate();
  ca = certificate.cert;
  api = await startKubernetesListServer({ cluster: () => cluster, token: TOKEN, tls: certificate });
});
afterAll(async () => {
  await api.close();
  await database.drop();
});

const kubeconfig = (token: string) => `apiVersion: v1
kind: Config
clusters:
  - name: kind
    cluster:
      server: ${api.url}
      certificate-authority-data: ${Buffer.from(ca).toString('base64')}
users:
  - name: scraper
    user:
      token: ${token}
contexts:
  - name: kind
    context: { cluster: kind, user: scraper }
current-context: kind
`;

function scraping(resolveConnection?: ScrapeConnectionResolver) {
  const jobs = createJobs({ pool: database.pool, logger: silent, hostname: 'test' });
  return createCatalogScraping({
    pool: database.pool,
    logger: silent,
    jobs,
    ...(resolveConnection ? { resolveConnection } : {}),
  });
}

async function addScraper(name: string, spec: unknown): Promise<string> {
  const result = await database.pool.query<{ id: string }>(
    'INSERT INTO config_scrapers (name, spec) VALUES ($1, $2) RETURNING id',
    [name, spec],
  );
  return result.rows[0]!.id;
}

const lastJob = async (scraperId: string) =>
  (
    await database.pool.query<{ status: string; details: { errors?: string[]; summary?: Record<string, number> } }>(
      `SELECT status, details FROM job_history WHERE resource_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [scraperId],
    )
  ).rows[0]!;

const items = async (scraperId: string) =>
  (
    await database.pool.query<{
      id: string;
      type: string;
      name: string;
      config_class: string;
      external_id: string[];
      tags: Record<string, string>;
      labels: Record<string, string> | null;
      health: string | null;
      status: string | null;
      config: { apiVersion: string; kind: string; spec: unknown; metadata: Record<string, unknown> };
      deleted_at: Date | null;
    }>('SELECT * FROM config_items WHERE scraper_id = $1 ORDER BY type, name', [scraperId])
  ).rows;

describe('kubernetes scraper', () => {
  it('lists the cluster into items with owner references as relationships and events as changes', async () => {
    const scraperId = await addScraper('kind', {
      kubernetes: [{ clusterName: 'kind', kubeconfig: { value: kubeconfig(TOKEN) } }],
    });
    const run = await scraping().runNow(scraperId);
    expect(run).toMatchObject({ ran: true, status: 'SUCCESS' });

    const rows = await items(scraperId);
    expect(rows.map((row) => [row.type, row.name])).toEqual([
      ['Kubernetes::DaemonSet', 'node-exporter'],
      ['Kubernetes::Deployment', 'web'],
      ['Kubernetes::Namespace', 'default'],
      ['Kubernetes::Namespace', 'shop'],
      ['Kubernetes::Node', 'kind-control-plane'],
      ['Kubernetes::Pod', 'db-0'],
      ['Kubernetes::Pod', 'node-exporter-7kq2d'],
      ['Kubernetes::Pod', 'web-5d4f8c7b9-m9kzp'],
      ['Kubernetes::Pod', 'web-5d4f8c7b9-x2x7q'],
      ['Kubernetes::ReplicaSet', 'web-5d4f8c7b9'],
      ['Kubernetes::Service', 'web'],
      ['Kubernetes::StatefulSet', 'db'],
    ]);
    const deployment = rows.find((row) => row.type === 'Kubernetes::Deployment')!;
    expect(deployment).toMatchObject({
      external_id: [UIDS.deployment],
      config_class: 'Deployment',
      tags: { cluster: 'kind', namespace: 'shop' },
      labels: { app: 'web' },
      health: 'healthy',
      status: '2/2 ready',
    });
    expect(
      Object.fromEntries(
        rows
          .filter((row) => row.type === 'Kubernetes::Pod' || row.type === 'Kubernetes::Node')
          .map((row) => [row.name, [row.health, row.status]]),
      ),
    ).toEqual({
      'db-0': ['healthy', 'Running'],
      'kind-control-plane': ['healthy', 'Ready'],
      'node-exporter-7kq2d': ['healthy', 'Running'],
      'web-5d4f8c7b9-m9kzp': ['unhealthy', 'CrashLoopBackOff'],
      'web-5d4f8c7b9-x2x7q': ['healthy', 'Running'],
    });
    expect(deployment.config).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 2 } });
    expect(deployment.config.metadata.managedFields).toBeUndefined();
    expect(deployment.config.metadata.resourceVersion).toBeUndefined();
    // The pods came in pages of two: the client followed the continue token.
    expect(api.requests).toContain('/api/v1/pods?continue=2&limit=500');

    const edges = await database.pool.query<{ from: string; to: string; relation: string }>(
      `SELECT a.name AS from, b.name AS to, r.relation FROM config_relationships r
       JOIN config_items a ON a.id = r.config_id JOIN config_items b ON b.id = r.related_id
       WHERE r.scraper_id = $1 AND r.deleted_at IS NULL ORDER BY 1, 2`,
      [scraperId],
    );
    expect(edges.rows).toEqual([
      { from: 'db', to: 'db-0', relation: 'hard' },
      { from: 'kind-control-plane', to: 'db-0', relation: '' },
      { from: 'kind-control-plane', to: 'node-exporter-7kq2d', relation: '' },
      { from: 'kind-control-plane', to: 'web-5d4f8c7b9-m9kzp', relation: '' },
      { from: 'kind-control-plane', to: 'web-5d4f8c7b9-x2x7q', relation: '' },
      { from: 'node-exporter', to: 'node-exporter-7kq2d', relation: 'hard' },
      // The Service web selects app=web: its two pods (the Deployment's name sorts first).
      { from: 'web', to: 'web-5d4f8c7b9', relation: 'hard' },
      { from: 'web', to: 'web-5d4f8c7b9-m9kzp', relation: '' },
      { from: 'web', to: 'web-5d4f8c7b9-x2x7q', relation: '' },
      { from: 'web-5d4f8c7b9', to: 'web-5d4f8c7b9-m9kzp', relation: 'hard' },
      { from: 'web-5d4f8c7b9', to: 'web-5d4f8c7b9-x2x7q', relation: 'hard' },
    ]);
    // Downstream along hard edges: Deployment → ReplicaSet → Pods.
    const related = await database.pool.query<{ name: string; depth: number }>(
      `SELECT name, depth FROM related_configs_recursive($1::uuid, 'outgoing', false, 5, 'both', 'hard') ORDER BY depth, name`,
      [deployment.id],
    );
    expect(related.rows.map((row) => [row.name, row.depth])).toEqual([
      ['web', 0],
      ['web-5d4f8c7b9', 1],
      ['web-5d4f8c7b9-m9kzp', 2],
      ['web-5d4f8c7b9-x2x7q', 2],
    ]);

    const events = await database.pool.query<{
      name: string;
      change_type: string;
      severity: string;
      source: string;
      summary: string;
      count: number;
      created_at: Date;
    }>(
      `SELECT i.name, c.change_type, c.severity, c.source, c.summary, c.count, c.created_at FROM config_changes c
       JOIN config_items i ON i.id = c.config_id WHERE i.scraper_id = $1 AND c.change_type <> 'diff' ORDER BY i.name`,
      [scraperId],
    );
    // The Lease's event is dropped: the scraper does not keep Leases.
    expect(events.rows).toEqual([
      {
        name: 'web',
        change_type: 'ScalingReplicaSet',
        severity: 'info',
        source: 'deployment-controller',
        summary: 'Scaled up replica set web-5d4f8c7b9 to 2',
        count: 1,
        created_at: new Date('2026-11-26T09:00:00Z'),
      },
      {
        name: 'web-5d4f8c7b9-m9kzp',
        change_type: 'BackOff',
        severity: 'medium',
        source: 'kubelet',
        summary: 'Back-off restarting failed container web in pod web-5d4f8c7b9-m9kzp_shop',
        count: 1,
        created_at: new Date('2026-11-26T10:05:00Z'),
      },
    ]);
    expect((await lastJob(scraperId)).details.summary).toMatchObject({ reported_changes: 2, relationships: 11 });

    // The cluster moves on: the deployment scales, a pod goes, the BackOff event repeats.
    cluster.deployments![0]!.spec = { ...(cluster.deployments![0]!.spec as object), replicas: 3 };
    cluster.pods = cluster.pods!.filter((pod) => (pod.metadata as { uid: string }).uid !== UIDS.podA);
    const backOff = cluster.events![0]!;
    cluster.events![0] = { ...backOff, count: 5, lastTimestamp: '2026-11-26T10:10:00Z' };
    expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });

    const after = await items(scraperId);
    expect(after.find((row) => row.name === 'web-5d4f8c7b9-x2x7q')!.deleted_at).toBeInstanceOf(Date);
    const changes = await database.pool.query<{ name: string; change_type: string; summary: string; count: number }>(
      `SELECT i.name, c.change_type, c.summary, c.count FROM config_changes c JOIN config_items i ON i.id = c.config_id
       WHERE i.scraper_id = $1 ORDER BY i.name, c.change_type`,
      [scraperId],
    );
    expect(changes.rows).toEqual([
      { name: 'web', change_type: 'ScalingReplicaSet', summary: 'Scaled up replica set web-5d4f8c7b9 to 2', count: 1 },
      { name: 'web', change_type: 'diff', summary: 'spec.replicas: 2 → 3', count: 1 },
      {
        name: 'web-5d4f8c7b9-m9kzp',
        change_type: 'BackOff',
        summary: 'Back-off restarting failed container web in pod web-5d4f8c7b9-m9kzp_shop',
        count: 2,
      },
    ]);
    // The deleted pod's edges (owner, node, service) are ended with it.
    const live = await database.pool.query(
      `SELECT 1 FROM config_relationships WHERE scraper_id = $1 AND deleted_at IS NULL`,
      [scraperId],
    );
    expect(live.rowCount).toBe(8);
  });

  it('reads one namespace through a kubernetes connection, with exclusions and a label selector', async () => {
    cluster = clusterFixture();
    const resolve: ScrapeConnectionResolver = async (reference, namespace) => {
      expect([reference, namespace]).toEqual(['connection://default/kind', 'default']);
      return { type: 'kubernetes', certificate: kubeconfig(TOKEN), insecureTls: false, properties: {} };
    };
    const scraperId = await addScraper('kind-shop', {
      kubernetes: [
        {
          clusterName: 'kind',
          connection: 'connection://default/kind',
          namespace: 'shop',
          selector: 'app=web',
          exclusions: { kind: ['ReplicaSet'] },
          event: { exclusions: { reason: ['Scaling*'] } },
        },
      ],
    });
    expect(await scraping(resolve).runNow(scraperId)).toMatchObject({ ran: true, status: 'SUCCESS' });
    expect((await items(scraperId)).map((row) => [row.type, row.name])).toEqual([
      ['Kubernetes::Deployment', 'web'],
      ['Kubernetes::Pod', 'web-5d4f8c7b9-m9kzp'],
      ['Kubernetes::Pod', 'web-5d4f8c7b9-x2x7q'],
      ['Kubernetes::Service', 'web'],
    ]);
    expect(api.requests).toContain('/apis/apps/v1/namespaces/shop/deployments?labelSelector=app%3Dweb&limit=500');
    const events = await database.pool.query<{ change_type: string }>(
      `SELECT c.change_type FROM config_changes c JOIN config_items i ON i.id = c.config_id WHERE i.scraper_id = $1`,
      [scraperId],
    );
    expect(events.rows).toEqual([{ change_type: 'BackOff' }]);
  });

  it("names the API server's refusals and keeps the items it could list", async () => {
    // Over plain HTTP, as behind `kubectl proxy`.
    const denied = await startKubernetesListServer({ cluster: clusterFixture, token: TOKEN, forbidden: ['nodes'] });
    const config = kubeconfig(TOKEN).replace(api.url, denied.url);
    try {
      const scraperId = await addScraper('kind-rbac', { kubernetes: [{ clusterName: 'kind', kubeconfig: config }] });
      expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'WARNING' });
      expect((await lastJob(scraperId)).details.errors).toEqual([
        expect.stringMatching(
          /^kubernetes\[0\]: listing Nodes: the API server answered 403: nodes is forbidden: User "system:serviceaccount:lookout:scraper" cannot list/,
        ),
      ]);
      expect((await items(scraperId)).length).toBe(11);

      const wrong = await addScraper('kind-token', {
        kubernetes: [{ clusterName: 'kind', kubeconfig: kubeconfig('nope') }],
      });
      expect(await scraping().runNow(wrong)).toMatchObject({ ran: true, status: 'FAILED' });
      expect((await lastJob(wrong)).details.errors).toEqual([
        'kubernetes[0]: listing Namespaces: the API server answered 401: Unauthorized',
      ]);
    } finally {
      await denied.close();
    }
  });

  it('refuses a kubeconfig that runs a program', async () => {
    const execConfig = `apiVersion: v1
clusters: [{ name: c, cluster: { server: ${api.url} } }]
users: [{ name: u, user: { exec: { command: /bin/sh, args: ['-c', 'touch /tmp/pwned'] } } }]
contexts: [{ name: c, context: { cluster: c, user: u } }]
current-context: c
`;
    const scraperId = await addScraper('kind-exec', { kubernetes: [{ clusterName: 'kind', kubeconfig: execConfig }] });
    expect(await scraping().runNow(scraperId)).toMatchObject({ ran: true, status: 'FAILED' });
    expect((await lastJob(scraperId)).details.errors).toEqual([
      "kubernetes[0]: The kubeconfig's user 'u' runs an exec plugin, which Lookout does not run; use a token or a client certificate",
    ]);
  });
});
