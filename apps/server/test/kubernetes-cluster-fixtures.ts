/**
 * A small cluster as the Kubernetes API lists it (recorded shapes of a kind cluster, v1.31):
 * two namespaces, a node, a Deployment with its ReplicaSet and two Pods, a StatefulSet with its
 * Pod, a DaemonSet with its Pod, a Service, and core/v1 Events. Items are in the wire format of
 * list answers: no `kind`/`apiVersion` per item, metadata with uid, resourceVersion,
 * managedFields and ownerReferences.
 */

export type ClusterFixture = Record<string, Array<Record<string, unknown>>>;

const created = '2026-11-20T08:00:00Z';
const managed = (manager: string) => [
  {
    manager,
    operation: 'Update',
    apiVersion: 'v1',
    time: created,
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': {} },
  },
];

const meta = (
  name: string,
  uid: string,
  extra: {
    namespace?: string;
    labels?: Record<string, string>;
    owner?: { kind: string; name: string; uid: string; apiVersion: string };
  } = {},
) => ({
  name,
  ...(extra.namespace ? { namespace: extra.namespace } : {}),
  uid,
  resourceVersion: String(1000 + uid.charCodeAt(0)),
  creationTimestamp: created,
  ...(extra.labels ? { labels: extra.labels } : {}),
  ...(extra.owner
    ? {
        ownerReferences: [
          {
            apiVersion: extra.owner.apiVersion,
            kind: extra.owner.kind,
            name: extra.owner.name,
            uid: extra.owner.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      }
    : {}),
  managedFields: managed('kube-controller-manager'),
});

export const UIDS = {
  nsDefault: '4b1c6a0e-2f7e-4c47-9a55-0c0ffee00001',
  nsShop: '4b1c6a0e-2f7e-4c47-9a55-0c0ffee00002',
  node: '9f3e1d2c-5b6a-4798-8c1d-0c0ffee00010',
  deployment: 'a1d2e3f4-1111-4a2b-9c3d-0c0ffee00020',
  replicaSet: 'b2c3d4e5-2222-4b3c-8d4e-0c0ffee00021',
  podA: 'c3d4e5f6-3333-4c4d-9e5f-0c0ffee00022',
  podB: 'c3d4e5f6-3333-4c4d-9e5f-0c0ffee00023',
  statefulSet: 'd4e5f6a7-4444-4d5e-8f6a-0c0ffee00030',
  podDb: 'e5f6a7b8-5555-4e6f-9a7b-0c0ffee00031',
  daemonSet: 'f6a7b8c9-6666-4f7a-8b8c-0c0ffee00040',
  podExporter: 'a7b8c9d0-7777-4a8b-9c9d-0c0ffee00041',
  service: 'b8c9d0e1-8888-4b9c-8d0e-0c0ffee00050',
};

const pod = (
  name: string,
  uid: string,
  namespace: string,
  owner: { kind: string; name: string; uid: string; apiVersion: string },
  image: string,
  labels: Record<string, string>,
) => ({
  metadata: meta(name, uid, { namespace, labels, owner }),
  spec: {
    containers: [
      { name: labels.app ?? owner.name, image, ports: [{ containerPort: 8080, protocol: 'TCP' }], resources: {} },
    ],
    nodeName: 'kind-control-plane',
    restartPolicy: 'Always',
    serviceAccountName: 'default',
  },
  status: {
    phase: 'Running',
    podIP: '10.244.0.12',
    hostIP: '172.18.0.2',
    startTime: created,
    conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: created }],
  },
});

/** The pod's container restarting after crashes, as the kubelet reports it. */
const crashLooping = (object: ReturnType<typeof pod>) => ({
  ...object,
  status: {
    ...object.status,
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: created,
        reason: 'ContainersNotReady',
      },
    ],
    containerStatuses: [
      {
        name: 'web',
        ready: false,
        restartCount: 4,
        image: 'nginx:1.27',
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=web' } },
        lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: created, finishedAt: created } },
      },
    ],
  },
});

