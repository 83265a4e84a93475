import {
  can,
  dataApiResource,
  EDITABLE_SOURCE,
  JSON_BODY_MAX_DEPTH,
  READ_ONLY_RELATIONS,
  readOnlyRelationMessage,
  RESOURCES,
  SEALED_COLUMN_READERS,
  SECRET_BEARING_COLUMNS,
  SOURCE_GUARDED_RELATIONS,
  sourceGuardMessage,
  type DataApiRelation,
  type Role,
} from '@lookout/contracts';
import {
  createPgrest,
  parseRoute,
  type PgrestAccess,
  type PgrestEngine,
  type PgrestOptions,
  type PgrestRequest,
  type PgrestResponse,
  type PgrestVerdict,
  type Route,
} from '@lookout/pgrest';
import type pg from 'pg';
import type { Logger } from 'pino';
import { isDataApiWrite } from '../../http/data-api-write-guard.js';

export type DataApiServiceDeps = {
  pool: pg.Pool;
  logger: Logger;
  // access
  /**
   * Names of the properties set in the server configuration (source local). They travel in
   * the request claims, where the properties trigger of migration 5 refuses to create or
   * change a database property of such a name.
   */
  localPropertyNames?: () => readonly string[];
  /** Called after a write to a relation succeeded (feature flags refresh on `properties`). */
  onRelationWritten?: (relation: string) => void;
  // end access
};

export type DataApiService = {
  handle: (request: PgrestRequest, roles: readonly Role[]) => Promise<PgrestResponse>;
  reloadSchema: () => Promise<void>;
  close: () => Promise<void>;
};

/** Claims key under which the caller's roles travel to the authorize hook. */
const ROLES_CLAIM = 'lookout_roles';
/** Claims key the properties trigger reads the local property names from (migration 5). */
const LOCAL_PROPERTIES_CLAIM = 'lookout_local_properties';
/**
 * Claims key holding the RBAC resources the caller may write; `lookout_caller_may_write` (migration
 * 10) reads it, so SQL can show credentials to those who edit them and mask them for the rest.
 */
export const WRITES_CLAIM = 'lookout_writes';
const readOnly = new Set<string>(READ_ONLY_RELATIONS);
/** Distinct role sets whose claims are kept (see claimsFor). */
const MAX_CACHED_CLAIMS = 256;

/**
 * The PostgREST-compatible data API over Lookout's allow-listed relations. The engine asks its
 * `authorize` hook about every relation a request names or touches, embedded ones and
 * embedding candidates included: one off the allow-list is hidden (404), so the engine treats
 * it as missing everywhere (lookups, embeds, hints); one the caller's roles may not read or
 * write is forbidden (403); writes to read-only relations and removals of people are refused
 * (405). Rows owned by another source than the UI cannot be changed.
 */
