/*
 * The request AST: what a PostgREST URL asks for, before anything is checked against the
 * database. Names mirror PostgREST's ApiRequest types so its documentation maps onto them.
 */

/** One step of a JSON path: `->key`, `->>key`, `->0`, `->>-1`. */
export type JsonOperation = {
  arrow: '->' | '->>';
  operand: { kind: 'key'; value: string } | { kind: 'index'; value: number };
};

/** A column, possibly followed by a JSON path (`labels->>team`). */
export type Field = { name: string; jsonPath: JsonOperation[] };

/** Aggregate functions PostgREST parses (rejected unless aggregates are enabled). */
export type AggregateFunction = 'count' | 'sum' | 'avg' | 'max' | 'min';

/** Join type of an embed: `!inner` or `!left` (the default). */
export type JoinType = 'inner' | 'left';

/** One item of `select=`. */
export type SelectItem =
  | {
      type: 'field';
      field: Field;
      alias?: string;
      cast?: string;
      aggregate?: AggregateFunction;
      aggregateCast?: string;
    }
  | {
      type: 'relation';
      relation: string;
      alias?: string;
      hint?: string;
      joinType?: JoinType;
      children: SelectItem[];
    }
  | {
      type: 'spread';
      relation: string;
      hint?: string;
      joinType?: JoinType;
      children: SelectItem[];
    };

/** Operators taking one value, without quantifiers. */
export type SimpleOperator = 'neq' | 'cs' | 'cd' | 'ov' | 'sl' | 'sr' | 'nxr' | 'nxl' | 'adj';
/** Operators that accept `(any)`/`(all)`. */
export type QuantOperator = 'eq' | 'gte' | 'gt' | 'lte' | 'lt' | 'like' | 'ilike' | 'match' | 'imatch';
/** Full-text search operators. */
export type FtsOperator = 'fts' | 'plfts' | 'phfts' | 'wfts';
/** Right-hand side of `is.`. */
export type IsValue = 'null' | 'not_null' | 'true' | 'false' | 'unknown';

/** The operation of a filter, without its negation. */
export type Operation =
  | { kind: 'simple'; op: SimpleOperator; value: string }
  | { kind: 'quant'; op: QuantOperator; quantifier?: 'any' | 'all'; value: string }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: IsValue }
  | { kind: 'isdistinct'; value: string }
  | { kind: 'fts'; op: FtsOperator; language?: string; value: string };

/** An operation, possibly negated with `not.`. */
export type OpExpr = { negated: boolean; operation: Operation };

/** `field=op.value`. */
export type Filter = { field: Field; expr: OpExpr };

/** A boolean tree from `or=(...)`, `and=(...)`, `not.or=(...)`. */
export type LogicTree =
  { type: 'filter'; filter: Filter } | { type: 'logic'; negated: boolean; op: 'and' | 'or'; children: LogicTree[] };

/** One term of `order=`. */
export type OrderTerm = {
  /** Set for `order=relation(column)`: ordering by a to-one embedded resource. */
  relation?: string;
  field: Field;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
};

/** Path of embedded resources a parameter applies to (`[]` for the top level). */
export type EmbedPath = string[];

/**
 * limit/offset for one level, as exact integers (PostgREST reads them as Haskell's unbounded
 * `Integer`; PostgreSQL refuses those beyond bigint when the statement runs).
 */
export type RangeSpec = { offset: bigint; limit?: bigint };

/** Everything the query string says, parsed. */
export type QueryParams = {
  /** `select=`; defaults to `*`. */
  select: SelectItem[];
  filters: { path: EmbedPath; filter: Filter }[];
  logic: { path: EmbedPath; tree: LogicTree }[];
  order: { path: EmbedPath; terms: OrderTerm[] }[];
  /** Keyed by embed path joined with `.` (`''` for the top level). */
  ranges: Map<string, RangeSpec>;
  columns?: string[];
  onConflict?: string[];
  /** Arguments of an RPC called with GET (parameters without an operator), in order. */
  rpcParams: { name: string; value: string }[];
  /** Query string sorted by key, as PostgREST renders it in `Content-Location`. */
  canonical: string;
};
