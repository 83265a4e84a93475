import type pg from 'pg';
import {
  COLUMNS_SQL,
  CONSTRAINTS_SQL,
  MEDIA_HANDLERS_SQL,
  RELATIONS_SQL,
  ROUTINES_SQL,
  TIMEZONES_SQL,
  TYPES_SQL,
  UNIQUE_INDEXES_SQL,
  VIEW_RULES_SQL,
} from './catalog-queries.js';
import { addComputedRelationships, type ComputedRelationshipCandidate } from './computed-relationships.js';
import { viewColumnOrigins } from './node-tree.js';
import { buildRelationships, inferViewPrimaryKeys, type ForeignKeyInfo, type RelationInfo } from './relationships.js';
import {
  mediaHandlerKey,
  qualifiedKey,
  type MediaHandler,
  type Column,
  type QualifiedName,
  type Representation,
  type Routine,
  type RoutineParam,
  type SchemaCache,
  type Table,
} from './schema-types.js';

type Queryable = Pick<pg.ClientBase, 'query'>;

type RelationRow = {
  oid: string;
  schema: string;
  name: string;
  kind: string;
  is_partition: boolean;
  description: string | null;
  updatable_mask: number;
};
type ColumnRow = {
  relid: string;
  name: string;
  position: number;
  type: string;
  base_type: string;
  nullable: boolean;
  default_expr: string | null;
  generated: boolean;
  /** Parsed by pg from json: `{ toJson?: {schema, name}, ... }`, null for most columns. */
  representation: Representation | null;
};
type ConstraintRow = {
  name: string;
  type: string;
  relid: string;
  frelid: string;
  columns: string[];
  fcolumns: string[];
};
type RoutineRow = {
  oid: string;
  schema: string;
  name: string;
  volatility: string;
  set_of: boolean;
  single_row: boolean;
  nargs: number;
  ndefaults: number;
  return_type: string;
  return_typtype: string;
  return_relid: string;
  description: string | null;
  arg_relid: string | null;
  args: { name: string; type: string; mode: string }[];
};

type MediaHandlerRow = {
  kind: 'aggregate' | 'function';
  handler_schema: string | null;
  handler_name: string | null;
  target_schema: string | null;
  target_name: string | null;
  media_type: string;
  base_type: string;
};

/** Media type handlers by relation (or function) and media type. */
function mediaHandlerMap(rows: MediaHandlerRow[]): Map<string, MediaHandler> {
  const handlers = new Map<string, MediaHandler>();
  for (const row of rows) {
    const target =
      row.target_schema !== null && row.target_name !== null
        ? { schema: row.target_schema, name: row.target_name }
        : undefined;
    const handler: MediaHandler = {
      kind: row.kind,
      ...(row.handler_schema !== null && row.handler_name !== null
        ? { aggregate: { schema: row.handler_schema, name: row.handler_name } }
        : {}),
      ...(target ? { target } : {}),
      mediaType: row.media_type,
      baseType: row.base_type,
    };
    handlers.set(mediaHandlerKey(row.kind, target, row.media_type), handler);
  }
  return handlers;
}

const KINDS: Record<string, Table['kind']> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
};

/** Standard SQL spellings that pg_type lists under another name. */
const TYPE_ALIASES: Record<string, string> = {
  int: 'int4',
  integer: 'int4',
  smallint: 'int2',
  bigint: 'int8',
  real: 'float4',
  float: 'float8',
  'double precision': 'float8',
  boolean: 'bool',
  decimal: 'numeric',
  'character varying': 'varchar',
  character: 'bpchar',
  char: 'bpchar',
  'timestamp without time zone': 'timestamp',
  'timestamp with time zone': 'timestamptz',
  'time without time zone': 'time',
  'time with time zone': 'timetz',
};

/**
 * Reads pg_catalog and builds the {@link SchemaCache} for the exposed schemas: relations
 * with columns and keys, relationships (including those views inherit from their base
 * tables and many-to-many through junction tables), functions and cast types.
 */