export async function createDataApiService({
  pool,
  logger,
  localPropertyNames,
  onRelationWritten,
}: DataApiServiceDeps): Promise<DataApiService> {
  const guarded = new Set<string>(SOURCE_GUARDED_RELATIONS);
  const options: PgrestOptions = {
    pool,
    schemas: ['public'],
    maxRows: 10_000,
    statementTimeoutMs: 30_000,
    authorize: (access, caller) => {
      const lookupName = access.kind === 'function' ? `rpc/${access.relation}` : access.relation;
      const resource = dataApiResource(lookupName);
      // Off the list: hidden, so the engine answers as for a name that does not exist.
      if (!resource) {
        return { allowed: false, status: 404, message: unlistedMessage(access.kind, access.relation) };
      }
      const roles = readRoles(caller.claims);
      if (!can(roles, resource, access.action)) {
        return {
          allowed: false,
          status: 403,
          message: `Your roles (${roles.join(', ')}) do not allow ${access.action} on ${resource}, which guards ${lookupName}.`,
        };
      }
      return writeRefusal(access) ?? { allowed: true };
    },
    rowGuard: (relation) =>
      guarded.has(relation)
        ? { column: 'source', allowed: EDITABLE_SOURCE, message: (value) => sourceGuardMessage(relation, value) }
        : undefined,
    readThrough: secretColumnReaders,
  };

  // The engine reads the schema on creation. Creating it on first use (and again after a
  // failure) keeps start-up and /api/health working while the database is briefly away.
  let engine: Promise<PgrestEngine> | undefined;
  /** The engine once created: requests then use it without waiting on a promise. */
  let created: PgrestEngine | undefined;
  const getEngine = (): Promise<PgrestEngine> => {
    // A JSON body is bounded as on every other route (one constant, one documented limit).
    engine ??= createPgrest({ ...options, limits: { maxBodyDepth: JSON_BODY_MAX_DEPTH } }).then(
      (ready) => (created = ready),
      (error: unknown) => {
        engine = undefined;
        throw error;
      },
    );
    return engine;
  };

  // The claims follow from the roles and the local property names alone, and a caller has one
  // of a few role sets: each set's claims are worked out once. They are frozen, so nothing can
  // change them between requests, and the engine then serializes them once too.
  const claimsByKey = new Map<string, Readonly<Record<string, unknown>>>();
  const claimsFor = (roles: readonly Role[]): Readonly<Record<string, unknown>> => {
    const localNames = localPropertyNames?.();
    const key = `${roles.join(',')}\u0000${localNames?.join('\u0000') ?? ''}`;
    let claims = claimsByKey.get(key);
    if (!claims) {
      claims = Object.freeze({
        [ROLES_CLAIM]: Object.freeze([...roles]),
        [WRITES_CLAIM]: Object.freeze(RESOURCES.filter((resource) => can(roles, resource, 'write'))),
        ...(localNames ? { [LOCAL_PROPERTIES_CLAIM]: Object.freeze([...localNames]) } : {}),
      });
      // Role sets are subsets of a handful of roles; the bound only guards against surprises.
      if (claimsByKey.size >= MAX_CACHED_CLAIMS) claimsByKey.clear();
      claimsByKey.set(key, claims);
    }
    return claims;
  };

  /** The engine's answer, once it exists (the first requests wait for it). */
  const answer = async (request: PgrestRequest, roles: readonly Role[]): Promise<PgrestResponse> => {
    let ready: PgrestEngine;
    try {
      ready = await getEngine();
    } catch (error) {
      logger.error({ err: error }, 'The data API could not read the database schema');
      return unavailable();
    }
    return ready.handle(request, { claims: claimsFor(roles) });
  };
  /** A write's answer, after telling who needs to know which relation was written. */
  const written = async (answered: Promise<PgrestResponse>, path: string): Promise<PgrestResponse> => {
    const response = await answered;
    // The path is read exactly as the engine reads it, to tell which relation was written.
    const route = routeOf(path);
    const relation = route?.kind === 'relation' ? route.name : '';
    if (response.status < 400) onRelationWritten?.(relation);
    if (response.status === 500) return readOnlyViewAnswer(response, relation);
    return response;
  };

  return {
    // Not an async function: a read hands back the engine's own promise (one wrapped in another
    // costs each request extra turns of the microtask queue).
    handle: (request, roles) => {
      const answered = created ? created.handle(request, { claims: claimsFor(roles) }) : answer(request, roles);
      return isDataApiWrite(request.method) ? written(answered, request.path) : answered;
    },
    reloadSchema: async () => (await getEngine()).reloadSchema(),
    close: async () => {
      if (engine) await (await engine.catch(() => undefined))?.close();
    },
  };
}

/**
 * The engine's `readThrough` hook: the columns that can hold credentials
 * (SECRET_BEARING_COLUMNS) are read through `lookout_<resource>_secrets` (migration 10), which
 * masks them unless {@link WRITES_CLAIM} names the relation's resource; sealed credentials
 * (SEALED_COLUMN_READERS) through their own reader, which masks them for everyone.
 */
const secretColumnReaders: NonNullable<PgrestOptions['readThrough']> = (relation) => {
  if (relation.schema !== 'public') return undefined;
  // Sealed credentials (connections): one reader per column, the same for every caller.
  const sealed = Object.hasOwn(SEALED_COLUMN_READERS, relation.name)
    ? SEALED_COLUMN_READERS[relation.name as DataApiRelation]
    : undefined;
  if (sealed) {
    return Object.fromEntries(Object.entries(sealed).map(([column, name]) => [column, { schema: 'public', name }]));
  }
  const columns = Object.hasOwn(SECRET_BEARING_COLUMNS, relation.name)
    ? SECRET_BEARING_COLUMNS[relation.name as DataApiRelation]
    : undefined;
  const resource = dataApiResource(relation.name);
  if (!columns || !resource) return undefined;
  const reader = { schema: 'public', name: `lookout_${resource}_secrets` };
  return Object.fromEntries(columns.map((column) => [column, reader]));
};

