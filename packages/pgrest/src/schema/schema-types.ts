/*
 * The schema cache: what the engine knows about the exposed schemas, read from pg_catalog.
 * Every identifier that reaches SQL comes from here, never from the request.
 */

/** A relation or function name with its schema. */
export type QualifiedName = { schema: string; name: string };

/** A column of a table or view. */
export type Column = {
  name: string;
  /** `format_type` output, usable in casts (`timestamp with time zone`, `text[]`). */
  type: string;
  /** Underlying type name (domains resolved), e.g. `timestamptz`, `jsonb`, `_text`. */
  baseType: string;
  nullable: boolean;
  /** Default expression from pg_catalog, when there is one. */
  default: string | null;
  position: number;
  /** Generated columns cannot be written. */
  generated: boolean;
  /** Casts of the column's domain that reformat its values (absent for most columns). */
  representation?: Representation;
};

/**
 * PostgREST's data representations: implicit casts, through a function, between a domain
 * and json or text (`CREATE CAST (domain AS json) WITH FUNCTION f(domain) AS IMPLICIT`).
 * PostgreSQL ignores casts from or to a domain, so the engine calls the functions itself.
 */
export type Representation = {
  /** `domain AS json`: formats the column's values in JSON output. */
  toJson?: QualifiedName;
  /** `json AS domain`: parses the column's values in JSON request bodies. */
  fromJson?: QualifiedName;
  /** `text AS domain`: parses filter values from the query string. */
  fromText?: QualifiedName;
};

/** A table, view, materialized view or foreign table. */
export type Table = QualifiedName & {
  kind: 'table' | 'view' | 'materialized_view' | 'foreign_table';
  description: string | null;
  columns: Column[];
  columnsByName: Map<string, Column>;
  primaryKey: string[];
  /**
   * Computed fields: functions taking this relation's row as their only argument and
   * returning a scalar, usable like columns (PostgREST's computed fields).
   */
  computedFields: Map<string, Routine>;
  insertable: boolean;
  updatable: boolean;
  deletable: boolean;
};

/** How two relations relate, seen from `Relationship.table`. */
export type Cardinality =
  | { kind: 'm2o'; constraint: string; columns: [string, string][] }
  | { kind: 'o2m'; constraint: string; columns: [string, string][] }
  | { kind: 'o2o'; constraint: string; columns: [string, string][]; isParent: boolean }
  | {
      kind: 'm2m';
      junction: {
        table: QualifiedName;
        constraint1: string;
        constraint2: string;
        /** Pairs (column of `table`, column of junction). */
        sourceColumns: [string, string][];
        /** Pairs (column of `foreignTable`, column of junction). */
        targetColumns: [string, string][];
      };
    }
  | {
      /**
       * A computed relationship: a function taking `table`'s row and returning rows of
       * `foreignTable` (to-one when it returns one row or is declared `ROWS 1`).
       */
      kind: 'computed';
      function: QualifiedName;
      toOne: boolean;
    };

/**
 * A relationship from `table` to `foreignTable`. Column pairs are always
 * (column of `table`, column of `foreignTable`).
 */
export type Relationship = {
  table: QualifiedName;
  foreignTable: QualifiedName;
  isSelf: boolean;
  cardinality: Cardinality;
  tableIsView: boolean;
  foreignTableIsView: boolean;
};

/** A function argument. */
export type RoutineParam = {
  /** Empty for unnamed arguments. */
  name: string;
  type: string;
  /** False when the argument has a default. */
  required: boolean;
  variadic: boolean;
};

/** A function callable through `/rpc`. */
export type Routine = QualifiedName & {
  params: RoutineParam[];
  returns: {
    /** `void`, a scalar, or a row (table type, composite type, OUT/TABLE columns). */
    kind: 'void' | 'scalar' | 'composite';
    setOf: boolean;
    /** `format_type` of the return type. */
    type: string;
    /** The relation whose row type is returned, when there is one (enables embedding). */
    relation?: QualifiedName;
    /** Columns of a composite result (for `*` expansion and column checks). */
    columns?: Column[];
  };
  volatility: 'immutable' | 'stable' | 'volatile';
  description: string | null;
  /**
   * The relation whose row type is the only argument (computed fields and relationships
   * are called with the row cast to it, which also picks the overload).
   */
  rowType?: QualifiedName;
};

/** Everything the planner needs. */
export type SchemaCache = {
  /** Exposed schemas, in configuration order. */
  schemas: string[];
  /** Keyed by `schema.name` (see {@link qualifiedKey}). */
  tables: Map<string, Table>;
  /** Relationships whose `table` is the key's relation. */
  relationships: Map<string, Relationship[]>;
  /** Overloads per function, keyed by `schema.name`. */
  routines: Map<string, Routine[]>;
  /** Type names usable in `::cast`, lower-cased, to a safe qualified type reference. */
  types: Map<string, QualifiedName>;
  /** Time zone names accepted by `Prefer: timezone=`. */
  timezones: Set<string>;
  /** Media type handlers, keyed by {@link mediaHandlerKey}; none when absent. */
  mediaHandlers?: Map<string, MediaHandler>;
};

/**
 * A media type handler read from pg_catalog: an aggregate returning a domain named like a
 * media type (it builds the body of reads of `target`, or of any relation when `target` is
 * undefined), or a function returning such a domain (`target` is the function; its result is
 * the body).
 */
export type MediaHandler = {
  kind: 'aggregate' | 'function';
  /** The aggregate (kind `aggregate`). */
  aggregate?: QualifiedName;
  /** Relation (aggregate) or function (function) served; undefined for `anyelement`. */
  target?: QualifiedName;
  /** Lower-cased domain name: the media type the handler is chosen for (`*\/*` included). */
  mediaType: string;
  /** Base type of the domain (`bytea`, `text`, `jsonb`...): how the body is read back. */
  baseType: string;
};

/**
 * Lookup key of a media type handler of `kind` for `target` (undefined: any relation) and a
 * media type. The kind keeps a relation's handlers apart from those of a function of the
 * same name.
 */
export function mediaHandlerKey(
  kind: MediaHandler['kind'],
  target: QualifiedName | undefined,
  mediaType: string,
): string {
  return JSON.stringify([kind, target?.schema ?? null, target?.name ?? null, mediaType]);
}

/** Map key for a qualified name. */
export function qualifiedKey(name: QualifiedName): string {
  return JSON.stringify([name.schema, name.name]);
}
