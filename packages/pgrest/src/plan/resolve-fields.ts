import { notEmbedded, relatedOrderNotToOne } from '../errors/api-errors.js';
import type { PgrstError } from '../errors/pgrst-error.js';
import type { Field, LogicTree, OrderTerm, SelectItem } from '../parser/ast.js';
import { isToOne } from '../schema/find-relationship.js';
import type { Column, QualifiedName, Routine, SchemaCache } from '../schema/schema-types.js';
import type { PlanContext } from './plan-context.js';
import type {
  ColumnRef,
  ExposedOrder,
  PlanAggregate,
  PlanCondition,
  PlanOrder,
  PlanSelect,
  ReadNode,
} from './plan-types.js';
import { undefinedColumn, undefinedType } from './resolve-errors.js';

// Names of a request resolved on a planned node: selected fields, filters and orders.

/**
 * How names are resolved while planning: computed fields are authorized as they are met, and a
 * name PostgreSQL would refuse is kept (when the context defers) or thrown.
 */
export type Resolver = {
  useComputed: UseComputed;
  unknown: (error: PgrstError) => void;
  /** A computed field whose function the host hides: no field at all. */
  hidden: (routine: Routine) => boolean;
};

export function resolverOf(ctx: Pick<PlanContext, 'authorizeEmbed' | 'deferred' | 'visible'>): Resolver {
  const deferred = ctx.deferred;
  const visible = ctx.visible;
  return {
    hidden: visible
      ? (routine) => !visible({ schema: routine.schema, name: routine.name, kind: 'function' })
      : () => false,
    useComputed: computedAuthorizer(ctx.authorizeEmbed),
    unknown: deferred
      ? (error) => deferred.note(error)
      : (error) => {
          throw error;
        },
  };
}

/** Stands for an unknown column once its error is kept: planning goes on, no SQL will run. */
function unresolvedColumn(name: string): Column {
  return { name, type: 'unknown', baseType: 'unknown', nullable: true, default: null, position: 0, generated: true };
}

function resolveColumn(node: ReadNode, field: Field, resolver: Resolver): ColumnRef {
  const column = node.columns.get(field.name);
  if (column) return { column, jsonPath: field.jsonPath };
  const computed = node.computed.get(field.name);
  if (computed && !resolver.hidden(computed)) {
    resolver.useComputed(computed);
    const type = computed.returns.type;
    return {
      column: { name: field.name, type, baseType: type, nullable: true, default: null, position: 0, generated: true },
      jsonPath: field.jsonPath,
      computed,
    };
  }
  resolver.unknown(undefinedColumn(node.relation.name, field.name, node.columns.keys()));
  return { column: unresolvedColumn(field.name), jsonPath: field.jsonPath };
}

function resolveCast(cache: SchemaCache, name: string, resolver: Resolver): QualifiedName {
  const found = cache.types.get(name.toLowerCase());
  if (found) return found;
  resolver.unknown(undefinedType(name));
  return { schema: 'pg_catalog', name };
}

/** Default output key of a selected field: alias, else last JSON key, else column. */
function outputNameOf(field: Field, alias: string | undefined): string {
  if (alias !== undefined) return alias;
  const path = field.jsonPath;
  if (path.length === 0) return field.name;
  const last = path[path.length - 1];
  if (last?.operand.kind === 'key') return last.operand.value;
  for (let index = path.length - 1; index >= 0; index -= 1) {
    const operation = path[index];
    if (operation?.operand.kind === 'key') return operation.operand.value;
  }
  return field.name;
}

/** Called with the function of each computed field a plan uses. */
type UseComputed = (routine: Routine) => void;

/**
 * A computed field runs its function on every row, so using one (in select, a filter or an
 * order) is authorized like the function of a computed relationship: once per plan and function.
 */
function computedAuthorizer(authorizeEmbed: PlanContext['authorizeEmbed']): UseComputed {
  if (!authorizeEmbed) return () => undefined;
  const seen = new Set<Routine>();
  return (routine) => {
    if (seen.has(routine)) return;
    seen.add(routine);
    authorizeEmbed({ schema: routine.schema, name: routine.name, kind: 'function' });
  };
}

type FieldItem = Extract<SelectItem, { type: 'field' }>;

/**
 * `t.count` without a `count` column: PostgreSQL reads it as `count(t)`, so PostgREST
 * answers `select=count` and `rel(count)` with a row count, aggregates enabled or not.
 */
function isBareCount(node: ReadNode, item: FieldItem): boolean {
  return (
    item.aggregate === undefined &&
    item.field.name === 'count' &&
    item.field.jsonPath.length === 0 &&
    !node.columns.has('count') &&
    !node.computed.has('count')
  );
}

function aggregateOf(
  cache: SchemaCache,
  fn: PlanAggregate['fn'],
  cast: string | undefined,
  resolver: Resolver,
): PlanAggregate {
  return cast !== undefined ? { fn, cast: resolveCast(cache, cast, resolver) } : { fn };
}

