import {
  can,
  dataApiResource,
  EDITABLE_SOURCE,
  READ_ONLY_RELATIONS,
  readOnlyRelationMessage,
  SOURCE_GUARDED_RELATIONS,
  sourceGuardMessage,
  type Role,
} from '@lookout/contracts';
import {
  createPgrest,
  type PgrestEngine,
  type PgrestOptions,
  type PgrestRequest,
  type PgrestResponse,
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
        const kind = access.kind === 'function' ? 'function' : 'table';
        return {
          allowed: false,
          status: 404,
          message: `Could not find the ${kind} 'public.${access.relation}' in the schema cache`,
        };
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
  };

  // The engine reads the schema on creation. Creating it on first use (and again after a
  // failure) keeps start-up and /api/health working while the database is briefly away.
  let engine: Promise<PgrestEngine> | undefined;
  const getEngine = (): Promise<PgrestEngine> => {
    engine ??= createPgrest(options).catch((error: unknown) => {
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
      // access: a read-only relation refuses writes before any SQL: 403 to callers who may
      // not write its resource at all, 405 to those who may (the change has another path).
      const relation = request.path.split('/')[0] ?? '';
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
      const response = await ready.handle(request, {
        claims: {
          [ROLES_CLAIM]: [...roles],
          ...(localPropertyNames ? { [LOCAL_PROPERTIES_CLAIM]: [...localPropertyNames()] } : {}),
        },
      });
      if (isWrite && response.status < 400) onRelationWritten?.(relation);
      return isWrite && response.status === 500 ? readOnlyViewAnswer(response, relation) : response;
    },
    reloadSchema: async () => (await getEngine()).reloadSchema(),
    close: async () => {
      if (engine) await (await engine.catch(() => undefined))?.close();
    },
  };
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