export async function buildSchemaCache(db: Queryable, schemas: string[]): Promise<SchemaCache> {
  // One client runs one query at a time; issuing them in order keeps pg's queue explicit.
  const relations = await db.query<RelationRow>(RELATIONS_SQL);
  const columns = await db.query<ColumnRow>(COLUMNS_SQL);
  const constraints = await db.query<ConstraintRow>(CONSTRAINTS_SQL);
  const uniqueIndexes = await db.query<{ relid: string; columns: string[] }>(UNIQUE_INDEXES_SQL);
  const viewRules = await db.query<{ relid: string; action: string }>(VIEW_RULES_SQL);
  const routines = await db.query<RoutineRow>(ROUTINES_SQL, [schemas]);
  const types = await db.query<{ name: string; schema: string }>(TYPES_SQL, [schemas]);
  const timezones = await db.query<{ name: string }>(TIMEZONES_SQL);
  const mediaRows = await db.query<MediaHandlerRow>(MEDIA_HANDLERS_SQL, [schemas]);

  const columnsByRel = new Map<string, Column[]>();
  for (const row of columns.rows) {
    const list = columnsByRel.get(row.relid) ?? [];
    list.push({
      name: row.name,
      type: row.type,
      baseType: row.base_type,
      nullable: row.nullable,
      default: row.default_expr,
      position: row.position,
      generated: row.generated,
      ...(row.representation ? { representation: row.representation } : {}),
    });
    columnsByRel.set(row.relid, list);
  }

  const primaryKeys = new Map<string, string[]>();
  const uniques = new Map<string, string[][]>();
  const foreignKeys: ForeignKeyInfo[] = [];
  for (const row of constraints.rows) {
    if (row.type === 'p') primaryKeys.set(row.relid, row.columns);
    if (row.type === 'p' || row.type === 'u') uniques.set(row.relid, [...(uniques.get(row.relid) ?? []), row.columns]);
    if (row.type === 'f') {
      foreignKeys.push({
        name: row.name,
        relid: row.relid,
        columns: row.columns,
        frelid: row.frelid,
        fcolumns: row.fcolumns,
      });
    }
  }
  for (const row of uniqueIndexes.rows) uniques.set(row.relid, [...(uniques.get(row.relid) ?? []), row.columns]);

  const relationInfos = new Map<string, RelationInfo>();
  const tables = new Map<string, Table>();
  const exposed = new Set(schemas);
  for (const row of relations.rows) {
    const kind = KINDS[row.kind] ?? 'table';
    const cols = columnsByRel.get(row.oid) ?? [];
    relationInfos.set(row.oid, {
      oid: row.oid,
      name: { schema: row.schema, name: row.name },
      isView: kind !== 'table' && kind !== 'foreign_table',
      columnsByPosition: new Map(cols.map((col) => [col.position, col.name])),
      uniques: uniques.get(row.oid) ?? [],
      primaryKey: primaryKeys.get(row.oid) ?? [],
      ...(row.is_partition ? { isPartition: true } : {}),
    });
    // A partition is reached through its partitioned table only (PGRST205 on its own name).
    if (!exposed.has(row.schema) || row.is_partition) continue;
    tables.set(qualifiedKey({ schema: row.schema, name: row.name }), {
      schema: row.schema,
      name: row.name,
      kind,
      description: row.description,
      columns: cols,
      columnsByName: new Map(cols.map((col) => [col.name, col])),
      primaryKey: primaryKeys.get(row.oid) ?? [],
      computedFields: new Map(),
      insertable: (row.updatable_mask & 8) === 8,
      updatable: (row.updatable_mask & 4) === 4,
      deletable: (row.updatable_mask & 16) === 16,
    });
  }

  const viewOrigins = new Map<string, { column: string; relid: string; attnum: number }[]>();
  for (const row of viewRules.rows) {
    const info = relationInfos.get(row.relid);
    if (!info) continue;
    viewOrigins.set(
      row.relid,
      viewColumnOrigins(row.action).flatMap((origin) => {
        const column = info.columnsByPosition.get(origin.resno);
        return column === undefined ? [] : [{ column, relid: String(origin.relationOid), attnum: origin.attnum }];
      }),
    );
  }

  const viewKeys = inferViewPrimaryKeys(relationInfos, viewOrigins);
  const relationships = buildRelationships({ relations: relationInfos, foreignKeys, viewOrigins, viewKeys, exposed });
  for (const [viewId, primaryKey] of viewKeys) {
    const info = relationInfos.get(viewId);
    const table = info ? tables.get(qualifiedKey(info.name)) : undefined;
    if (table && table.primaryKey.length === 0) table.primaryKey = primaryKey;
  }

  const routineMap = new Map<string, Routine[]>();
  const computedRelationships: ComputedRelationshipCandidate[] = [];
  for (const row of routines.rows) {
    const routine = toRoutine(row, relationInfos, columnsByRel);
    const key = qualifiedKey(routine);
    routineMap.set(key, [...(routineMap.get(key) ?? []), routine]);
    const argRelation = row.arg_relid !== null && row.arg_relid !== '0' ? relationInfos.get(row.arg_relid) : undefined;
    if (!argRelation) continue;
    routine.rowType = argRelation.name;
    const table = tables.get(qualifiedKey(argRelation.name));
    if (
      table &&
      routine.returns.kind === 'scalar' &&
      !routine.returns.setOf &&
      !table.columnsByName.has(routine.name)
    ) {
      table.computedFields.set(routine.name, routine);
    }
    const resultRelation = row.return_typtype === 'c' ? relationInfos.get(row.return_relid) : undefined;
    if (resultRelation) {
      computedRelationships.push({
        function: { schema: routine.schema, name: routine.name },
        argument: argRelation,
        result: resultRelation,
        singleRow: row.single_row,
      });
    }
  }
  addComputedRelationships(relationships, computedRelationships, exposed);

  const typeMap = new Map<string, QualifiedName>();
  for (const row of types.rows) {
    const key = row.name.toLowerCase();
    // Built-in names win over same-named types of the exposed schemas, as in search_path.
    if (!typeMap.has(key) || row.schema === 'pg_catalog') typeMap.set(key, { schema: row.schema, name: row.name });
  }
  for (const [alias, target] of Object.entries(TYPE_ALIASES)) {
    const found = typeMap.get(target);
    if (found) typeMap.set(alias, found);
  }

  return {
    schemas,
    tables,
    relationships,
    routines: routineMap,
    types: typeMap,
    timezones: new Set(timezones.rows.map((row) => row.name)),
    mediaHandlers: mediaHandlerMap(mediaRows.rows),
  };
}

