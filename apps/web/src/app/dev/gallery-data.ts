import type { SortingState } from '@tanstack/react-table';

/**
 * Sample operations data for the widget gallery. It is generated from a fixed seed and a fixed
 * clock, so every reload (and every screenshot of a review) shows the same rows.
 */

/** The moment the sample data pretends it is. */
export const GALLERY_NOW = new Date('2025-06-12T09:30:00Z');

/** mulberry32: a tiny seeded generator; good enough for plausible, repeatable sample values. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(random: () => number, items: ReadonlyArray<T>): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick() needs a non-empty list');
  return item;
}

function weighted<T extends string>(random: () => number, weights: ReadonlyArray<readonly [T, number]>): T {
  let roll = random() * weights.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [value, weight] of weights) {
    roll -= weight;
    if (roll <= 0) return value;
  }
  const last = weights.at(-1);
  if (!last) throw new Error('weighted() needs a non-empty list');
  return last[0];
}

const minutesAgo = (minutes: number) => new Date(GALLERY_NOW.getTime() - minutes * 60_000).toISOString();

export const CHECK_STATUSES = ['healthy', 'unhealthy', 'warning', 'unknown', 'suspended'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export const CHECK_TYPES = ['http', 'kubernetes', 'dns', 'tcp', 'tls', 'prometheus'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

/** A health check as the health dashboard would list it. */
export type GalleryCheck = {
  id: string;
  name: string;
  namespace: string;
  type: CheckType;
  status: CheckStatus;
  endpoint: string;
  agent: string;
  latencyMs: number;
  /** Uptime over the last day, 0-100. */
  uptime: number;
  lastRunAt: string;
};

/** Services and the namespace each one runs in. */
const SERVICES: ReadonlyArray<readonly [string, string]> = [
  ['api-gateway', 'edge'],
  ['ingress-nginx', 'edge'],
  ['checkout', 'commerce'],
  ['search', 'commerce'],
  ['inventory', 'commerce'],
  ['payments', 'payments'],
  ['ledger', 'payments'],
  ['billing', 'payments'],
  ['identity', 'identity'],
  ['session-store', 'identity'],
  ['notifications', 'messaging'],
  ['kafka', 'messaging'],
  ['postgres-primary', 'data'],
  ['redis-cache', 'data'],
  ['prometheus', 'observability'],
  ['loki', 'observability'],
  ['grafana', 'observability'],
  ['argo-cd', 'platform'],
  ['cert-manager', 'platform'],
  ['vault', 'platform'],
];

const CHECK_KINDS: ReadonlyArray<{
  suffix: string;
  type: CheckType;
  endpoint: (service: string, ns: string) => string;
}> = [
  { suffix: 'http-health', type: 'http', endpoint: (s) => `https://${s}.prod.internal/healthz` },
  { suffix: 'pods-ready', type: 'kubernetes', endpoint: (s, ns) => `kubernetes://${ns}/deployment/${s}` },
  { suffix: 'dns', type: 'dns', endpoint: (s, ns) => `dns://${s}.${ns}.svc.cluster.local` },
  { suffix: 'tcp-443', type: 'tcp', endpoint: (s, ns) => `tcp://${s}.${ns}.svc:443` },
  { suffix: 'cert-expiry', type: 'tls', endpoint: (s) => `https://${s}.lookout.example.com` },
  {
    suffix: 'latency-p99',
    type: 'prometheus',
    // Deliberately long: real PromQL endpoints are, and the table must truncate them.
    endpoint: (s) =>
      `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{service="${s}"}[5m])))`,
  },
];

const AGENTS = ['local', 'local', 'local', 'eu-west-1', 'us-east-2'] as const;

/** 120 checks: every service with every kind of check. */
export function createGalleryChecks(): GalleryCheck[] {
  const random = createRandom(7);
  return SERVICES.flatMap(([service, namespace]) =>
    CHECK_KINDS.map((kind) => {
      const status = weighted<CheckStatus>(random, [
        ['healthy', 78],
        ['unhealthy', 10],
        ['warning', 7],
        ['unknown', 3],
        ['suspended', 2],
      ]);
      const latencyMs =
        status === 'unhealthy' && random() < 0.4
          ? 30_000
          : Math.round(4 + random() ** 3 * (kind.type === 'tls' ? 900 : 2_400));
      const uptime =
        status === 'healthy'
          ? 99 + random()
          : status === 'warning'
            ? 95 + random() * 4.5
            : status === 'unhealthy'
              ? 60 + random() * 35
              : 100;
      const name = `${service}-${kind.suffix}`;
      return {
        id: `${namespace}/${name}`,
        name,
        namespace,
        type: kind.type,
        status,
        endpoint: kind.endpoint(service, namespace),
        agent: pick(random, AGENTS),
        latencyMs,
        uptime,
        lastRunAt: minutesAgo(random() * 12),
      };
    }),
  );
}

export const CHANGE_SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type ChangeSeverity = (typeof CHANGE_SEVERITIES)[number];

