import type { PgrestCaller, PgrestResponse } from '../engine-types.js';
import {
  columnNotFound,
  invalidBody,
  invalidPutFilters,
  limitedChangeViolation,
  limitWithoutOrder,
  maxAffectedViolation,
  putMatchingPk,
  singularityError,
} from '../errors/api-errors.js';
import type { Statement, TextRow } from '../exec/batch.js';
import { runInTransaction, runTransaction } from '../exec/transaction.js';
import { preferenceApplied } from '../parser/preferences.js';
import { encodeComponent, headerPath } from '../parser/query-string.js';
import { parseQueryParams } from '../parser/query-params.js';
import type { QueryParams } from '../parser/ast.js';
import type { PlanCondition, PlanOrder, ReadNode } from '../plan/plan-types.js';
import { buildReadPlan, resolveTargetConditions } from '../plan/read-plan.js';
import { DeferredErrors, undefinedColumn } from '../plan/resolve-errors.js';
import type { Column, Table } from '../schema/schema-types.js';
import { conditionSql } from '../sql/condition-sql.js';
import {
  deleteSql,
  insertSql,
  limitedByRowIdentity,
  updateSql,
  type GuardCondition,
  type Returning,
} from '../sql/mutate-sql.js';
import { bodySql } from '../sql/output-sql.js';
import { rootSelectSql } from '../sql/read-sql.js';
import { qualified, quoteIdent, SqlParams } from '../sql/sql-params.js';
import {
  authorize,
  embedReadAccess,
  shouldCommit,
  transactionSettings,
  visibleTo,
  type EngineState,
  type Visibility,
} from './engine-state.js';
import { parsePayload, type Payload } from './payload.js';
import { parsedBodyText } from './request-body.js';
import { topLevelRange } from './ranges.js';
import { checkPreferences, type RequestContext } from './request-context.js';
import { contentRange, negotiateBody } from './response.js';
import { applyResponseGucs } from './response-gucs.js';
import { checkExistingRows, checkPayloadGuard } from './row-guard.js';
import { findTable } from './table-lookup.js';

type MutationRow = {
  page: string;
  body: string | null;
  inserted: string | null;
  location: string | null;
  response_headers: string | null;
  response_status: string | null;
};

function payloadColumns(table: Table, payload: Payload): Column[] {
  return payload.keys.map((key) => {
    const column = table.columnsByName.get(key);
    if (!column) throw columnNotFound(table.name, key);
    return column;
  });
}

/** PUT: filters must be exactly the primary key with `eq` (PGRST105), matching the payload (PGRST115). */
function checkPut(table: Table, conditions: PlanCondition[], payload: Payload): void {
  const pk = table.primaryKey;
  const eqValues = new Map<string, string>();
  for (const condition of conditions) {
    if (
      condition.type !== 'filter' ||
      condition.negated ||
      condition.ref.jsonPath.length > 0 ||
      condition.operation.kind !== 'quant' ||
      condition.operation.op !== 'eq' ||
      condition.operation.quantifier !== undefined
    ) {
      throw invalidPutFilters();
    }
    eqValues.set(condition.ref.column.name, condition.operation.value);
  }
  if (pk.length === 0 || eqValues.size !== pk.length || !pk.every((column) => eqValues.has(column)))
    throw invalidPutFilters();
  // PostgREST puts the first object of a longer array and ignores the rest.
  if (payload.rows.length === 0) throw invalidBody('PUT requires a single object');
  const row = payload.rows[0] ?? {};
  for (const column of pk) {
    const value = row[column];
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (text !== eqValues.get(column)) throw putMatchingPk();
  }
}

function locationFor(table: Table, location: string | null): string | undefined {
  if (location === null) return undefined;
  const parsed: unknown = JSON.parse(location);
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const query = table.primaryKey
    .map((column) => {
      const value = (parsed as Record<string, unknown>)[column];
      // A null key part (possible on a view) reads back with is.null, as PostgREST writes it.
      if (value === null || value === undefined) return `${encodeComponent(column)}=is.null`;
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return `${encodeComponent(column)}=${encodeComponent(`eq.${text}`)}`;
    })
    .join('&');
  return `/${headerPath(table.name)}?${query}`;
}

/**
 * How many rows an upsert inserted (rather than updated): the returned rows whose conflict
 * key was not in the table before. The main query still sees the table as it was before the
 * data-modifying CTE ran, so this works where `xmax` cannot be read (partitioned tables, views).
 */
