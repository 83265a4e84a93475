import type { ConfigHealth } from '@lookout/contracts';
import type { ScrapedChange, ScrapedLink } from '../scrape-extras.js';
import type { ScrapedDocument } from '../scrape-item-fns.js';

/**
 * Kubernetes objects as catalog items (config-db's naming): type `Kubernetes::<Kind>`, id the
 * object's uid, name its name, class its kind, tags `cluster` and `namespace`, labels its
 * labels. Owner references are hard relationships owner → owned; events are changes of the
 * object they involve. Pure, so it is tested without a cluster.
 */

export const KUBERNETES_TYPE_PREFIX = 'Kubernetes::';

export type KubernetesObject = {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    ownerReferences?: Array<{ kind?: string; uid?: string; name?: string; controller?: boolean }>;
    managedFields?: unknown;
    resourceVersion?: string;
    creationTimestamp?: string;
  };
  [field: string]: unknown;
};

export type KubernetesEvent = KubernetesObject & {
  involvedObject?: { kind?: string; uid?: string; name?: string; namespace?: string };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  source?: { component?: string; host?: string };
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
};

/** config-db's `exclusions` and `event` settings of a kubernetes entry. */
export type KubernetesFilters = {
  exclusions?: { name?: string[]; namespace?: string[]; kind?: string[]; labels?: Record<string, string> };
  event?: {
    exclusions?: { name?: string[]; namespace?: string[]; reason?: string[] };
    severityKeywords?: { warn?: string[]; error?: string[] };
  };
};

/** Reasons whose events are errors or warnings when the entry names none (globs). */
export const DEFAULT_SEVERITY_KEYWORDS = {
  error: ['Failed*', '*Error*', 'OOM*', 'Evicted', 'NodeNotReady'],
  warn: ['BackOff', 'Unhealthy', 'Killing', '*Pressure*', 'ProbeWarning'],
};