/** A catalog change, as the changes list would show it. */
export type GalleryConfigChange = {
  id: string;
  configName: string;
  configType: string;
  changeType: string;
  severity: ChangeSeverity;
  summary: string;
  source: string;
  createdBy: string;
  createdAt: string;
};

const CONFIG_TYPES = [
  'Kubernetes::Deployment',
  'Kubernetes::StatefulSet',
  'Kubernetes::ConfigMap',
  'Kubernetes::Ingress',
  'AWS::RDS::DBInstance',
  'AWS::EC2::Instance',
  'GitHub::Repository',
] as const;

const CHANGES: ReadonlyArray<readonly [string, (name: string) => string]> = [
  ['diff', (n) => `spec.template.spec.containers[0].image changed on ${n}`],
  ['ScalingReplicaSet', (n) => `Scaled up replica set ${n}-7d9f8c6b5 to 4`],
  ['Pulled', (n) => `Successfully pulled image "ghcr.io/acme/${n}:1.42.3" in 2.1s`],
  ['BackOff', (n) => `Back-off restarting failed container ${n} in pod ${n}-5f7c9d8b6-x2kqz`],
  ['PullRequestMerged', (n) => `#1284 Bump ${n} memory limit to 512Mi`],
  ['UpdateSucceeded', (n) => `Helm release ${n} upgraded to revision 37`],
  ['Killing', (n) => `Stopping container ${n}`],
];

const PEOPLE = ['Ada Okafor', 'Jonas Lindqvist', 'Priya Raman', 'argo-cd', 'github-actions', 'kube-controller-manager'];

/** 573 changes: enough pages to make remote pagination worth it. */
export const CONFIG_CHANGE_TOTAL = 573;

const allConfigChanges: GalleryConfigChange[] = (() => {
  const random = createRandom(42);
  return Array.from({ length: CONFIG_CHANGE_TOTAL }, (_, index) => {
    const [service] = pick(random, SERVICES);
    const [changeType, summary] = pick(random, CHANGES);
    const configType = pick(random, CONFIG_TYPES);
    return {
      id: `change-${String(index + 1).padStart(4, '0')}`,
      configName: service,
      configType,
      changeType,
      severity: weighted<ChangeSeverity>(random, [
        ['info', 50],
        ['low', 25],
        ['medium', 14],
        ['high', 8],
        ['critical', 3],
      ]),
      summary: summary(service),
      source: configType.split('::')[0]?.toLowerCase() ?? 'kubernetes',
      createdBy: pick(random, PEOPLE),
      createdAt: minutesAgo(index * 17 + random() * 15),
    };
  });
})();

/** One page as a server would answer it: the rows and the size of the whole result. */
export type GalleryPage<T> = { rows: T[]; total: number };

export type GalleryPageRequest = { pageIndex: number; pageSize: number; sorting: SortingState };

const SIMULATED_LATENCY_MS = 450;

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

/**
 * Pretends to be `GET /api/db/config_changes?order=…&limit=…&offset=…` with `Prefer:
 * count=exact`: sorts and slices on the "server" after a network-like delay.
 */
export async function fetchConfigChangesPage({
  pageIndex,
  pageSize,
  sorting,
}: GalleryPageRequest): Promise<GalleryPage<GalleryConfigChange>> {
  await new Promise((resolve) => setTimeout(resolve, SIMULATED_LATENCY_MS));
  const [order] = sorting;
  const sorted = order
    ? [...allConfigChanges].sort((a, b) => {
        const key = order.id as keyof GalleryConfigChange;
        return compareValues(a[key], b[key]) * (order.desc ? -1 : 1);
      })
    : allConfigChanges;
  return { rows: sorted.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize), total: allConfigChanges.length };
}

/** Pretends to be the checks list call, with the same delay. */
export async function fetchGalleryChecks(checks: ReadonlyArray<GalleryCheck>): Promise<GalleryCheck[]> {
  await new Promise((resolve) => setTimeout(resolve, SIMULATED_LATENCY_MS));
  return [...checks];
}

/** One run of a check, as a check's history lists them. */
export type GalleryCheckRun = {
  id: string;
  time: string;
  check: string;
  passed: boolean;
  durationMs: number;
  message: string;
};

/** 2,000 runs, newest first: the virtual-scrolling example. */
export function createGalleryCheckRuns(checks: ReadonlyArray<GalleryCheck>, count = 2_000): GalleryCheckRun[] {
  const random = createRandom(2024);
  return Array.from({ length: count }, (_, index) => {
    const check = pick(random, checks);
    const passed = random() > 0.12;
    const durationMs = passed ? Math.round(5 + random() ** 2 * 1_500) : Math.round(800 + random() * 29_200);
    return {
      id: `run-${index}`,
      time: minutesAgo(index * 0.5),
      check: check.name,
      passed,
      durationMs,
      message: passed
        ? `${check.type.toUpperCase()} check passed`
        : pick(random, [
            'context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
            'expected status 200, got 503 Service Unavailable',
            'x509: certificate has expired or is not yet valid',
            'dial tcp 10.42.3.17:443: connect: connection refused',
            '2 of 3 pods not ready: CrashLoopBackOff',
          ]),
    };
  });
}
