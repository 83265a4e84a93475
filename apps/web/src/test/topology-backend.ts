import { HttpResponse, http } from 'msw';
import type { TopologyComponent, TopologyResponse } from '@/features/topology/lib/topology-types';

/** Ids of the fixture tree: a shop with a database (unhealthy) and an api (healthy). */
export const TOPOLOGY_IDS = {
  shop: '0193a000-0000-7000-8000-000000000001',
  db: '0193a000-0000-7000-8000-000000000002',
  api: '0193a000-0000-7000-8000-000000000003',
  cache: '0193a000-0000-7000-8000-000000000004',
  config: '0193a000-0000-7000-8000-0000000000c1',
  topology: '0193a000-0000-7000-8000-0000000000f1',
} as const;

const base = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z', agent_id: null };

export const dbComponent: TopologyComponent = {
  ...base,
  id: TOPOLOGY_IDS.db,
  name: 'orders-db',
  type: 'Database',
  icon: 'postgres',
  health: 'unhealthy',
  status: 'unhealthy',
  status_reason: 'replication lag',
  parent_id: TOPOLOGY_IDS.shop,
  path: TOPOLOGY_IDS.shop,
  topology_id: TOPOLOGY_IDS.topology,
  external_id: 'db',
  properties: [
    { name: 'cost', type: 'currency', value: 1530, headline: true },
    { name: 'memory', unit: 'bytes', value: 900 * 1024 ** 2, max: 1024 ** 3 },
    { name: 'region', text: 'eu-west-1' },
  ],
  summary: { checks: { healthy: 1, unhealthy: 2 }, insights: { security: { high: 1, low: 2 } } },
};

export const apiComponent: TopologyComponent = {
  ...base,
  id: TOPOLOGY_IDS.api,
  name: 'orders-api',
  type: 'Service',
  health: 'healthy',
  status: 'healthy',
  parent_id: TOPOLOGY_IDS.shop,
  path: TOPOLOGY_IDS.shop,
  topology_id: TOPOLOGY_IDS.topology,
  properties: Array.from({ length: 8 }, (_, index) => ({ name: `p${index}`, text: `v${index}` })),
  summary: { checks: { healthy: 3 } },
};

export const cacheComponent: TopologyComponent = {
  ...base,
  id: TOPOLOGY_IDS.cache,
  name: 'cache',
  type: 'Cache',
  health: 'warning',
  status: 'warning',
  summary: {},
};

export const shopComponent: TopologyComponent = {
  ...base,
  id: TOPOLOGY_IDS.shop,
  name: 'shop',
  type: 'Application',
  health: 'unhealthy',
  status: 'unhealthy',
  topology_id: TOPOLOGY_IDS.topology,
  labels: { namespace: 'prod', team: 'payments' },
  summary: { checks: { healthy: 4, unhealthy: 2 } },
  components: [apiComponent, dbComponent],
};

const response = (components: TopologyComponent[]): TopologyResponse => ({
  components,
  healthStatuses: ['healthy', 'unhealthy', 'warning'],
  tags: {},
  teams: ['payments'],
  types: ['Application', 'Cache', 'Database', 'Service'],
});

/** A recording fake of the topology calls: answers from the fixture tree. */
export function topologyBackend() {
  const requests: { path: string; params: URLSearchParams; body?: unknown }[] = [];
  let topLevel: TopologyComponent[] = [shopComponent, cacheComponent];
  const record = (request: Request, body?: unknown) => {
    const url = new URL(request.url);
    requests.push({ path: url.pathname, params: url.searchParams, ...(body === undefined ? {} : { body }) });
  };
  const all = [shopComponent, cacheComponent, dbComponent, apiComponent];
  const handlers = [
    http.get('*/api/canary/api/topology', ({ request }) => {
      record(request);
      const id = new URL(request.url).searchParams.get('id');
      if (id) return HttpResponse.json(response(all.filter((c) => c.id === id)));
      return HttpResponse.json(response(topLevel));
    }),
    http.get('*/api/db/component_names', ({ request }) => {
      const id = new URL(request.url).searchParams.get('id')?.replace('eq.', '');
      const found = all.find((c) => c.id === id);
      return HttpResponse.json(
        found
          ? [{ id: found.id, name: found.name, icon: found.icon ?? null, type: found.type, path: found.path ?? null }]
          : [],
      );
    }),
    http.get('*/api/db/component_labels', () => HttpResponse.json([{ key: 'team', value: 'payments' }])),
    http.get('*/api/db/agents', () =>
      HttpResponse.json([{ id: '00000000-0000-0000-0000-000000000000', name: 'local' }]),
    ),
    http.get('*/api/db/topologies', () =>
      HttpResponse.json([{ id: TOPOLOGY_IDS.topology, name: 'shop-topology', namespace: 'default', source: 'UI' }]),
    ),
    http.get('*/api/db/checks_by_component', ({ request }) => {
      record(request);
      return HttpResponse.json([
        {
          id: 'c1',
          name: 'orders-db-ping',
          icon: null,
          type: 'postgres',
          status: 'unhealthy',
          severity: null,
          last_runtime: null,
          last_transition_time: null,
        },
      ]);
    }),
    http.get('*/api/db/incidents_by_component', () =>
      HttpResponse.json([
        {
          id: 'i1',
          title: 'Orders lag',
          type: 'availability',
          status: 'open',
          severity: 'high',
          created_at: '2026-01-03T00:00:00Z',
        },
      ]),
    ),
    http.get('*/api/db/config_component_relationships', () =>
      HttpResponse.json([
        {
          config_id: TOPOLOGY_IDS.config,
          selector_id: 'manual',
          configs: {
            id: TOPOLOGY_IDS.config,
            name: 'orders-rds',
            type: 'AWS::RDS::DBInstance',
            config_class: 'Database',
            deleted_at: null,
          },
        },
      ]),
    ),
    // 'Link to catalog' picks through the resource search (ui-calls 3.16).
    http.post('*/api/resources/search', async ({ request }) => {
      record(request, await request.json());
      const config = {
        id: TOPOLOGY_IDS.config,
        name: 'orders-rds',
        type: 'AWS::RDS::DBInstance',
        namespace: null,
        agent: '00000000-0000-0000-0000-000000000000',
        labels: null,
        icon: null,
        tags: null,
      };
      return HttpResponse.json({ checks: [], components: [], configs: [config] });
    }),
    http.post('*/api/db/config_component_relationships', async ({ request }) => {
      const body = await request.json();
      record(request, body);
      return HttpResponse.json([body], { status: 201 });
    }),
    http.get('*/api/snapshot/topology/:id', ({ request }) => {
      record(request);
      return new HttpResponse(new Uint8Array([80, 75, 3, 4]), { headers: { 'Content-Type': 'application/zip' } });
    }),
  ];
  return {
    handlers,
    requests,
    setTopLevel: (components: TopologyComponent[]) => {
      topLevel = components;
    },
  };
}