/** The 404 message for a name off the allow-list, the one PostgREST gives a missing table. */
function unlistedMessage(kind: 'relation' | 'function', name: string): string {
  return `Could not find the ${kind === 'function' ? 'function' : 'table'} 'public.${name}' in the schema cache`;
}

/** The engine's reading of a path; undefined for one it refuses (it answers that itself). */
function routeOf(path: string): Route | undefined {
  try {
    return parseRoute(path);
  } catch {
    return undefined;
  }
}

/**
 * Writes the allow-list and RBAC let through that the data API still refuses (405, saying
 * where the change is made), judged by the engine's reading of the write:
 *
 * - read-only relations (READ_ONLY_RELATIONS) are changed elsewhere;
 * - removing a person, by DELETE or by writing `people.deleted_at` (whatever the body's format
 *   or spelling: the engine hands over the columns it parsed), reaches further than the
 *   people row: `role_assignments` and `team_members` rows go with it (ON DELETE CASCADE, and
 *   migration 5's trigger drops a soft-deleted person's roles). That is a change to roles
 *   (RBAC `rbac`, and the last-admin rule) and to memberships another source owns, which write
 *   on `database` does not grant; `DELETE /api/people/{id}` does it.
 */
function writeRefusal(access: PgrestAccess): PgrestVerdict | undefined {
  if (access.action !== 'write' || access.embedded || access.kind !== 'relation') return undefined;
  if (readOnly.has(access.relation)) {
    return { allowed: false, status: 405, message: readOnlyRelationMessage(access.relation) };
  }
  if (access.relation === 'people' && (access.method === 'DELETE' || access.columns?.includes('deleted_at'))) {
    return {
      allowed: false,
      status: 405,
      message:
        'people rows cannot be removed here (their roles and team memberships would go with them); use DELETE /api/people/{id}.',
    };
  }
  return undefined;
}

/**
 * A write to a view PostgreSQL cannot update (aggregates, DISTINCT, joins) fails with
 * SQLSTATE 55000, which PostgREST's table maps to 500. It is the caller's request that cannot
 * be served, not a server fault: answer 405 saying the relation is read-only. The failed
 * statement has already been rolled back with its transaction.
 */
function readOnlyViewAnswer(response: PgrestResponse, relation: string): PgrestResponse {
  let body: { code?: unknown; message?: unknown };
  try {
    body = JSON.parse(response.body) as typeof body;
  } catch {
    return response;
  }
  const message = typeof body.message === 'string' ? body.message : '';
  if (body.code !== '55000' || !/^cannot (insert into|update|delete from) view /.test(message)) return response;
  return pgrstError(405, 'PGRST117', `${relation} is a read-only view; it cannot be written through the data API.`);
}

/** A PostgREST-style error response, named in `Proxy-Status` as the engine's are. */
function pgrstError(status: number, code: string, message: string): PgrestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'proxy-status': `PostgREST; error=${code}` },
    body: JSON.stringify({ code, message, details: null, hint: null }),
  };
}

/** PostgREST answers 503 with PGRST001/002 when it cannot reach the database or its schema. */
function unavailable(): PgrestResponse {
  return {
    status: 503,
    headers: { 'content-type': 'application/json; charset=utf-8', 'proxy-status': 'PostgREST; error=PGRST002' },
    body: JSON.stringify({
      code: 'PGRST002',
      message: 'Could not query the database for the schema cache. Retrying.',
      details: null,
      hint: null,
    }),
  };
}

/** The roles read from each frozen claims object (claimsFor's), which cannot change. */
const rolesOfClaims = new WeakMap<object, readonly Role[]>();

function readRoles(claims: Record<string, unknown> | undefined): readonly Role[] {
  if (claims === undefined) return [];
  const known = rolesOfClaims.get(claims);
  if (known) return known;
  const value = claims[ROLES_CLAIM];
  // No roles travelled with the request: grant nothing beyond a viewer.
  const roles = Array.isArray(value) ? (value.filter((role) => typeof role === 'string') as Role[]) : [];
  if (Object.isFrozen(claims) && Object.isFrozen(value)) rolesOfClaims.set(claims, roles);
  return roles;
}