/** A fresh copy of the cluster (tests change it between scrapes). */
export function clusterFixture(): ClusterFixture {
  const rsOwner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d4f8c7b9', uid: UIDS.replicaSet };
  return {
    namespaces: [
      {
        metadata: meta('default', UIDS.nsDefault, { labels: { 'kubernetes.io/metadata.name': 'default' } }),
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      },
      {
        metadata: meta('shop', UIDS.nsShop, { labels: { 'kubernetes.io/metadata.name': 'shop' } }),
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      },
    ],
    nodes: [
      {
        metadata: meta('kind-control-plane', UIDS.node, {
          labels: { 'kubernetes.io/hostname': 'kind-control-plane', 'node-role.kubernetes.io/control-plane': '' },
        }),
        spec: { podCIDR: '10.244.0.0/24', providerID: 'kind://docker/kind/kind-control-plane' },
        status: {
          capacity: { cpu: '2', memory: '8148572Ki', pods: '110' },
          conditions: [
            { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
          ],
          nodeInfo: { kubeletVersion: 'v1.31.0', osImage: 'Debian GNU/Linux 12 (bookworm)', architecture: 'amd64' },
        },
      },
    ],
    deployments: [
      {
        metadata: {
          ...meta('web', UIDS.deployment, { namespace: 'shop', labels: { app: 'web' } }),
          generation: 2,
          annotations: { 'deployment.kubernetes.io/revision': '1' },
        },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
          },
        },
        status: { observedGeneration: 2, replicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 2 },
      },
    ],
    replicasets: [
      {
        metadata: meta('web-5d4f8c7b9', UIDS.replicaSet, {
          namespace: 'shop',
          labels: { app: 'web', 'pod-template-hash': '5d4f8c7b9' },
          owner: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: UIDS.deployment },
        }),
        spec: { replicas: 2, selector: { matchLabels: { app: 'web', 'pod-template-hash': '5d4f8c7b9' } } },
        status: { replicas: 2, readyReplicas: 2, availableReplicas: 2 },
      },
    ],
    statefulsets: [
      {
        metadata: meta('db', UIDS.statefulSet, { namespace: 'shop', labels: { app: 'db' } }),
        spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'db' } } },
        status: { replicas: 1, readyReplicas: 1, currentRevision: 'db-7c9d5b8f6' },
      },
    ],
    daemonsets: [
      {
        metadata: meta('node-exporter', UIDS.daemonSet, { namespace: 'default', labels: { app: 'node-exporter' } }),
        spec: { selector: { matchLabels: { app: 'node-exporter' } } },
        status: { currentNumberScheduled: 1, desiredNumberScheduled: 1, numberReady: 1 },
      },
    ],
    pods: [
      pod('web-5d4f8c7b9-x2x7q', UIDS.podA, 'shop', rsOwner, 'nginx:1.27', {
        app: 'web',
        'pod-template-hash': '5d4f8c7b9',
      }),
      crashLooping(
        pod('web-5d4f8c7b9-m9kzp', UIDS.podB, 'shop', rsOwner, 'nginx:1.27', {
          app: 'web',
          'pod-template-hash': '5d4f8c7b9',
        }),
      ),
      pod(
        'db-0',
        UIDS.podDb,
        'shop',
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: UIDS.statefulSet },
        'postgres:16',
        { app: 'db' },
      ),
      pod(
        'node-exporter-7kq2d',
        UIDS.podExporter,
        'default',
        { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'node-exporter', uid: UIDS.daemonSet },
        'prom/node-exporter:v1.8.2',
        { app: 'node-exporter' },
      ),
    ],
    services: [
      {
        metadata: meta('web', UIDS.service, { namespace: 'shop', labels: { app: 'web' } }),
        spec: {
          type: 'ClusterIP',
          clusterIP: '10.96.112.7',
          selector: { app: 'web' },
          ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
        },
        status: { loadBalancer: {} },
      },
    ],
    events: [
      {
        metadata: {
          name: 'web-5d4f8c7b9-m9kzp.17f3a2b4c5d6e7f8',
          namespace: 'shop',
          uid: 'e0000000-0000-4000-8000-000000000001',
          resourceVersion: '2001',
          creationTimestamp: '2026-11-26T10:00:00Z',
          managedFields: managed('kubelet'),
        },
        involvedObject: {
          kind: 'Pod',
          namespace: 'shop',
          name: 'web-5d4f8c7b9-m9kzp',
          uid: UIDS.podB,
          apiVersion: 'v1',
          fieldPath: 'spec.containers{web}',
        },
        reason: 'BackOff',
        message: 'Back-off restarting failed container web in pod web-5d4f8c7b9-m9kzp_shop',
        source: { component: 'kubelet', host: 'kind-control-plane' },
        firstTimestamp: '2026-11-26T10:00:00Z',
        lastTimestamp: '2026-11-26T10:05:00Z',
        count: 4,
        type: 'Warning',
        reportingComponent: 'kubelet',
        reportingInstance: 'kind-control-plane',
      },
      {
        metadata: {
          name: 'web.17f3a2b4c5d6e7f9',
          namespace: 'shop',
          uid: 'e0000000-0000-4000-8000-000000000002',
          resourceVersion: '2002',
          creationTimestamp: '2026-11-26T09:00:00Z',
        },
        involvedObject: {
          kind: 'Deployment',
          namespace: 'shop',
          name: 'web',
          uid: UIDS.deployment,
          apiVersion: 'apps/v1',
        },
        reason: 'ScalingReplicaSet',
        message: 'Scaled up replica set web-5d4f8c7b9 to 2',
        source: { component: 'deployment-controller' },
        firstTimestamp: '2026-11-26T09:00:00Z',
        lastTimestamp: '2026-11-26T09:00:00Z',
        count: 1,
        type: 'Normal',
      },
      {
        metadata: {
          name: 'probe.17f3a2b4c5d6e7fa',
          namespace: 'kube-system',
          uid: 'e0000000-0000-4000-8000-000000000003',
          resourceVersion: '2003',
          creationTimestamp: '2026-11-26T09:30:00Z',
        },
        involvedObject: {
          kind: 'Lease',
          namespace: 'kube-system',
          name: 'kube-scheduler',
          uid: 'f0000000-0000-4000-8000-000000000099',
        },
        reason: 'LeaderElection',
        message: 'kind-control-plane became leader',
        source: { component: 'default-scheduler' },
        lastTimestamp: '2026-11-26T09:30:00Z',
        type: 'Normal',
      },
    ],
  };
}
