import {
  can,
  dataApiResource,
  EDITABLE_SOURCE,
  JSON_BODY_MAX_DEPTH,
  READ_ONLY_RELATIONS,
  readOnlyRelationMessage,
  RESOURCES,
  SECRET_BEARING_COLUMNS,
  SOURCE_GUARDED_RELATIONS,
  sourceGuardMessage,
  type DataApiRelation,
  type Role,
} from '@lookout/contracts';
import {
  createPgrest,
  parseQueryParams,
  parseRoute,
  requestBodyText,
  type PgrestEngine,
  type PgrestOptions,
  type PgrestRequest,
  type PgrestResponse,
  type Route,
} from '@lookout/pgrest';
import type pg from 'pg';
import type { Logger } from 'pino';

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
const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const readOnly = new Set<string>(READ_ONLY_RELATIONS);

/**
 * The PostgREST-compatible data API over Lookout's allow-listed relations. Every relation a
 * request touches, embedded ones included, must be on the allow-list (else 404, as if it did
 * not exist) and readable or writable by the caller's roles (else 403). Rows owned by another
 * source than the UI cannot be changed.
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
      return { allowed: true };
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
  const getEngine = (): Promise<PgrestEngine> => {
    // A JSON body is bounded as on every other route (one constant, one documented limit).
    engine ??= createPgrest({ ...options, limits: { maxBodyDepth: JSON_BODY_MAX_DEPTH } }).catch((error: unknown) => {
      engine = undefined;
      throw error;
    });
    return engine;
  };

  return {
    handle: async (request, roles) => {
      let ready: PgrestEngine;
      try {
        ready = await getEngine();
      } catch (error) {
        logger.error({ err: error }, 'The data API could not read the database schema');
        return unavailable();
      }
      // The path is read exactly as the engine will read it (percent-decoding, leading and
      // trailing slash), so no spelling of a name can pass these rules as another relation.
      const route = routeOf(request.path);
      // A target off the allow-list answers one fixed 404 before the engine sees it, whether
      // it exists or not: the engine's own lookup would suggest close names ("Perhaps you
      // meant the table 'public.identity_credentials'") or describe a function's parameters.
      if (route?.kind === 'relation' && !dataApiResource(route.name)) {
        return pgrstError(404, 'PGRST205', unlistedMessage('relation', route.name));
      }
      if (route?.kind === 'rpc' && !dataApiResource(`rpc/${route.name}`)) {
        return pgrstError(404, 'PGRST202', unlistedMessage('function', route.name));
      }
      // access: a read-only relation refuses writes before any SQL: 403 to callers who may
      // not write its resource at all, 405 to those who may (the change has another path).
      const relation = route?.kind === 'relation' ? route.name : '';
      const isWrite = WRITE_METHODS.has(request.method);
      if (isWrite && readOnly.has(relation)) {
        const resource = dataApiResource(relation)!;
        return can(roles, resource, 'write')
          ? pgrstError(405, 'PGRST117', readOnlyRelationMessage(relation))
          : pgrstError(
              403,
              '42501',
              `Your roles (${roles.join(', ')}) do not allow write on ${resource}, which guards ${relation}.`,
            );
      }
      if (isWrite && relation === 'people' && can(roles, 'database', 'write')) {
        const refused = personRemovalRefusal(request);
        if (refused) return refused;
      }
      const response = await ready.handle(request, {
        claims: {
          [ROLES_CLAIM]: [...roles],
          [WRITES_CLAIM]: RESOURCES.filter((resource) => can(roles, resource, 'write')),
          ...(localPropertyNames ? { [LOCAL_PROPERTIES_CLAIM]: [...localPropertyNames()] } : {}),
        },
      });
      if (isWrite && response.status < 400) onRelationWritten?.(relation);
      if (isWrite && response.status === 500) return readOnlyViewAnswer(response, relation);
      return response.status === 300 || response.status === 400 ? hideUnlistedEmbeds(response) : response;
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
 * masks them unless {@link WRITES_CLAIM} names the relation's resource.
 */
