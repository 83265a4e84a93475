import { can, effectiveRoles, type Action, type Role } from '@lookout/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { parse as parseYaml } from 'yaml';
import type { DocumentApplier } from '../../cli/document-applier.js';
import {
  KubeError,
  documentFor,
  listFilter,
  mergePatch,
  notFound,
  statusBody,
  toList,
  toObject,
  toTable,
  wantsTable,
} from './kube-fns.js';
import { apiVersionOf, type DocumentRow, type KubeKind } from './kube-kinds.js';
import { openApiV2Json, openApiV2Protobuf } from './kube-openapi.js';

export type KubeApiOptions = {
  pool: pg.Pool;
  version: string;
  /** The kinds served, each with the applier that validates and writes its documents. */
  kinds: { kind: KubeKind; applier: DocumentApplier }[];
  /** The person a bearer token stands for, or null. */
  personOfToken: (token: string) => Promise<string | null>;
  rolesOfPerson: (personId: string) => Promise<readonly Role[]>;
};

// access: every route below is implicit (route-access-fns.ts, 'kubernetes-api'): it is reached
// with a kubeconfig token, not a session; the plugin's own preHandler answers 401 without a
// valid token and each handler checks the token's roles against the kind's resource (403 as
// a Kubernetes Status).
const config = {};
const hide = { hide: true };

/** Rows are written by these sources only through their files; kubectl leaves them alone. */
const READ_ONLY_SOURCES = new Set(['ConfigFile', 'System', 'KubernetesCRD', 'Push']);

type Caller = { personId: string; roles: readonly Role[] };
const callers = new WeakMap<FastifyRequest, Caller>();

/**
 * The subset of the Kubernetes API kubectl needs for Lookout's documents (docs/kubeconfig.md,
 * ADR 0034): discovery, a minimal OpenAPI, and list/get/create/update/patch/delete of each
 * kind, answering errors as `Status` objects. Mounted at /api/kubernetes.
 */
