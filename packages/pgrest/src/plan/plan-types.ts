import type { AggregateFunction, Field, FtsOperator, IsValue, QuantOperator, SimpleOperator } from '../parser/ast.js';
import type { Column, QualifiedName, Relationship, Routine } from '../schema/schema-types.js';

/*
 * The read plan: the request's select tree with every name resolved against the schema
 * cache. SQL generation only reads this; it never sees request text except bound values
 * and output names (aliases), which are quoted.
 */

/** A column reference, possibly with a JSON path, on one plan node. */
export type ColumnRef = {
  column: Column;
  jsonPath: Field['jsonPath'];
  /** Set for a computed field: the function applied to the row. */
  computed?: Routine;
};

/** An aggregate applied to an output (`amount.sum()::text`), with its output cast. */
export type PlanAggregate = { fn: AggregateFunction; cast?: QualifiedName };

/** One output column of a node. */
export type PlanSelect = {
  /** The column read; null only for `count()`, which counts rows rather than values. */
  ref: ColumnRef | null;
  /** Key in the JSON output. */
  outputName: string;
  /** Cast target of the value (before any aggregate), resolved to a catalog type. */
  cast?: QualifiedName;
  /**
   * The aggregate over this output. On a to-one spread it is applied by the node the
   * spread's columns are lifted into (PostgREST "hoists" it), not by the spread itself.
   */
  aggregate?: PlanAggregate;
};

/** A resolved operation (values still text; they are bound as parameters). */
export type PlanOperation =
  | { kind: 'simple'; op: SimpleOperator; value: string }
  | { kind: 'quant'; op: QuantOperator; quantifier?: 'any' | 'all'; value: string }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: IsValue }
  | { kind: 'isdistinct'; value: string }
  | { kind: 'fts'; op: FtsOperator; language?: string; value: string };

/** A condition tree on a node. */
export type PlanCondition =
  | { type: 'filter'; ref: ColumnRef; negated: boolean; operation: PlanOperation }
  | { type: 'embed-exists'; child: ReadNode; negated: boolean }
  | { type: 'logic'; op: 'and' | 'or'; negated: boolean; children: PlanCondition[] };

/** A value an embed exposes to its parent's ORDER BY (a related order), with its output cast. */
export type ExposedOrder = { ref: ColumnRef; cast?: QualifiedName };

/** One ORDER BY term. */
export type PlanOrder = {
  /** For related orders: the to-one child whose column is used. */
  child?: ReadNode;
  ref: ColumnRef;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
};

/** A relation in the select tree (the root or an embed). */
export type ReadNode = {
  /** The relation read (table, view, or the relation a function returns). */
  relation: QualifiedName;
  /** Columns known for this relation. */
  columns: Map<string, Column>;
  /** Computed fields of this relation (functions of its row). */
  computed: Map<string, Routine>;
  /** Columns read through a function (the host's `readThrough`): column name → function. */
  readThrough?: ReadonlyMap<string, QualifiedName>;
  /** Name used in the request (relation name or embed target). */
  requestName: string;
  /** User alias of the embed. */
  alias?: string;
  hint?: string;
  /** Output key of an embed: alias or requested name. */
  outputName: string;
  /** `*` selected. */
  star: boolean;
  select: PlanSelect[];
  where: PlanCondition[];
  order: PlanOrder[];
  offset: bigint;
  limit?: bigint;
  children: ReadNode[];
  /** Set on embeds. */
  relationship?: Relationship;
  joinType: 'left' | 'inner';
  spread: boolean;
  depth: number;
  /** SQL alias of the relation (t0, t1, ...): generated, never from the request. */
  sqlAlias: string;
  /** SQL alias of the lateral join an embed produces (l1, l2, ...). */
  lateralAlias: string;
  /** Related orders this embed must expose (to its parent's ORDER BY). */
  exposedOrders: ExposedOrder[];
  /** Referenced by an embed-exists condition or an inner join (needed by count queries). */
  usedInWhere: boolean;
  /**
   * Aggregates apply at this node (its own, or hoisted from to-one spreads below it): its
   * other outputs are grouped by. Never set on spreads, whose aggregates are hoisted.
   */
  grouped: boolean;
};
