import {
  CANARY_API_VERSION,
  CANARY_KIND,
  JSON_BODY_MAX_DEPTH,
  SELF_CANARY_NAME,
  SELF_CANARY_NAMESPACE,
  SYSTEM_SOURCE,
  type CanaryCheckEntry,
  type CanaryDocument,
  type CanaryValidationError,
} from '@lookout/contracts';
import { jsonNestingExceeds } from '@lookout/pgrest';
import { validateCanaryDocument } from './health-canary-rules-fns.js';

/**
 * Pure helpers around canary documents: validating rows written through /api/db and the self
 * canary's document (YAML is read by health-yaml-fns.ts).
 */

/** A problem found in a canary row, with the row's column (or spec field) it concerns. */
export type CanaryRowError = CanaryValidationError;

/** Columns of `canaries` that carry the document's parts. */
const DOCUMENT_COLUMNS = ['name', 'namespace', 'labels', 'annotations', 'spec'] as const;

/** A name that passes metadata.name, for validating a PATCH that does not change the name. */
const PLACEHOLDER_NAME = 'placeholder';

/** `metadata.name` → `name`, `metadata.labels.x` → `labels.x`: errors name the row's columns. */
function toColumnPath(error: CanaryValidationError, prefix: string): CanaryRowError {
  const path = error.path.startsWith('metadata.') ? error.path.slice('metadata.'.length) : error.path;
  const shown = `${prefix}${path}`;
  return { path: shown, reason: error.reason, message: `${shown}: ${error.reason}` };
}

/**
 * Validates one `canaries` row as the data API would write it. `create` rows (POST, PUT) must
 * carry a name and a spec; `update` rows (PATCH) are checked for the columns they set only.
 * The spec column holds a canary's `spec` (not the whole document); name, namespace, labels
 * and annotations are its metadata. Returns every problem, each naming its column or field:
 * `spec.http[0].url: must be a URL`.
 */
export function validateCanaryRow(row: unknown, mode: 'create' | 'update', prefix = ''): CanaryRowError[] {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    const reason = 'must be an object with name, namespace, labels and spec';
    return [{ path: prefix || 'row', reason, message: `${prefix || 'row'}: ${reason}` }];
  }
  const values = row as Record<string, unknown>;
  const touches = DOCUMENT_COLUMNS.some((column) => Object.hasOwn(values, column));
  if (mode === 'update' && !touches) return [];

  const has = (column: string) => Object.hasOwn(values, column) && values[column] !== undefined;
  const errors: CanaryRowError[] = [];
  if (mode === 'create' && !has('spec')) errors.push(requiredError(`${prefix}spec`));
  if (mode === 'create' && !has('name')) errors.push(requiredError(`${prefix}name`));
  if (errors.length > 0) return errors;

  // Columns the row does not set are filled with values that pass, so only what it sets is judged.
  const metadata: Record<string, unknown> = { name: has('name') ? values.name : PLACEHOLDER_NAME };
  if (has('namespace') && values.namespace !== null) metadata.namespace = values.namespace;
  if (has('labels') && values.labels !== null) metadata.labels = values.labels;
  if (has('annotations') && values.annotations !== null) metadata.annotations = values.annotations;
  const spec = has('spec') ? values.spec : { exec: [{ name: PLACEHOLDER_NAME, script: 'true' }] };
  const parsed = validateCanaryDocument({ apiVersion: CANARY_API_VERSION, kind: CANARY_KIND, metadata, spec });
  return parsed.ok ? [] : parsed.errors.map((error) => toColumnPath(error, prefix));
}

function requiredError(path: string): CanaryRowError {
  return { path, reason: 'is required', message: `${path}: is required` };
}

/**
 * Validates the JSON body of a write to `/api/db/canaries` (one row or a list of rows).
 * Returns undefined when the body is not JSON, or nested past JSON_BODY_MAX_DEPTH: the data
 * API refuses those itself, in its own words.
 */
