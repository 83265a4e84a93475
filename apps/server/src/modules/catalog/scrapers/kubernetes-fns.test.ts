import { describe, expect, it } from 'vitest';
import {
  eventChange,
  eventSeverity,
  isExcluded,
  kubernetesHealth,
  manifestDocument,
  manifestObjects,
  matchesGlob,
  objectDocument,
  ownerLinks,
  placementLinks,
} from './kubernetes-fns.js';

const pod = {
  metadata: {
    name: 'web-1',
    namespace: 'shop',
    uid: 'pod-uid',
    labels: { app: 'web' },
    resourceVersion: '77',
    managedFields: [{ manager: 'kubelet' }],
    ownerReferences: [{ kind: 'ReplicaSet', uid: 'rs-uid', name: 'web', controller: true }],
  },
  spec: { nodeName: 'n1' },
};

describe('kubernetes objects as items', () => {
  it('names them as config-db does and stores them without bookkeeping fields', () => {
    expect(objectDocument(pod, 'Pod', 'v1', 'prod')).toEqual({
      source: 'kubernetes/prod/Pod/shop/web-1',
      document: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'web-1',
          namespace: 'shop',
          uid: 'pod-uid',
          labels: { app: 'web' },
          ownerReferences: pod.metadata.ownerReferences,
        },
        spec: { nodeName: 'n1' },
      },
      defaults: {
        id: 'pod-uid',
        name: 'web-1',
        type: 'Kubernetes::Pod',
        class: 'Pod',
        tags: { cluster: 'prod', namespace: 'shop' },
        labels: { app: 'web' },
        health: 'unknown',
        status: 'Unknown',
      },
    });
    expect(objectDocument({ metadata: { name: 'x' } }, 'Pod', 'v1', 'prod')).toBeUndefined();
    expect(ownerLinks(pod, 'Pod')).toEqual([
      {
        from: { type: 'Kubernetes::ReplicaSet', externalId: 'rs-uid' },
        to: { type: 'Kubernetes::Pod', externalId: 'pod-uid' },
        relation: 'hard',
      },
    ]);
  });

  it('applies exclusions by kind, name, namespace (globs) and labels', () => {
    expect(matchesGlob('kube-system', 'kube-*')).toBe(true);
    expect(matchesGlob('web.1', 'web?1')).toBe(false);
    expect(isExcluded(pod, 'Pod', {})).toBe(false);
    expect(isExcluded(pod, 'Pod', { exclusions: { kind: ['Pod'] } })).toBe(true);
    expect(isExcluded(pod, 'Pod', { exclusions: { namespace: ['sh*'] } })).toBe(true);
    expect(isExcluded(pod, 'Pod', { exclusions: { labels: { app: 'web' } } })).toBe(true);
    expect(isExcluded(pod, 'Pod', { exclusions: { labels: { app: 'db' } } })).toBe(false);
  });
});

describe('placement links', () => {
  it('links a node to its pods and a service to the pods of its namespace it selects', () => {
    const node = { metadata: { name: 'n1', uid: 'node-uid' } };
    const service = {
      metadata: { name: 'web', namespace: 'shop', uid: 'svc-uid' },
      spec: { selector: { app: 'web' } },
    };
    const elsewhere = {
      metadata: { name: 'web-2', namespace: 'other', uid: 'pod-2', labels: { app: 'web' } },
      spec: {},
    };
    const links = placementLinks(
      new Map([
        ['Node', [node]],
        ['Service', [service, { metadata: { name: 'headless', namespace: 'shop', uid: 'svc-2' }, spec: {} }]],
        ['Pod', [pod, elsewhere]],
      ]),
    );
    expect(links.map((link) => [link.from.externalId, link.to.externalId, link.relation])).toEqual([
      ['node-uid', 'pod-uid', ''],
      ['svc-uid', 'pod-uid', ''],
    ]);
  });
});

