import type { ColumnRef, PlanCondition, PlanOperation, PlanOrder, ReadNode } from '../plan/plan-types.js';
import type { QualifiedName, Routine } from '../schema/schema-types.js';
import { isToOne } from '../schema/find-relationship.js';
import { qualified, quoteIdent, type SqlParams } from './sql-params.js';

const JSON_TYPES = new Set(['json', 'jsonb']);

/**
 * `fn("t0"::"s"."table")`: a computed field or relationship applied to a row. The cast
 * picks the overload for that table and turns the row of a CTE (mutations, calls), a
 * plain record, into the table's type, as PostgREST does.
 */
export function computedCallSql(routine: Routine, alias: string): string {
  const row = routine.rowType ? `${quoteIdent(alias)}::${qualified(routine.rowType)}` : quoteIdent(alias);
  return `${qualified(routine)}(${row})`;
}

/** `"t0"."col"` with its JSON path; non-JSON columns go through to_jsonb first. */
export function columnSql(alias: string, ref: ColumnRef, params: SqlParams): string {
  let sql = ref.computed ? computedCallSql(ref.computed, alias) : `${quoteIdent(alias)}.${quoteIdent(ref.column.name)}`;
  if (ref.jsonPath.length === 0) return sql;
  if (!JSON_TYPES.has(ref.column.baseType)) sql = `to_jsonb(${sql})`;
  for (const step of ref.jsonPath) {
    // A key stays an untyped parameter, like PostgREST's quoted literal: PostgreSQL resolves it
    // to text against json(b), and names it "unknown" when no operator fits (`text -> unknown`
    // after a `->>`). An index is an integer, as PostgREST writes it.
    const operand =
      step.operand.kind === 'key' ? params.add(step.operand.value) : `${params.add(step.operand.value)}::int`;
    sql = `(${sql}${step.arrow}${operand})`;
  }
  return sql;
}

const QUANT_SQL = {
  eq: '=',
  gte: '>=',
  gt: '>',
  lte: '<=',
  lt: '<',
  like: 'LIKE',
  ilike: 'ILIKE',
  match: '~',
  imatch: '~*',
} as const;

const SIMPLE_SQL = {
  neq: '<>',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
} as const;

const FTS_FUNCTIONS = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
} as const;

const IS_SQL = {
  null: 'IS NULL',
  not_null: 'IS NOT NULL',
  true: 'IS TRUE',
  false: 'IS FALSE',
  unknown: 'IS UNKNOWN',
} as const;

/** `fn(arg)`: the function of a data representation (a cast between a domain and json or text). */
export function representationCall(fn: QualifiedName, arg: string): string {
  return `${qualified(fn)}(${arg})`;
}

/**
 * The `text AS domain` parser of a filtered column, for its value(s): the plain column only,
 * not a JSON path into it nor a computed field (PostgREST's resolved field has no transform).
 */
function textParser(ref: ColumnRef): QualifiedName | undefined {
  return ref.jsonPath.length === 0 && !ref.computed ? ref.column.representation?.fromText : undefined;
}

/** A bound filter value, through the column's text parser when it has one. */
function parsedValue(ref: ColumnRef, value: string, params: SqlParams): string {
  const parser = textParser(ref);
  return parser ? representationCall(parser, `${params.add(value)}::text`) : params.add(value);
}

function operationSql(lhs: string, ref: ColumnRef, operation: PlanOperation, params: SqlParams): string {
  switch (operation.kind) {
    case 'quant': {
      const op = QUANT_SQL[operation.op];
      // A pattern is not a value of the column's type: PostgREST leaves it unparsed.
      const value =
        operation.op === 'like' || operation.op === 'ilike'
          ? params.add(operation.value.replace(/\*/g, '%'))
          : parsedValue(ref, operation.value, params);
      if (operation.quantifier) return `${lhs} ${op} ${operation.quantifier.toUpperCase()}(${value})`;
      return `${lhs} ${op} ${value}`;
    }
    case 'simple':
      return `${lhs} ${SIMPLE_SQL[operation.op]} ${parsedValue(ref, operation.value, params)}`;
    case 'in': {
      // `in.()` parses as one empty value and means an empty list, as in PostgREST.
      if (operation.values.length === 1 && operation.values[0] === '') return `${lhs} = ANY(${params.add([])})`;
      const parser = textParser(ref);
      // Each value goes through the parser, the list staying one bound array.
      if (parser)
        return `${lhs} = ANY(SELECT ${representationCall(parser, `unnest(${params.add(operation.values)}::text[])`)})`;
      return `${lhs} = ANY(${params.add(operation.values)})`;
    }
    case 'is':
      return `${lhs} ${IS_SQL[operation.value]}`;
    case 'isdistinct':
      return `${lhs} IS DISTINCT FROM ${params.add(operation.value)}`;
    case 'fts': {
      const language = operation.language !== undefined ? `${params.add(operation.language)}::regconfig, ` : '';
      const vector =
        ref.column.baseType === 'tsvector' && ref.jsonPath.length === 0 ? lhs : `to_tsvector(${language}${lhs})`;
      return `${vector} @@ ${FTS_FUNCTIONS[operation.op]}(${language}${params.add(operation.value)})`;
    }
  }
}

/** Whether an embed's lateral produced a match (used by `!inner` and `rel=is.null`). */
export function embedExistsSql(child: ReadNode): string {
  const toOne = child.relationship !== undefined && isToOne(child.relationship);
  return toOne ? `(${quoteIdent(child.lateralAlias)}."m" IS NOT NULL)` : `(${quoteIdent(child.lateralAlias)}."n" > 0)`;
}

/** SQL for a condition tree on `node`. */
export function conditionSql(node: ReadNode, condition: PlanCondition, params: SqlParams): string {
  switch (condition.type) {
    case 'filter': {
      const lhs = columnSql(node.sqlAlias, condition.ref, params);
      const sql = operationSql(lhs, condition.ref, condition.operation, params);
      return condition.negated ? `NOT (${sql})` : `(${sql})`;
    }
    case 'embed-exists': {
      const sql = embedExistsSql(condition.child);
      return condition.negated ? `NOT ${sql}` : sql;
    }
    case 'logic': {
      const joined = condition.children
        .map((child) => conditionSql(node, child, params))
        .join(condition.op === 'and' ? ' AND ' : ' OR ');
      return condition.negated ? `NOT (${joined})` : `(${joined})`;
    }
  }
}

/** `ORDER BY` items of a node. */
export function orderSql(node: ReadNode, order: PlanOrder[], params: SqlParams): string[] {
  return order.map((term) => {
    let expr: string;
    if (term.child) {
      const index = term.child.exposedOrders.findIndex((exposed) => exposed.ref === term.ref);
      expr = `${quoteIdent(term.child.lateralAlias)}.${quoteIdent(`o${index}`)}`;
    } else expr = columnSql(node.sqlAlias, term.ref, params);
    const direction = term.direction === 'desc' ? ' DESC' : term.direction === 'asc' ? ' ASC' : '';
    const nulls = term.nulls === 'first' ? ' NULLS FIRST' : term.nulls === 'last' ? ' NULLS LAST' : '';
    return `${expr}${direction}${nulls}`;
  });
}