function insertedCountSql(table: Table, conflictColumns: string[]): string {
  const match = conflictColumns
    .map((name) => `"_o".${quoteIdent(name)} = ("_m"."r").${quoteIdent(name)}`)
    .join(' AND ');
  return `(SELECT count(*) FROM "pgrst_mut" AS "_m" WHERE NOT EXISTS (SELECT 1 FROM ${qualified(table)} AS "_o" WHERE ${match}))`;
}

/** `order=ctid` on a relation without such a column: PostgreSQL's row address. */
function isCtidTerm(table: Table, term: QueryParams['order'][number]['terms'][number]): boolean {
  return (
    term.relation === undefined &&
    term.field.name === 'ctid' &&
    term.field.jsonPath.length === 0 &&
    !table.columnsByName.has('ctid')
  );
}

/** The query parameters without root `ctid` order terms, which do not order the response. */
function withoutCtidOrder(table: Table, params: QueryParams): QueryParams {
  const rootOrder = params.order.find((entry) => entry.path.length === 0);
  if (!rootOrder?.terms.some((term) => isCtidTerm(table, term))) return params;
  return {
    ...params,
    order: params.order.map((entry) =>
      entry === rootOrder ? { ...entry, terms: entry.terms.filter((term) => !isCtidTerm(table, term)) } : entry,
    ),
  };
}

/**
 * The rows a PATCH/DELETE changes are picked by its root filters and order. PostgREST lets
 * that order name `ctid` (the way to limit a change on a table without a key), which is not
 * a column of the schema cache: it orders the change only, never the response.
 */
function mutationTarget(
  table: Table,
  source: Parameters<typeof resolveTargetConditions>[0],
  params: QueryParams,
  authorizeEmbed: Parameters<typeof resolveTargetConditions>[2],
  deferred: DeferredErrors,
  visible: Visibility | undefined,
): { conditions: PlanCondition[]; order: PlanOrder[] } {
  const resolved = resolveTargetConditions(source, withoutCtidOrder(table, params), authorizeEmbed, deferred, visible);
  const rootOrder = params.order.find((entry) => entry.path.length === 0);
  if (!rootOrder?.terms.some((term) => isCtidTerm(table, term))) return resolved;
  const others = [...resolved.order];
  const ctid: Column = {
    name: 'ctid',
    type: 'tid',
    baseType: 'tid',
    nullable: false,
    default: null,
    position: 0,
    generated: true,
  };
  // Related terms order the response only (resolveTargetConditions leaves them out).
  const order = rootOrder.terms.flatMap((term): PlanOrder[] => {
    if (term.relation !== undefined) return [];
    if (!isCtidTerm(table, term)) return [others.shift() as PlanOrder];
    return [
      {
        ref: { column: ctid, jsonPath: [] },
        ...(term.direction !== undefined ? { direction: term.direction } : {}),
        ...(term.nulls !== undefined ? { nulls: term.nulls } : {}),
      },
    ];
  });
  return { conditions: resolved.conditions, order };
}

/**
 * The columns of the changed rows the response reads: selected columns, the root's order,
 * the columns its embeds join on, the primary key (Location) and the conflict columns (the
 * upsert's inserted count). Undefined — the whole row — when `*`, a computed field or a
 * computed relationship needs it. Mirrors PostgREST's RETURNING list (Plan.returningCols).
 */
function returnedColumns(root: ReadNode, table: Table, conflictColumns: string[]): string[] | undefined {
  if (root.star) return undefined;
  const names = new Set<string>([...table.primaryKey, ...conflictColumns]);
  for (const select of root.select) {
    if (select.ref === null || select.ref.computed) return undefined;
    names.add(select.ref.column.name);
  }
  for (const term of root.order) {
    if (term.child) continue;
    if (term.ref.computed) return undefined;
    names.add(term.ref.column.name);
  }
  for (const child of root.children) {
    const cardinality = child.relationship?.cardinality;
    if (!cardinality || cardinality.kind === 'computed') return undefined;
    const pairs = cardinality.kind === 'm2m' ? cardinality.junction.sourceColumns : cardinality.columns;
    for (const [column] of pairs) names.add(column);
  }
  for (const name of names) if (!table.columnsByName.has(name)) return undefined;
  return [...names];
}

