import { apiVersionOf, type DocumentRow, type KubeKind } from './kube-kinds.js';

/** Kubernetes `Status` reasons by HTTP status (k8s.io/apimachinery metav1.StatusReason). */
const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  500: 'InternalError',
};

/** An error answered as a Kubernetes `Status` (kubectl prints `Error from server (<reason>): <message>`). */
export class KubeError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly details?: {
      name?: string;
      group?: string;
      kind?: string;
      causes?: { reason: string; message: string; field: string }[];
    },
  ) {
    super(message);
  }
}

/** The `Status` body of a failure. */
export function statusBody(code: number, message: string, details?: KubeError['details']) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: REASONS[code] ?? (code >= 500 ? 'InternalError' : 'BadRequest'),
    ...(details ? { details } : {}),
    code,
  };
}

/** `canaries.canaries.flanksource.com "x" not found`, as the Kubernetes API words it. */
export const notFound = (kind: KubeKind, name: string) =>
  new KubeError(404, `${kind.plural}.${kind.group} "${name}" not found`, {
    name,
    group: kind.group,
    kind: kind.plural,
  });

/** The Kubernetes object of a document row. `resourceVersion` changes with every update. */
export function toObject(kind: KubeKind, row: DocumentRow) {
  return {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    metadata: {
      name: row.name,
      namespace: row.namespace ?? 'default',
      uid: row.id,
      resourceVersion: String(row.updated_at.getTime()),
      creationTimestamp: row.created_at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      ...(row.labels && Object.keys(row.labels).length > 0 ? { labels: row.labels } : {}),
      ...(row.source ? { annotations: { 'lookout.flanksource.com/source': row.source } } : {}),
    },
    spec: row.spec ?? {},
  };
}

/** A `<Kind>List` of objects. */
export const toList = (kind: KubeKind, items: unknown[]) => ({
  apiVersion: apiVersionOf(kind),
  kind: `${kind.kind}List`,
  metadata: { resourceVersion: '' },
  items,
});

/** Age as kubectl prints it (`5s`, `3m`, `2h`, `4d`). */
export function age(from: Date, now = new Date()): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - from.getTime()) / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** True when the client asked for a server-side `Table` (`Accept: application/json;as=Table;...`). */
export const wantsTable = (accept: string | undefined) => /;\s*as=Table/.test(accept ?? '');

/** The `Table` kubectl get prints: NAME, AGE (and NAMESPACE itself with -A). */
export function toTable(kind: KubeKind, rows: DocumentRow[], accept: string) {
  const version = /as=Table;\s*v=(v1beta1|v1);/.exec(accept)?.[1] ?? 'v1';
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: { resourceVersion: '' },
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name of the document', priority: 0 },
      { name: 'Age', type: 'string', format: '', description: 'Since its creation', priority: 0 },
    ],
    rows: rows.map((row) => ({
      cells: [row.name, age(row.created_at)],
      object: {
        kind: 'PartialObjectMetadata',
        apiVersion: `meta.k8s.io/${version}`,
        metadata: toObject(kind, row).metadata,
      },
    })),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 7386 JSON merge patch: objects merge, null removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/**
 * The document an applier takes from a request body: apiVersion and kind must be the route's,
 * metadata.name (when the path names one) must match it, and the namespace is the path's.
 */
export function documentFor(
  kind: KubeKind,
  body: unknown,
  where: { namespace: string; name?: string },
): Record<string, unknown> {
  if (!isObject(body)) throw new KubeError(400, 'the body is not an object');
  const apiVersion = body.apiVersion ?? `${kind.group}/${kind.version}`;
  if (apiVersion !== `${kind.group}/${kind.version}` || (body.kind ?? kind.kind) !== kind.kind) {
    throw new KubeError(
      400,
      `the body is ${String(body.apiVersion)}, kind ${String(body.kind)}; this path takes ${kind.group}/${kind.version}, kind ${kind.kind}`,
    );
  }
  const metadata = isObject(body.metadata) ? body.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : where.name;
  if (!name) throw new KubeError(422, `${kind.kind} is invalid: metadata.name: Required value`);
  if (where.name && name !== where.name) {
    throw new KubeError(400, `the name of the object (${name}) does not match the name on the URL (${where.name})`);
  }
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : where.namespace;
  if (namespace !== where.namespace) {
    throw new KubeError(
      400,
      `the namespace of the provided object (${namespace}) does not match the namespace sent on the request (${where.namespace})`,
    );
  }
  return {
    apiVersion: `${kind.group}/${kind.version}`,
    kind: kind.kind,
    metadata: { name, namespace, ...(isObject(metadata.labels) ? { labels: metadata.labels } : {}) },
    spec: isObject(body.spec) ? body.spec : {},
  };
}

/** Fields a list may be filtered on (`--field-selector`, and kubectl's own wait after delete). */
const LIST_FIELDS: Record<string, string> = { 'metadata.name': 't.name', 'metadata.namespace': 't.namespace' };

/**
 * The SQL of a list's namespace and `fieldSelector` (`a=b`, `a==b`, `a!=b`, comma-separated;
 * `metadata.name` and `metadata.namespace` only, as for custom resources).
 */
export function listFilter(
  fieldSelector: string | undefined,
  namespace: string | undefined,
  labels?: { selector: string | undefined; sql: string },
) {
  const clauses: string[] = [];
  const params: string[] = [];
  // `-l`: key=value, key==value, key!=value, key, !key over the kind's labels.
  for (const part of (labels?.selector ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = /^(!)?([A-Za-z0-9._/-]+)(?:\s*(==|=|!=)\s*([A-Za-z0-9._-]*))?$/.exec(part);
    if (!match || (match[1] && match[3])) {
      throw new KubeError(400, `unable to parse requirement: ${part} (use key=value, key!=value, key or !key)`);
    }
    params.push(match[2]!);
    const value = `(${labels!.sql})->>$${params.length}`;
    if (!match[3]) clauses.push(`${value} IS ${match[1] ? '' : 'NOT '}NULL`);
    else {
      params.push(match[4]!);
      clauses.push(match[3] === '!=' ? `${value} IS DISTINCT FROM $${params.length}` : `${value} = $${params.length}`);
    }
  }
  if (namespace) {
    params.push(namespace);
    clauses.push(`t.namespace = $${params.length}`);
  }
  for (const part of (fieldSelector ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = /^([^=!]+)(==|=|!=)(.*)$/.exec(part);
    const column = match ? LIST_FIELDS[match[1]!.trim()] : undefined;
    if (!match || !column) {
      throw new KubeError(
        400,
        `field label not supported: ${match?.[1] ?? part} (use metadata.name or metadata.namespace)`,
      );
    }
    params.push(match[3]!.trim());
    clauses.push(`${column} ${match[2] === '!=' ? '<>' : '='} $${params.length}`);
  }
  return { sql: clauses.map((clause) => ` AND ${clause}`).join(''), params };
}