describe('kubernetes health', () => {
  it('reads pods, nodes, workloads and namespaces from their status', () => {
    const podWith = (status: object) => kubernetesHealth('Pod', { status });
    expect(podWith({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] })).toEqual({
      health: 'healthy',
      status: 'Running',
    });
    expect(podWith({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] })).toEqual({
      health: 'warning',
      status: 'NotReady',
    });
    expect(
      podWith({ phase: 'Pending', containerStatuses: [{ state: { waiting: { reason: 'ImagePullBackOff' } } }] }),
    ).toEqual({
      health: 'unhealthy',
      status: 'ImagePullBackOff',
    });
    expect(
      podWith({ phase: 'Pending', containerStatuses: [{ state: { waiting: { reason: 'ContainerCreating' } } }] }),
    ).toEqual({
      health: 'warning',
      status: 'ContainerCreating',
    });
    expect(podWith({ phase: 'Succeeded' })).toEqual({ health: 'healthy', status: 'Completed' });
    expect(podWith({ phase: 'Failed' })).toEqual({ health: 'unhealthy', status: 'Failed' });
    expect(kubernetesHealth('Node', { status: { conditions: [{ type: 'Ready', status: 'False' }] } })).toEqual({
      health: 'unhealthy',
      status: 'NotReady',
    });
    expect(kubernetesHealth('Deployment', { spec: { replicas: 3 }, status: { readyReplicas: 1 } })).toEqual({
      health: 'warning',
      status: '1/3 ready',
    });
    expect(kubernetesHealth('StatefulSet', { spec: { replicas: 2 }, status: {} })).toEqual({
      health: 'unhealthy',
      status: '0/2 ready',
    });
    expect(kubernetesHealth('DaemonSet', { status: { desiredNumberScheduled: 2, numberReady: 2 } })).toEqual({
      health: 'healthy',
      status: '2/2 ready',
    });
    expect(kubernetesHealth('Namespace', { status: { phase: 'Terminating' } })).toEqual({
      health: 'warning',
      status: 'Terminating',
    });
    expect(kubernetesHealth('Service', {})).toEqual({});
  });
});

describe('kubernetes events as changes', () => {
  const event = {
    metadata: {
      uid: 'event-uid',
      name: 'web-1.abc',
      namespace: 'shop',
      creationTimestamp: '2026-11-26T10:00:00Z',
      managedFields: [],
    },
    involvedObject: { kind: 'Pod', uid: 'pod-uid', name: 'web-1', namespace: 'shop' },
    reason: 'FailedMount',
    message: 'MountVolume.SetUp failed',
    type: 'Warning',
    source: { component: 'kubelet' },
    lastTimestamp: '2026-11-26T10:03:00Z',
  };

  it('keys the change to the involved object with the event uid, severity from its reason', () => {
    expect(eventChange(event, {})).toMatchObject({
      item: { type: 'Kubernetes::Pod', externalId: 'pod-uid' },
      externalChangeId: 'event-uid',
      changeType: 'FailedMount',
      severity: 'high',
      source: 'kubelet',
      summary: 'MountVolume.SetUp failed',
      createdAt: '2026-11-26T10:03:00Z',
    });
    expect(eventSeverity({ ...event, reason: 'Pulled', type: 'Normal' }, undefined)).toBe('info');
    expect(eventSeverity({ ...event, reason: 'Whatever', type: 'Warning' }, undefined)).toBe('medium');
    expect(eventSeverity({ ...event, reason: 'Pulled' }, { severityKeywords: { error: ['Pull*'] } })).toBe('high');
  });

  it('drops excluded and unusable events', () => {
    expect(eventChange(event, { event: { exclusions: { reason: ['Failed*'] } } })).toBeUndefined();
    expect(eventChange(event, { event: { exclusions: { namespace: ['shop'] } } })).toBeUndefined();
    expect(eventChange({ ...event, involvedObject: { kind: 'Pod' } }, {})).toBeUndefined();
  });
});

describe('manifests in files', () => {
  it('expands Lists, names objects without uid by kind/namespace/name, and filters by the selector', () => {
    const list = {
      kind: 'List',
      items: [
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'shop' } },
        { kind: 'ConfigMap', metadata: { name: 'settings' } },
        { kind: 'Broken' },
      ],
    };
    const objects = manifestObjects(list);
    expect(objects.map((object) => object.kind)).toEqual(['Deployment', 'ConfigMap']);
    expect(manifestDocument(objects[0]!, 'a.yaml#0')?.defaults).toEqual({
      id: 'Deployment/shop/api',
      name: 'api',
      type: 'Kubernetes::Deployment',
      class: 'Deployment',
      tags: { namespace: 'shop' },
    });
    expect(manifestDocument(objects[1]!, 'a.yaml#1', { kind: 'Deployment' })).toBeUndefined();
    expect(manifestDocument(objects[0]!, 'a.yaml#0', { kind: 'Deploy*', namespace: 'other' })).toBeUndefined();
    expect(manifestObjects('text')).toEqual([]);
  });
});