/** POST, PATCH, PUT, DELETE on a table or view. */
export async function handleMutation(
  state: EngineState,
  ctx: RequestContext,
  caller: PgrestCaller | undefined,
): Promise<PgrestResponse> {
  if (ctx.route.kind !== 'relation') throw new Error('handleMutation needs a relation route');
  const method = ctx.method;
  // As in PostgREST, the query string, the range and the body are judged before the
  // relation is looked up; the payload's columns are checked against it afterwards.
  const params = parseQueryParams(ctx.request.query);
  const range = topLevelRange(params, method, undefined);
  const payload: Payload | undefined =
    method === 'POST' || method === 'PATCH' || method === 'PUT'
      ? parsePayload(
          parsedBodyText(ctx.request.body, ctx.contentType),
          ctx.contentType,
          params.columns,
          state.limits.maxBodyDepth,
        )
      : undefined;
  ctx.clock?.lap('parse');
  const cache = state.store.current;
  const visible = visibleTo(state, ctx.method, caller);
  const table = findTable(cache, ctx.schema, ctx.route.name, visible);
  authorize(
    state,
    {
      relation: table.name,
      schema: table.schema,
      kind: 'relation',
      action: 'write',
      method: ctx.method,
      embedded: false,
      // The host may judge a write by the columns it sets, as read here (JSON, CSV or form).
      ...(payload ? { columns: payload.keys } : {}),
    },
    caller,
  );
  const source = {
    relation: table,
    columns: table.columnsByName,
    requestName: table.name,
    computed: table.computedFields,
  };
  // Embeds of the response and functions of computed fields are read, whatever the write.
  const readAccess = embedReadAccess(state, ctx.method, caller);
  const deferred = new DeferredErrors();
  const root = buildReadPlan(
    {
      cache,
      schema: ctx.schema,
      maxEmbeds: state.limits.maxEmbeds,
      aggregates: state.options.aggregates ?? false,
      ...(state.options.readThrough ? { readThrough: state.options.readThrough } : {}),
      authorizeEmbed: readAccess,
      ...(visible ? { visible } : {}),
      deferred,
    },
    source,
    withoutCtidOrder(table, params),
    'mutate',
  );
  const target = mutationTarget(table, source, params, readAccess, deferred, visible);
  // A limited PATCH/DELETE needs an order to pick its rows by (PostgREST: PGRST109).
  const limited = (method === 'PATCH' || method === 'DELETE') && (range.limit !== undefined || range.offset > 0n);
  if (limited && !target.order.some((term) => !term.child)) throw limitWithoutOrder();
  const limitChecked = limited && range.limit !== undefined && !limitedByRowIdentity(table);
  const prefs = ctx.prefs;
  const returning: Returning = prefs.return === 'representation' || prefs.return === 'headers-only' ? 'row' : 'none';

  let columns: Column[] = [];
  if (payload) {
    columns = payloadColumns(table, payload);
    if (method === 'PUT') checkPut(table, target.conditions, payload);
  }
  checkPreferences(prefs);
  const negotiated = negotiateBody(ctx.accept);
  // ON CONFLICT names its columns to PostgreSQL, which refuses unknown ones when it runs.
  const resolution = method === 'PUT' ? 'merge-duplicates' : method === 'POST' ? prefs.resolution : undefined;
  const conflictColumns = method === 'PUT' ? table.primaryKey : (params.onConflict ?? table.primaryKey);
  for (const name of conflictColumns)
    if (!table.columnsByName.has(name)) deferred.note(undefinedColumn(table.name, name));
  // PostgreSQL would refuse an unknown name only now, when the statement runs.
  deferred.raise();
  const guardSpec = state.options.rowGuard?.(table.name);
  const guardColumn = guardSpec ? table.columnsByName.get(guardSpec.column) : undefined;
  if (guardSpec && !guardColumn)
    state.logger?.warn(`pgrest: row guard column ${guardSpec.column} is not a column of ${table.name}`);
  const guard = guardSpec && guardColumn ? guardSpec : undefined;
  const guardCondition: GuardCondition | undefined =
    guard && guardColumn ? { column: guardColumn, allowed: guard.allowed } : undefined;
  if (guard && payload) checkPayloadGuard(guard, payload.rows, payload.keys);

  const isUpsert = resolution !== undefined && (method === 'PUT' || conflictColumns.length > 0);
  const emptyPatch = method === 'PATCH' && columns.length === 0;

  const returnColumns = returning === 'row' ? returnedColumns(root, table, isUpsert ? conflictColumns : []) : undefined;
  const sqlParams = new SqlParams();
  let mutationSql: string;
  if (emptyPatch) mutationSql = `SELECT NULL::${qualified(table)} AS "r" WHERE FALSE`;
  else if (method === 'POST' || method === 'PUT') {
    mutationSql = insertSql({
      table,
      columns,
      payload: payload?.json ?? '[]',
      rowCount: payload?.rows.length ?? 0,
      missingDefault: prefs.missing === 'default',
      firstOnly: method === 'PUT',
      ...(isUpsert && resolution ? { onConflict: { columns: conflictColumns, resolution } } : {}),
      returning,
      ...(returnColumns ? { returnColumns } : {}),
      ...(guardCondition ? { guard: guardCondition } : {}),
      params: sqlParams,
    });
  } else if (method === 'PATCH') {
    const present = new Set(Object.keys(payload?.rows[0] ?? {}));
    mutationSql = updateSql({
      table,
      columns,
      defaults:
        prefs.missing === 'default'
          ? new Set(columns.filter((column) => !present.has(column.name)).map((c) => c.name))
          : new Set(),
      payload: payload?.json ?? '[]',
      node: { ...root, sqlAlias: 't0' },
      conditions: target.conditions,
      order: target.order,
      ...(range.limit !== undefined ? { limit: range.limit } : {}),
      offset: range.offset,
      returning,
      ...(returnColumns ? { returnColumns } : {}),
      ...(guardCondition ? { guard: guardCondition } : {}),
      params: sqlParams,
    });
  } else {
    mutationSql = deleteSql({
      table,
      node: { ...root, sqlAlias: 't0' },
      conditions: target.conditions,
      order: target.order,
      ...(range.limit !== undefined ? { limit: range.limit } : {}),
      offset: range.offset,
      returning,
      ...(returnColumns ? { returnColumns } : {}),
      ...(guardCondition ? { guard: guardCondition } : {}),
      params: sqlParams,
    });
  }
  const gucs =
    `nullif(current_setting('response.headers', true), '') AS "response_headers", ` +
    `nullif(current_setting('response.status', true), '') AS "response_status"`;
  let sql: string;
  if (returning === 'row' || emptyPatch) {
    const rows = `(SELECT ("r").* FROM "pgrst_mut")`;
    const source = rootSelectSql(root, rows, sqlParams, true);
    const withInserted = isUpsert && !emptyPatch;
    const location =
      method === 'POST' && table.primaryKey.length > 0
        ? `(SELECT row_to_json("_l")::text FROM (SELECT ${table.primaryKey.map((column) => `"_m".${quoteIdent(column)}`).join(', ')} FROM ${rows} AS "_m" LIMIT 1) AS "_l")`
        : 'NULL::text';
    sql =
      `WITH "pgrst_mut" AS (${mutationSql}), "pgrst_source" AS (${source}) ` +
      `SELECT (SELECT count(*) FROM "pgrst_mut") AS "page", ${bodySql(negotiated.format)} AS "body", ` +
      `${withInserted ? insertedCountSql(table, conflictColumns) : 'NULL::bigint'} AS "inserted", ${location} AS "location", ${gucs} ` +
      `FROM "pgrst_source" AS "_r"`;
  } else {
    sql = `WITH "pgrst_mut" AS (${mutationSql}) SELECT count(*) AS "page", NULL::text AS "body", NULL::bigint AS "inserted", NULL::text AS "location", ${gucs} FROM "pgrst_mut"`;
  }
  const write: Statement = { text: sql, values: sqlParams.values, prepare: true };
  const readRow = (rows: TextRow[][]): { row: MutationRow | undefined; page: number } => {
    const row = rows[0]?.[0] as MutationRow | undefined;
    const page = Number(row?.page ?? 0);
    // On a view, an order that is not unique can match more rows than the limit: refused.
    if (limitChecked && range.limit !== undefined && BigInt(page) > range.limit)
      throw limitedChangeViolation(page, range.limit);
    if (prefs.maxAffected !== undefined && prefs.handling === 'strict' && page > prefs.maxAffected) {
      throw maxAffectedViolation(page);
    }
    if (negotiated.format.kind === 'object' && page !== 1) throw singularityError(page);
    return { row, page };
  };
  const guardQuery =
    guard !== undefined &&
    guardColumn !== undefined &&
    !emptyPatch &&
    (method === 'PATCH' || method === 'DELETE' || (isUpsert && resolution === 'merge-duplicates' && payload));
  const resultChecked =
    (prefs.maxAffected !== undefined && prefs.handling === 'strict') ||
    negotiated.format.kind === 'object' ||
    limitChecked;
  const settings = transactionSettings(state, ctx, caller, false);
  ctx.clock?.lap('plan');
  // Without a guard query or a check on the result, nothing read decides the transaction's
  // end: the write is one round trip. Otherwise the guard query rides with the opening, the
  // write follows, and COMMIT or ROLLBACK is sent once the checks passed or failed.
  const result =
    !guardQuery && !resultChecked
      ? readRow(await runTransaction(state.exec, settings, [write], shouldCommit(state, ctx)))
      : await runInTransaction(state.exec, settings, async (client) => {
          if (guard && guardColumn && !emptyPatch) {
            const guardParams = new SqlParams();
            if (method === 'PATCH' || method === 'DELETE') {
              const where = target.conditions.map((condition) =>
                conditionSql({ ...root, sqlAlias: 't0' }, condition, guardParams),
              );
              await checkExistingRows(
                client,
                guard,
                table,
                guardColumn,
                '',
                where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '',
                guardParams,
              );
            } else if (isUpsert && resolution === 'merge-duplicates' && payload) {
              const body = guardParams.add(payload.json);
              const join = ` JOIN json_populate_recordset(NULL::${qualified(table)}, ${body}::json) AS "_p" ON ${conflictColumns
                .map((name) => `"t0".${quoteIdent(name)} = "_p".${quoteIdent(name)}`)
                .join(' AND ')}`;
              await checkExistingRows(client, guard, table, guardColumn, join, '', guardParams);
            }
          }
          return { value: readRow(await client.run([write])), commit: shouldCommit(state, ctx) };
        });
  ctx.clock?.lap('transaction');

  const { row, page } = result;
  const countShown =
    prefs.count === 'exact' || prefs.count === 'estimated' || prefs.count === 'planned' ? page : undefined;
  const headers: Record<string, string> = {};
  let status: number;
  let body = '';
  const representation = prefs.return === 'representation';
  if (representation) {
    body = row?.body ?? (negotiated.format.kind === 'object' ? 'null' : '[]');
    headers['Content-Type'] = negotiated.contentType;
    if (ctx.negotiatedByProfile) headers['Content-Profile'] = ctx.schema;
  }
  const inserted = row?.inserted === null || row?.inserted === undefined ? undefined : Number(row.inserted);
  if (method === 'POST') {
    status = inserted !== undefined && inserted <= 0 && resolution === 'merge-duplicates' ? 200 : 201;
    if (prefs.return === 'headers-only' && page === 1) {
      const location = locationFor(table, row?.location ?? null);
      if (location) headers.Location = location;
    }
    headers['Content-Range'] = contentRange(1n, 0n, countShown);
    const applied = preferenceApplied(
      {
        ...prefs,
        ...(table.primaryKey.length === 0 && params.onConflict === undefined ? { resolution: undefined } : {}),
      },
      ['resolution', 'missing', 'return', 'count', 'tx', 'handling', 'timezone'],
    );
    if (applied) headers['Preference-Applied'] = applied;
  } else if (method === 'PUT') {
    status = representation ? (inserted !== undefined && inserted > 0 ? 201 : 200) : 204;
    const applied = preferenceApplied(prefs, ['return', 'count', 'tx', 'handling', 'timezone']);
    if (applied) headers['Preference-Applied'] = applied;
  } else {
    status = representation ? 200 : 204;
    headers['Content-Range'] =
      method === 'PATCH' ? contentRange(0n, BigInt(page) - 1n, countShown) : contentRange(1n, 0n, countShown);
    // PostgREST reports `missing=` as applied to a PATCH but not to a DELETE.
    const applied = preferenceApplied(prefs, [
      ...(method === 'PATCH' ? (['missing'] as const) : []),
      'return',
      'count',
      'tx',
      'handling',
      'timezone',
      'maxAffected',
    ]);
    if (applied) headers['Preference-Applied'] = applied;
  }
  const final = applyResponseGucs(status, headers, row?.response_headers, row?.response_status);
  if (final.status === 204) return { status: 204, headers: final.headers, body: '' };
  return { status: final.status, headers: final.headers, body };
}