export function validateCanaryWriteBody(method: 'POST' | 'PUT' | 'PATCH', body: string): CanaryRowError[] | undefined {
  if (jsonNestingExceeds(body, JSON_BODY_MAX_DEPTH)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
  const mode = method === 'PATCH' ? 'update' : 'create';
  if (Array.isArray(parsed)) {
    return parsed.flatMap((row, index) => validateCanaryRow(row, mode, parsed.length > 1 ? `[${index}].` : ''));
  }
  return validateCanaryRow(parsed, mode);
}

/** Where the self canary looks: this server's health endpoint and its database. */
export type SelfCanaryTargets = {
  /** `http://127.0.0.1:8080/api/health` */
  healthUrl: string;
  /** `127.0.0.1:5432`, the PostgreSQL Lookout uses. */
  postgresEndpoint: string;
};

/** How often the self canary runs. */
export const SELF_CANARY_INTERVAL_SECONDS = 60;

/** The self canary's checks that describe the Lookout running them (see {@link forThisReplica}). */
export const SELF_API_CHECK_NAME = 'lookout-api-health';
export const SELF_DATABASE_CHECK_NAME = 'lookout-postgres';

/**
 * The `lookout-self` canary: Lookout's own /api/health over HTTP, its PostgreSQL port over TCP
 * and `localhost` through the system resolver, so a new installation shows live health.
 */
export function selfCanaryDocument(targets: SelfCanaryTargets): CanaryDocument {
  return {
    apiVersion: CANARY_API_VERSION,
    kind: CANARY_KIND,
    metadata: {
      name: SELF_CANARY_NAME,
      namespace: SELF_CANARY_NAMESPACE,
      labels: { app: 'lookout' },
    },
    spec: {
      interval: SELF_CANARY_INTERVAL_SECONDS,
      http: [
        {
          name: SELF_API_CHECK_NAME,
          description: 'Lookout answers /api/health with its database up (the replica running the check calls its own)',
          icon: 'http',
          url: targets.healthUrl,
          responseCodes: [200],
          thresholdMillis: 5000,
        },
      ],
      tcp: [
        {
          name: SELF_DATABASE_CHECK_NAME,
          description: 'The PostgreSQL database Lookout stores its data in accepts connections',
          icon: 'postgres',
          endpoint: targets.postgresEndpoint,
          thresholdMillis: 2000,
        },
      ],
      dns: [
        {
          name: 'localhost-dns',
          description: 'The system resolver answers for localhost',
          icon: 'dns',
          query: 'localhost',
          querytype: 'A',
          minrecords: 1,
          thresholdMillis: 2000,
        },
      ],
    },
  };
}

/**
 * The address this server answers on, for the self canary: a wildcard listen address (`0.0.0.0`,
 * `::`) is reached through loopback.
 */
export function selfHealthUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const hostPart = reachable.includes(':') ? `[${reachable}]` : reachable;
  return `http://${hostPart}:${port}/api/health`;
}

/** `host:port` of a PostgreSQL URL (default port 5432), for the self canary's tcp check. */
export function postgresEndpointOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (!parsed.hostname) return undefined;
    const host = parsed.hostname.startsWith('[')
      ? parsed.hostname
      : parsed.hostname.includes(':')
        ? `[${parsed.hostname}]`
        : parsed.hostname;
    return `${host}:${parsed.port || '5432'}`;
  } catch {
    return undefined;
  }
}

/** The canary a check belongs to, as far as {@link forThisReplica} needs to know it. */
export type CheckCanaryRef = { namespace: string; name: string; source: string };

/**
 * A check as this replica runs it. With several replicas on one database, the `lookout-self`
 * canary's spec names the address of whichever replica started last, and any replica may
 * claim its checks. So its API and database checks mean "the Lookout running this check":
 * the replica that runs one (scheduled or Run Now) calls its own /api/health and its own
 * database endpoint, and the canary stays healthy while any replica lives. Only the System
 * canary is treated so; a canary people write keeps the targets they wrote, whatever its names.
 */
export function forThisReplica(
  entry: CanaryCheckEntry,
  canary: CheckCanaryRef,
  self: SelfCanaryTargets | undefined,
): CanaryCheckEntry {
  if (!self || canary.source !== SYSTEM_SOURCE) return entry;
  if (canary.namespace !== SELF_CANARY_NAMESPACE || canary.name !== SELF_CANARY_NAME) return entry;
  if (entry.type === 'http' && entry.check.name === SELF_API_CHECK_NAME) {
    return { type: 'http', check: { ...entry.check, url: self.healthUrl } };
  }
  if (entry.type === 'tcp' && entry.check.name === SELF_DATABASE_CHECK_NAME) {
    return { type: 'tcp', check: { ...entry.check, endpoint: self.postgresEndpoint } };
  }
  return entry;
}

/**
 * Where this server's `lookout-self` checks look: its own /api/health (a wildcard listen
 * address through loopback) and the host and port of the PostgreSQL it uses. Undefined when
 * the database URL names no host (a Unix socket), which the tcp check cannot reach.
 */
export function selfCanaryTargets(input: {
  host: string;
  port: number;
  databaseUrl: string;
}): SelfCanaryTargets | undefined {
  const postgresEndpoint = postgresEndpointOf(input.databaseUrl);
  return postgresEndpoint ? { healthUrl: selfHealthUrl(input.host, input.port), postgresEndpoint } : undefined;
}