export async function kubeApiRoutes(app: FastifyInstance, options: KubeApiOptions): Promise<void> {
  const { pool } = options;
  const byPath = new Map(
    options.kinds.map((entry) => [`${entry.kind.group}/${entry.kind.version}/${entry.kind.plural}`, entry]),
  );
  const groups = new Map<string, KubeKind[]>();
  for (const { kind } of options.kinds) {
    const key = apiVersionOf(kind);
    groups.set(key, [...(groups.get(key) ?? []), kind]);
  }

  for (const type of [
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/json-patch+json',
  ]) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(String(body)));
      } catch {
        done(new KubeError(400, 'the body is not valid JSON'), undefined);
      }
    });
  }
  app.addContentTypeParser('application/apply-patch+yaml', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseYaml(String(body)));
    } catch {
      done(new KubeError(400, 'the body is not valid YAML'), undefined);
    }
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof KubeError)
      return reply.status(error.code).send(statusBody(error.code, error.message, error.details));
    const code = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    if (code === 500) request.log.error({ err: error }, 'Kubernetes API request failed');
    return reply.status(code).send(statusBody(code, code === 500 ? 'Internal error' : error.message));
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(
        statusBody(
          404,
          `the server could not find the requested resource (${request.method} ${request.url.split('?')[0]})`,
        ),
      ),
  );

  app.addHook('preHandler', async (request) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const personId = token ? await options.personOfToken(token) : null;
    if (!personId) throw new KubeError(401, 'Unauthorized: send the token of a kubeconfig from GET /api/kubeconfig');
    callers.set(request, { personId, roles: effectiveRoles(await options.rolesOfPerson(personId)) });
  });

  const authorize = (request: FastifyRequest, kind: KubeKind, action: Action, verb: string, name?: string) => {
    const caller = callers.get(request)!;
    if (!can(caller.roles, kind.permission, action)) {
      throw new KubeError(
        403,
        `${kind.plural}.${kind.group}${name ? ` "${name}"` : ''} is forbidden: your roles (${caller.roles.join(', ')}) do not allow ${verb} (${action} on ${kind.permission})`,
        { ...(name ? { name } : {}), group: kind.group, kind: kind.plural },
      );
    }
  };

  const entryOf = (params: { group: string; version: string; plural: string }) => {
    const entry = byPath.get(`${params.group}/${params.version}/${params.plural}`);
    if (!entry)
      throw new KubeError(404, `the server could not find the requested resource (${params.plural}.${params.group})`);
    return entry;
  };

  const selectSql = (kind: KubeKind) =>
    `SELECT t.id::text AS id, t.name, t.namespace, ${kind.labelsSql} AS labels, t.source::text AS source,
            t.created_at, t.updated_at, ${kind.specSql} AS spec
       FROM ${kind.table} t WHERE t.deleted_at IS NULL`;

  const findOne = async (kind: KubeKind, namespace: string, name: string) => {
    const { rows } = await pool.query<DocumentRow>(`${selectSql(kind)} AND t.namespace = $1 AND t.name = $2 LIMIT 1`, [
      namespace,
      name,
    ]);
    return rows[0];
  };

  const write = async (entry: { kind: KubeKind; applier: DocumentApplier }, document: Record<string, unknown>) => {
    const metadata = document.metadata as { name: string; namespace: string };
    try {
      await entry.applier.apply(document, 'UI');
    } catch (error) {
      // kubectl prints an Invalid Status from its causes: `The Canary "web" is invalid: spec: ...`.
      const message = error instanceof Error ? error.message : String(error);
      throw new KubeError(422, `${entry.kind.kind}.${entry.kind.group} "${metadata.name}" is invalid: ${message}`, {
        name: metadata.name,
        group: entry.kind.group,
        kind: entry.kind.kind,
        causes: [{ reason: 'FieldValueInvalid', message, field: 'spec' }],
      });
    }
    return toObject(entry.kind, (await findOne(entry.kind, metadata.namespace, metadata.name))!);
  };

  const refuseReadOnly = (kind: KubeKind, row: DocumentRow) => {
    if (row.source && READ_ONLY_SOURCES.has(row.source)) {
      throw new KubeError(
        409,
        `${kind.plural}.${kind.group} "${row.name}" comes from ${row.source} and is changed there, not through kubectl`,
        { name: row.name, group: kind.group, kind: kind.plural },
      );
    }
  };

  // Discovery (what kubectl reads to map `canaries` to a group, version and path).
  app.get('/version', { config, schema: hide }, async () => ({
    major: '1',
    minor: '20',
    gitVersion: `v1.20.0+lookout-${options.version}`,
    platform: 'linux/amd64',
  }));
  app.get('/api', { config, schema: hide }, async () => ({
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '' }],
  }));
  app.get('/api/v1', { config, schema: hide }, async () => ({
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [],
  }));
  app.get('/apis', { config, schema: hide }, async () => ({
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groups.keys()].map((groupVersion) => {
      const [name, version] = groupVersion.split('/') as [string, string];
      const versions = [{ groupVersion, version }];
      return { name, versions, preferredVersion: versions[0] };
    }),
  }));
  app.get<{ Params: { group: string; version: string } }>(
    '/apis/:group/:version',
    { config, schema: hide },
    async (request) => {
      const kinds = groups.get(`${request.params.group}/${request.params.version}`);
      if (!kinds)
        throw new KubeError(
          404,
          `the server could not find the requested resource (${request.params.group}/${request.params.version})`,
        );
      return {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: `${request.params.group}/${request.params.version}`,
        resources: kinds.map((kind) => ({
          name: kind.plural,
          singularName: kind.singular,
          namespaced: true,
          kind: kind.kind,
          verbs: ['create', 'delete', 'get', 'list', 'patch', 'update'],
          ...(kind.shortNames.length > 0 ? { shortNames: kind.shortNames } : {}),
        })),
      };
    },
  );
  app.get('/openapi/v2', { config, schema: hide }, async (request, reply) => {
    if ((request.headers.accept ?? '').includes('protobuf')) {
      return reply
        .type('application/com.github.proto-openapi.spec.v2@v1.0+protobuf')
        .send(openApiV2Protobuf(options.version));
    }
    return openApiV2Json(options.version);
  });

  type ListParams = { group: string; version: string; plural: string; namespace?: string };
  const list = async (request: FastifyRequest<{ Params: ListParams }>, reply: FastifyReply) => {
    const { kind } = entryOf(request.params);
    authorize(request, kind, 'read', 'list');
    const query = request.query as { watch?: string; fieldSelector?: string; labelSelector?: string };
    if (query.watch === 'true' || query.watch === '1') {
      throw new KubeError(405, `watching ${kind.plural}.${kind.group} is not supported`);
    }
    // kubectl delete waits for the object to be gone by listing it with metadata.name=<name>.
    const where = listFilter(query.fieldSelector, request.params.namespace, {
      selector: query.labelSelector,
      sql: kind.labelsSql,
    });
    const { rows } = await pool.query<DocumentRow>(
      `${selectSql(kind)}${where.sql} ORDER BY t.namespace, t.name`,
      where.params,
    );
    if (wantsTable(request.headers.accept)) return reply.send(toTable(kind, rows, request.headers.accept!));
    return reply.send(
      toList(
        kind,
        rows.map((row) => toObject(kind, row)),
      ),
    );
  };
  app.get<{ Params: ListParams }>('/apis/:group/:version/:plural', { config, schema: hide }, list);
  app.get<{ Params: ListParams }>(
    '/apis/:group/:version/namespaces/:namespace/:plural',
    { config, schema: hide },
    list,
  );

  type NamedParams = { group: string; version: string; plural: string; namespace: string; name: string };
  const named = '/apis/:group/:version/namespaces/:namespace/:plural/:name';

  app.get<{ Params: NamedParams }>(named, { config, schema: hide }, async (request, reply) => {
    const { kind } = entryOf(request.params);
    authorize(request, kind, 'read', 'get', request.params.name);
    const row = await findOne(kind, request.params.namespace, request.params.name);
    if (!row) throw notFound(kind, request.params.name);
    if (wantsTable(request.headers.accept)) return reply.send(toTable(kind, [row], request.headers.accept!));
    return reply.send(toObject(kind, row));
  });

  app.post<{ Params: ListParams & { namespace: string } }>(
    '/apis/:group/:version/namespaces/:namespace/:plural',
    { config, schema: hide },
    async (request, reply) => {
      const entry = entryOf(request.params);
      const document = documentFor(entry.kind, request.body, { namespace: request.params.namespace });
      const name = (document.metadata as { name: string }).name;
      authorize(request, entry.kind, 'write', 'create', name);
      if (await findOne(entry.kind, request.params.namespace, name)) {
        throw new KubeError(409, `${entry.kind.plural}.${entry.kind.group} "${name}" already exists`, {
          name,
          group: entry.kind.group,
          kind: entry.kind.plural,
        });
      }
      return reply.status(201).send(await write(entry, document));
    },
  );

  app.put<{ Params: NamedParams }>(named, { config, schema: hide }, async (request) => {
    const entry = entryOf(request.params);
    authorize(request, entry.kind, 'write', 'update', request.params.name);
    const row = await findOne(entry.kind, request.params.namespace, request.params.name);
    if (!row) throw notFound(entry.kind, request.params.name);
    refuseReadOnly(entry.kind, row);
    return write(entry, documentFor(entry.kind, request.body, request.params));
  });

  app.patch<{ Params: NamedParams }>(named, { config, schema: hide }, async (request, reply) => {
    const entry = entryOf(request.params);
    const { kind } = entry;
    authorize(request, kind, 'write', 'patch', request.params.name);
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim();
    const row = await findOne(kind, request.params.namespace, request.params.name);
    if (type === 'application/apply-patch+yaml') {
      // Server-side apply: the body is the whole object the caller wants.
      if (row) refuseReadOnly(kind, row);
      const document = documentFor(kind, request.body, request.params);
      const created = !row;
      const object = await write(entry, document);
      return reply.status(created ? 201 : 200).send(object);
    }
    if (type !== 'application/merge-patch+json') {
      throw new KubeError(
        415,
        `the patch type ${type} is not supported for ${kind.plural}.${kind.group}; send application/merge-patch+json or application/apply-patch+yaml`,
      );
    }
    if (!row) throw notFound(kind, request.params.name);
    refuseReadOnly(kind, row);
    const current = toObject(kind, row);
    const patched = mergePatch(current, request.body) as Record<string, unknown>;
    return reply.send(await write(entry, documentFor(kind, patched, request.params)));
  });

  app.delete<{ Params: NamedParams }>(named, { config, schema: hide }, async (request) => {
    const { kind } = entryOf(request.params);
    authorize(request, kind, 'write', 'delete', request.params.name);
    const row = await findOne(kind, request.params.namespace, request.params.name);
    if (!row) throw notFound(kind, request.params.name);
    refuseReadOnly(kind, row);
    // The same soft delete the console sends (PATCH /api/db/<table> {deleted_at: now()}).
    await pool.query(`UPDATE ${kind.table} SET deleted_at = now() WHERE id = $1`, [row.id]);
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: row.name, group: kind.group, kind: kind.plural, uid: row.id },
    };
  });
}