/** One `select` field of `node`: `*`, a column or computed field, or an aggregate. */
export function resolveSelect(
  cache: SchemaCache,
  node: ReadNode,
  item: FieldItem,
  resolver: Resolver,
): PlanSelect | 'star' {
  const { field } = item;
  if (field.name === '*' && field.jsonPath.length === 0) {
    if (item.aggregate === undefined) return 'star';
    // `count()`: PostgreSQL names the column after the function.
    return {
      ref: null,
      outputName: item.alias ?? 'count',
      aggregate: aggregateOf(cache, 'count', item.aggregateCast, resolver),
    };
  }
  if (isBareCount(node, item)) {
    // `count::text` casts the count, as `CAST(t.count AS text)` does in PostgreSQL.
    return {
      ref: null,
      outputName: item.alias ?? 'count',
      aggregate: aggregateOf(cache, 'count', item.cast, resolver),
    };
  }
  const ref = resolveColumn(node, field, resolver);
  if (item.aggregate !== undefined) {
    // An aggregate's column is named after the function unless aliased, in PostgreSQL too.
    const select: PlanSelect = {
      ref,
      outputName: item.alias ?? item.aggregate,
      aggregate: aggregateOf(cache, item.aggregate, item.aggregateCast, resolver),
    };
    if (item.cast !== undefined) select.cast = resolveCast(cache, item.cast, resolver);
    return select;
  }
  const select: PlanSelect = { ref, outputName: outputNameOf(field, item.alias) };
  if (item.cast !== undefined) select.cast = resolveCast(cache, item.cast, resolver);
  return select;
}

/** The relation's columns, as `*` selects them. */
export function starSelects(node: ReadNode): PlanSelect[] {
  return [...node.columns.values()].map((column) => ({ ref: { column, jsonPath: [] }, outputName: column.name }));
}

export function hasJsonRepresentation(columns: Map<string, Column>): boolean {
  for (const column of columns.values()) if (column.representation?.toJson) return true;
  return false;
}

/** Replaces `*` by the relation's columns, ahead of the named selects. */
export function expandStar(node: ReadNode): void {
  node.select = [...starSelects(node), ...node.select];
  node.star = false;
}

export function resolveCondition(node: ReadNode, tree: LogicTree, resolver: Resolver): PlanCondition {
  if (tree.type === 'logic') {
    return {
      type: 'logic',
      op: tree.op,
      negated: tree.negated,
      children: tree.children.map((child) => resolveCondition(node, child, resolver)),
    };
  }
  const { field, expr } = tree.filter;
  const child =
    field.jsonPath.length === 0 ? node.children.find((candidate) => candidate.outputName === field.name) : undefined;
  if (child && expr.operation.kind === 'is' && expr.operation.value === 'null') {
    child.usedInWhere = true;
    // `rel=is.null` keeps rows without a match; `rel=not.is.null` rows with one.
    return { type: 'embed-exists', child, negated: !expr.negated };
  }
  return {
    type: 'filter',
    ref: resolveColumn(node, field, resolver),
    negated: expr.negated,
    operation: expr.operation,
  };
}

export function resolveOrder(node: ReadNode, term: OrderTerm, resolver: Resolver): PlanOrder {
  const modifiers = {
    ...(term.direction !== undefined ? { direction: term.direction } : {}),
    ...(term.nulls !== undefined ? { nulls: term.nulls } : {}),
  };
  if (term.relation === undefined) return { ref: resolveColumn(node, term.field, resolver), ...modifiers };
  const relationName = term.relation;
  const child = node.children.find((candidate) => candidate.outputName === relationName);
  if (!child) throw notEmbedded(relationName);
  // A to-one spread can order its parent too: its lateral exposes the column.
  if (!child.relationship || !isToOne(child.relationship)) {
    throw relatedOrderNotToOne(node.relation.name, relationName);
  }
  const exposed = relatedOrderTarget(child, term.field, resolver);
  child.exposedOrders.push(exposed);
  return { child, ref: exposed.ref, ...modifiers };
}

/**
 * What a related order `rel(name)` orders by. PostgREST orders by the column of that name in
 * the embed's lateral subquery, whose columns are the embed's outputs: an alias given inside
 * the embed (`...authors(author:name)`, then `order=authors(author)`) names the aliased value,
 * cast included. Otherwise the name is a column of the related relation (also when it is not
 * selected, which PostgREST would refuse).
 */
function relatedOrderTarget(child: ReadNode, field: Field, resolver: Resolver): ExposedOrder {
  const aliased = child.select.find(
    (select) =>
      select.outputName === field.name &&
      select.ref !== null &&
      select.aggregate === undefined &&
      (select.cast === undefined || field.jsonPath.length === 0),
  );
  if (aliased?.ref) {
    const ref: ColumnRef = { ...aliased.ref, jsonPath: [...aliased.ref.jsonPath, ...field.jsonPath] };
    return aliased.cast ? { ref, cast: aliased.cast } : { ref };
  }
  return { ref: resolveColumn(child, field, resolver) };
}