/** `*` matches any run of characters; `!x` excludes (config-db's collections.MatchItems). */
export function matchesGlob(value: string, pattern: string): boolean {
  const source = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${source}$`, 'i').test(value);
}

const matchesAny = (value: string | undefined, patterns: readonly string[] | undefined) =>
  value !== undefined && (patterns ?? []).some((pattern) => matchesGlob(value, pattern));

/** Whether the entry's exclusions drop this object. */
export function isExcluded(object: KubernetesObject, kind: string, filters: KubernetesFilters): boolean {
  const exclusions = filters.exclusions;
  if (!exclusions) return false;
  const metadata = object.metadata ?? {};
  if (matchesAny(kind, exclusions.kind)) return true;
  if (matchesAny(metadata.name, exclusions.name)) return true;
  if (matchesAny(metadata.namespace, exclusions.namespace)) return true;
  const labels = exclusions.labels ?? {};
  return (
    Object.keys(labels).length > 0 &&
    Object.entries(labels).every(([key, value]) => matchesGlob(metadata.labels?.[key] ?? '', value))
  );
}

/** The object as stored: kind and apiVersion set (lists leave them out), bookkeeping fields removed. */
export function storedObject(object: KubernetesObject, kind: string, apiVersion: string): KubernetesObject {
  const { managedFields: _managed, resourceVersion: _version, ...metadata } = object.metadata ?? {};
  return { ...object, apiVersion, kind, metadata };
}

type Condition = { type?: string; status?: string; reason?: string };
type ContainerStatus = { ready?: boolean; state?: { waiting?: { reason?: string }; terminated?: { reason?: string } } };
const num = (value: unknown) => (typeof value === 'number' ? value : 0);

/** Ready of wanted replicas: all → healthy, none (of some) → unhealthy, else warning. */
function replicasHealth(ready: number, wanted: number): ConfigHealth {
  if (ready >= wanted) return 'healthy';
  return ready === 0 ? 'unhealthy' : 'warning';
}

/**
 * Health and status of a listed object from its `status`: a pod by its phase and containers
 * (a container waiting in CrashLoopBackOff or an image pull error is unhealthy), a node by its
 * Ready condition, workloads by ready against wanted replicas, a namespace by its phase.
 */
export function kubernetesHealth(kind: string, object: KubernetesObject): { health?: ConfigHealth; status?: string } {
  const status = (object.status ?? {}) as Record<string, unknown>;
  const spec = (object.spec ?? {}) as Record<string, unknown>;
  switch (kind) {
    case 'Pod': {
      const phase = typeof status.phase === 'string' ? status.phase : 'Unknown';
      const containers = (status.containerStatuses ?? []) as ContainerStatus[];
      const waiting = containers.map((c) => c.state?.waiting?.reason).find((reason) => reason !== undefined);
      if (waiting && /BackOff|Err|Invalid/.test(waiting)) return { health: 'unhealthy', status: waiting };
      if (phase === 'Failed') return { health: 'unhealthy', status: phase };
      if (phase === 'Succeeded') return { health: 'healthy', status: 'Completed' };
      if (phase === 'Pending') return { health: 'warning', status: waiting ?? phase };
      if (phase === 'Running') {
        const ready = (status.conditions as Condition[] | undefined)?.find((c) => c.type === 'Ready')?.status;
        return { health: ready === 'False' ? 'warning' : 'healthy', status: ready === 'False' ? 'NotReady' : phase };
      }
      return { health: 'unknown', status: phase };
    }
    case 'Node': {
      const ready = (status.conditions as Condition[] | undefined)?.find((c) => c.type === 'Ready')?.status;
      return ready === 'True'
        ? { health: 'healthy', status: 'Ready' }
        : { health: ready === 'False' ? 'unhealthy' : 'unknown', status: 'NotReady' };
    }
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet': {
      const wanted = typeof spec.replicas === 'number' ? spec.replicas : 1;
      const ready = num(status.readyReplicas);
      return { health: replicasHealth(ready, wanted), status: `${ready}/${wanted} ready` };
    }
    case 'DaemonSet': {
      const wanted = num(status.desiredNumberScheduled);
      const ready = num(status.numberReady);
      return { health: replicasHealth(ready, wanted), status: `${ready}/${wanted} ready` };
    }
    case 'Namespace': {
      const phase = typeof status.phase === 'string' ? status.phase : 'Active';
      return { health: phase === 'Active' ? 'healthy' : 'warning', status: phase };
    }
    default:
      return {};
  }
}

/** An object as a scraped document with its Kubernetes defaults. */
export function objectDocument(
  object: KubernetesObject,
  kind: string,
  apiVersion: string,
  clusterName: string,
): ScrapedDocument | undefined {
  const metadata = object.metadata ?? {};
  if (!metadata.uid || !metadata.name) return undefined;
  const namespace = metadata.namespace;
  return {
    source: `kubernetes/${clusterName}/${kind}/${namespace ? `${namespace}/` : ''}${metadata.name}`,
    document: storedObject(object, kind, apiVersion),
    defaults: {
      id: metadata.uid,
      name: metadata.name,
      type: `${KUBERNETES_TYPE_PREFIX}${kind}`,
      class: kind,
      tags: { cluster: clusterName, ...(namespace ? { namespace } : {}) },
      ...(metadata.labels && Object.keys(metadata.labels).length > 0 ? { labels: metadata.labels } : {}),
      ...kubernetesHealth(kind, object),
    },
  };
}

/** Owner references as hard edges owner → owned. */
export function ownerLinks(object: KubernetesObject, kind: string): ScrapedLink[] {
  const uid = object.metadata?.uid;
  if (!uid) return [];
  return (object.metadata?.ownerReferences ?? []).flatMap((owner) =>
    owner.kind && owner.uid
      ? [
          {
            from: { type: `${KUBERNETES_TYPE_PREFIX}${owner.kind}`, externalId: owner.uid },
            to: { type: `${KUBERNETES_TYPE_PREFIX}${kind}`, externalId: uid },
            relation: 'hard',
          },
        ]
      : [],
  );
}

/** The severity of an event: the entry's (or default) keywords on its reason, else its type. */
export function eventSeverity(event: KubernetesEvent, keywords: KubernetesFilters['event']): string {
  const reason = event.reason ?? '';
  const error = keywords?.severityKeywords?.error ?? DEFAULT_SEVERITY_KEYWORDS.error;
  const warn = keywords?.severityKeywords?.warn ?? DEFAULT_SEVERITY_KEYWORDS.warn;
  if (matchesAny(reason, error)) return 'high';
  if (matchesAny(reason, warn)) return 'medium';
  return event.type === 'Warning' ? 'medium' : 'info';
}

/** An event as a change of the object it involves, or undefined when excluded or unusable. */
export function eventChange(event: KubernetesEvent, filters: KubernetesFilters): ScrapedChange | undefined {
  const involved = event.involvedObject;
  const uid = event.metadata?.uid;
  if (!involved?.kind || !involved.uid || !uid || !event.reason) return undefined;
  const exclusions = filters.event?.exclusions;
  if (
    matchesAny(involved.name, exclusions?.name) ||
    matchesAny(involved.namespace, exclusions?.namespace) ||
    matchesAny(event.reason, exclusions?.reason)
  ) {
    return undefined;
  }
  const { managedFields: _managed, resourceVersion: _version, ...metadata } = event.metadata ?? {};
  return {
    item: { type: `${KUBERNETES_TYPE_PREFIX}${involved.kind}`, externalId: involved.uid },
    externalChangeId: uid,
    changeType: event.reason,
    severity: eventSeverity(event, filters.event),
    source: event.source?.component ?? 'kubernetes',
    summary: event.message ?? event.reason,
    details: { ...event, metadata },
    createdAt: event.lastTimestamp ?? event.eventTime ?? event.metadata?.creationTimestamp ?? null,
    externalCreatedBy: null,
  };
}

/** A manifest's selector (`kubernetesFile`): kind, and optionally namespace and name (globs). */
export type ManifestSelector = { kind: string; namespace?: string | undefined; name?: string | undefined };

/**
 * The Kubernetes objects of one parsed file document: itself when it has a kind and a name, the
 * entries of a `List` (or `*List`), nothing otherwise.
 */
export function manifestObjects(document: unknown): KubernetesObject[] {
  if (!document || typeof document !== 'object' || Array.isArray(document)) return [];
  const object = document as KubernetesObject & { items?: unknown };
  if (typeof object.kind === 'string' && object.kind.endsWith('List') && Array.isArray(object.items)) {
    return object.items.flatMap(manifestObjects);
  }
  return typeof object.kind === 'string' && typeof object.metadata?.name === 'string' ? [object] : [];
}

/**
 * A manifest as a scraped document: type `Kubernetes::<Kind>`, id its uid when it has one, else
 * `<kind>/<namespace>/<name>` (manifests in files usually have no uid), tags its namespace.
 */
export function manifestDocument(
  object: KubernetesObject,
  source: string,
  selector?: ManifestSelector,
): ScrapedDocument | undefined {
  const kind = object.kind!;
  const metadata = object.metadata ?? {};
  const name = metadata.name!;
  if (selector) {
    if (!matchesGlob(kind, selector.kind)) return undefined;
    if (selector.namespace && !matchesGlob(metadata.namespace ?? '', selector.namespace)) return undefined;
    if (selector.name && !matchesGlob(name, selector.name)) return undefined;
  }
  const namespace = metadata.namespace;
  return {
    source,
    document: storedObject(object, kind, object.apiVersion ?? 'v1'),
    defaults: {
      id: metadata.uid ?? `${kind}/${namespace ?? ''}/${name}`,
      name,
      type: `${KUBERNETES_TYPE_PREFIX}${kind}`,
      class: kind,
      ...(namespace ? { tags: { namespace } } : {}),
      ...(metadata.labels && Object.keys(metadata.labels).length > 0 ? { labels: metadata.labels } : {}),
    },
  };
}

/**
 * Soft edges the API states without owner references: a Node → the Pods scheduled on it
 * (`spec.nodeName`), a Service → the Pods of its namespace its selector matches.
 */
export function placementLinks(byKind: ReadonlyMap<string, readonly KubernetesObject[]>): ScrapedLink[] {
  const links: ScrapedLink[] = [];
  const pods = byKind.get('Pod') ?? [];
  const nodeUid = new Map((byKind.get('Node') ?? []).map((node) => [node.metadata?.name, node.metadata?.uid]));
  const ref = (kind: string, uid: string) => ({ type: `${KUBERNETES_TYPE_PREFIX}${kind}`, externalId: uid });
  for (const pod of pods) {
    const uid = pod.metadata?.uid;
    const node = nodeUid.get((pod.spec as { nodeName?: string } | undefined)?.nodeName);
    if (uid && node) links.push({ from: ref('Node', node), to: ref('Pod', uid), relation: '' });
  }
  for (const service of byKind.get('Service') ?? []) {
    const selector = (service.spec as { selector?: Record<string, string> } | undefined)?.selector;
    const uid = service.metadata?.uid;
    if (!uid || !selector || Object.keys(selector).length === 0) continue;
    for (const pod of pods) {
      if (pod.metadata?.namespace !== service.metadata?.namespace || !pod.metadata?.uid) continue;
      if (Object.entries(selector).every(([key, value]) => pod.metadata?.labels?.[key] === value)) {
        links.push({ from: ref('Service', uid), to: ref('Pod', pod.metadata.uid), relation: '' });
      }
    }
  }
  return links;
}