const secretColumnReaders: NonNullable<PgrestOptions['readThrough']> = (relation) => {
  const columns =
    relation.schema === 'public' && Object.hasOwn(SECRET_BEARING_COLUMNS, relation.name)
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
 * Removing a person, by DELETE or by setting `people.deleted_at`, reaches further than the
 * people row: `role_assignments` and `team_members` rows go with it (ON DELETE CASCADE, and
 * migration 5's trigger drops a soft-deleted person's roles). That is a change to roles
 * (RBAC `rbac`, and the last-admin rule) and to memberships another source owns, which
 * write on `database` does not grant, so it is refused here (405, as for the read-only
 * relations) and left to `DELETE /api/people/{id}`. Only JSON bodies are accepted for
 * people, so the columns a write names can be read here as the engine will read them.
 */
function personRemovalRefusal(request: PgrestRequest): PgrestResponse | undefined {
  const removal = pgrstError(
    405,
    'PGRST117',
    'people rows cannot be removed here (their roles and team memberships would go with them); use DELETE /api/people/{id}.',
  );
  if (request.method === 'DELETE') return removal;
  const contentType = (request.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    return pgrstError(
      415,
      'PGRST107',
      'people accept JSON bodies only, so that the columns a write sets can be checked.',
    );
  }
  const columns = new Set<string>();
  try {
    for (const column of parseQueryParams(request.query).columns ?? []) columns.add(column);
  } catch {
    return undefined; // the engine answers the bad query string (400) before any SQL
  }
  let body: unknown;
  try {
    body = JSON.parse(requestBodyText(request.body ?? '') ?? '');
  } catch {
    return undefined; // the engine answers the bad body (PGRST102) before any SQL
  }
  for (const row of Array.isArray(body) ? body : [body]) {
    if (typeof row === 'object' && row !== null) for (const key of Object.keys(row)) columns.add(key);
  }
  return columns.has('deleted_at') ? removal : undefined;
}

/**
 * PGRST200 and PGRST201 describe the relationships the engine knows, hidden tables included:
 * a close-name hint ("Perhaps you meant 'identity_credentials' …") or the candidates of an
 * ambiguous embed (`people?select=role_assignments(role)` lists role_assignments' foreign
 * keys). A hint naming a relation off the allow-list is dropped; an ambiguity involving one
 * answers the 404 an embed of that relation gets once resolved (PGRST205).
 */
function hideUnlistedEmbeds(response: PgrestResponse): PgrestResponse {
  let body: { code?: unknown; hint?: unknown; details?: unknown };
  try {
    body = JSON.parse(response.body) as typeof body;
  } catch {
    return response;
  }
  if (body.code === 'PGRST200' && typeof body.hint === 'string') {
    const suggested = /^Perhaps you meant '([^']*)' instead of/.exec(body.hint)?.[1];
    if (suggested !== undefined && !dataApiResource(suggested)) {
      return { ...response, body: JSON.stringify({ ...body, hint: null }) };
    }
    return response;
  }
  if (body.code !== 'PGRST201' || !Array.isArray(body.details)) return response;
  for (const detail of body.details as unknown[]) {
    const hidden = relationshipTables(detail).find((table) => !dataApiResource(table));
    if (hidden !== undefined) return pgrstError(404, 'PGRST205', unlistedMessage('relation', hidden));
  }
  return response;
}

/**
 * The tables a PGRST201 candidate names: `fk using a(x) and b(y)` names tables a and b; a
 * many-to-many `junction using fk1(x) and fk2(y)` names its junction table, and its
 * `embedding` ("a with b") the two tables it joins.
 */
function relationshipTables(detail: unknown): string[] {
  if (typeof detail !== 'object' || detail === null) return [];
  const { cardinality, relationship, embedding } = detail as {
    cardinality?: unknown;
    relationship?: unknown;
    embedding?: unknown;
  };
  // `embedding` is "origin with target": the target may be hidden even when the junction is not.
  const embedded = typeof embedding === 'string' ? embedding.split(' with ') : [];
  if (typeof relationship !== 'string') return embedded;
  const [head = '', using = ''] = relationship.split(' using ');
  if (cardinality === 'many-to-many') return [head, ...embedded];
  return [...using.matchAll(/(?:^|and )([^\s(]+)\(/g)].map((match) => match[1] ?? '');
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

/** A PostgREST-style error response. */
function pgrstError(status: number, code: string, message: string): PgrestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ code, message, details: null, hint: null }),
  };
}

/** PostgREST answers 503 with PGRST001/002 when it cannot reach the database or its schema. */
function unavailable(): PgrestResponse {
  return {
    status: 503,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      code: 'PGRST002',
      message: 'Could not query the database for the schema cache. Retrying.',
      details: null,
      hint: null,
    }),
  };
}

function readRoles(claims: Record<string, unknown> | undefined): Role[] {
  const value = claims?.[ROLES_CLAIM];
  // No roles travelled with the request: grant nothing beyond a viewer.
  return Array.isArray(value) ? (value.filter((role) => typeof role === 'string') as Role[]) : [];
}