function toRoutine(
  row: RoutineRow,
  relations: Map<string, RelationInfo>,
  columnsByRel: Map<string, Column[]>,
): Routine {
  const inputArgs = row.args.filter((arg) => arg.mode === 'i' || arg.mode === 'b' || arg.mode === 'v');
  const outputArgs = row.args.filter((arg) => arg.mode === 'o' || arg.mode === 't' || arg.mode === 'b');
  const firstDefault = inputArgs.length - row.ndefaults;
  const params: RoutineParam[] = inputArgs.map((arg, index) => ({
    name: arg.name,
    type: arg.type,
    required: index < firstDefault,
    variadic: arg.mode === 'v',
  }));
  const volatility = row.volatility === 'i' ? 'immutable' : row.volatility === 's' ? 'stable' : 'volatile';
  let returns: Routine['returns'];
  if (row.return_type === 'void') returns = { kind: 'void', setOf: row.set_of, type: 'void' };
  else if (row.return_typtype === 'c' && row.return_relid !== '0') {
    const info = relations.get(row.return_relid);
    const columns = columnsByRel.get(row.return_relid) ?? [];
    returns = {
      kind: 'composite',
      setOf: row.set_of,
      type: row.return_type,
      ...(info ? { relation: info.name } : {}),
      columns,
    };
  } else if (outputArgs.length > 0) {
    // OUT/INOUT parameters and RETURNS TABLE columns name the result's columns, even when
    // there is only one of them (its type is then the return type, not `record`): PostgREST
    // answers objects keyed by those names.
    returns = {
      kind: 'composite',
      setOf: row.set_of,
      type: row.return_type,
      columns: outputArgs.map((arg, index) => ({
        name: arg.name,
        type: arg.type,
        baseType: arg.type,
        nullable: true,
        default: null,
        position: index + 1,
        generated: false,
      })),
    };
  } else returns = { kind: 'scalar', setOf: row.set_of, type: row.return_type };
  return { schema: row.schema, name: row.name, params, returns, volatility, description: row.description };
}
