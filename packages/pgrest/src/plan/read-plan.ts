import { aggregatesNotAllowed, notEmbedded, relatedOrderNotToOne, requestTooComplex } from '../errors/api-errors.js';
import type { EmbedPath, Field, LogicTree, OrderTerm, QueryParams, SelectItem } from '../parser/ast.js';
import { findRelationship, isToOne, type SeesName } from '../schema/find-relationship.js';
import {
  qualifiedKey,
  type Column,
  type QualifiedName,
  type Routine,
  type SchemaCache,
} from '../schema/schema-types.js';
import type {
  ColumnRef,
  ExposedOrder,
  PlanAggregate,
  PlanCondition,
  PlanOrder,
  PlanSelect,
  ReadNode,
} from './plan-types.js';
import { undefinedColumn, undefinedType, type DeferredErrors } from './resolve-errors.js';
import type { PgrstError } from '../errors/pgrst-error.js';

/** What the read planner needs beyond the request. */
export type PlanContext = {
  cache: SchemaCache;
  /** Schema of the request (profile-negotiated). */
  schema: string;
  maxRows?: number;
  /**
   * Called for every embedded relation (and the function of a computed relationship, which
   * runs too) before any SQL runs; throws to refuse.
   */
  authorizeEmbed?: (target: EmbedTarget) => void;
  /**
   * Whether the request may see a relation or function (the host's `authorize` hook does not
   * hide it): a hidden one is no embedding candidate and no computed field, as if missing.
   */
  visible?: SeesName;
  /** Upper bound on embedded resources in one request. */
  maxEmbeds: number;
  /** Whether `select` may use aggregate functions (PostgREST's `db-aggregates-enabled`). */
  aggregates: boolean;
  /** Columns of a relation read through a function (the engine's `readThrough` option). */
  readThrough?: (relation: QualifiedName) => Readonly<Record<string, QualifiedName>> | undefined;
  /**
   * Where unknown columns (42703) and types (42704) are kept instead of thrown, for the caller
   * to raise once its other checks passed (see {@link DeferredErrors}). Without it they throw.
   */
  deferred?: DeferredErrors;
};

/** The columns of `relation` read through a function, when the host names any. */
function readThroughOf(ctx: PlanContext, relation: QualifiedName): ReadonlyMap<string, QualifiedName> | undefined {
  const columns = ctx.readThrough?.({ schema: relation.schema, name: relation.name });
  if (!columns) return undefined;
  const entries = Object.entries(columns);
  return entries.length > 0 ? new Map(entries) : undefined;
}

/** Something an embed reads: a relation, or the function of a computed relationship. */
export type EmbedTarget = QualifiedName & { kind: 'relation' | 'function' };

/** The relation at the root of the tree. */
export type RootSource = {
  relation: QualifiedName;
  columns: Map<string, Column>;
  requestName: string;
  computed?: Map<string, Routine>;
};

/** How the plan will be used: mutations and calls read from a CTE, and mutations take no ranges. */
export type PlanMode = 'read' | 'mutate' | 'call';

type Counter = { tables: number; laterals: number; embeds: number };

function pathKey(path: EmbedPath): string {
  return path.join('.');
}

function hasAggregate(items: SelectItem[]): boolean {
  return items.some((item) => (item.type === 'field' ? item.aggregate !== undefined : hasAggregate(item.children)));
}

function newNode(
  base: Pick<ReadNode, 'relation' | 'columns' | 'requestName' | 'depth'> & Partial<ReadNode>,
  counter: Counter,
): ReadNode {
  const index = counter.tables;
  counter.tables += 1;
  return {
    outputName: base.alias ?? base.requestName,
    star: false,
    select: [],
    where: [],
    order: [],
    offset: 0n,
    children: [],
    joinType: 'left',
    spread: false,
    sqlAlias: `t${index}`,
    lateralAlias: `l${index}`,
    exposedOrders: [],
    usedInWhere: false,
    grouped: false,
    ...base,
    computed: base.computed ?? new Map(),
  };
}

/** Finds the node an embed path designates, by alias first and relation name second. */
function findNode(root: ReadNode, path: EmbedPath): ReadNode {
  let node = root;
  for (const segment of path) {
    const next =
      node.children.find((child) => (child.alias ?? child.requestName) === segment) ??
      node.children.find((child) => child.requestName === segment);
    if (!next) throw notEmbedded(segment);
    node = next;
  }
  return node;
}

/**
 * How names are resolved while planning: computed fields are authorized as they are met, and a
 * name PostgreSQL would refuse is kept (when the context defers) or thrown.
 */
type Resolver = {
  useComputed: UseComputed;
  unknown: (error: PgrstError) => void;
  /** A computed field whose function the host hides: no field at all. */
  hidden: (routine: Routine) => boolean;
};

function resolverOf(ctx: Pick<PlanContext, 'authorizeEmbed' | 'deferred' | 'visible'>): Resolver {
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

/**
 * Builds the resolved read tree for a request, in PostgREST's order: select tree, then
 * filters, orders, ranges and logic trees placed on their embed level (PGRST108 when the
 * level is not embedded), then relationships (PGRST200/201), names (42703, 42704: kept in
 * `ctx.deferred` when given, as PostgreSQL reports them only once the statement runs), related
 * orders (PGRST118) and null-embed filters; finally `maxRows` caps every level.
 */
export function buildReadPlan(ctx: PlanContext, root: RootSource, params: QueryParams, mode: PlanMode): ReadNode {
  const counter: Counter = { tables: 0, laterals: 0, embeds: 0 };
  const rootNode = newNode({ ...root, depth: 0 }, counter);
  const rootThrough = readThroughOf(ctx, root.relation);
  if (rootThrough) rootNode.readThrough = rootThrough;
  const pendingSelects = new Map<ReadNode, SelectItem[]>();
  const resolver = resolverOf(ctx);

  const addChildren = (node: ReadNode, items: SelectItem[]): void => {
    const fields: SelectItem[] = [];
    for (const item of items) {
      if (item.type === 'field') {
        fields.push(item);
        continue;
      }
      counter.embeds += 1;
      if (counter.embeds > ctx.maxEmbeds) {
        throw requestTooComplex(`more than ${ctx.maxEmbeds} embedded resources`);
      }
      const child = newNode(
        {
          relation: { schema: ctx.schema, name: item.relation },
          columns: new Map(),
          requestName: item.relation,
          ...(item.type === 'relation' && item.alias !== undefined ? { alias: item.alias } : {}),
          ...(item.hint !== undefined ? { hint: item.hint } : {}),
          joinType: item.joinType ?? 'left',
          spread: item.type === 'spread',
          depth: node.depth + 1,
        },
        counter,
      );
      node.children.push(child);
      addChildren(child, item.children);
    }
    pendingSelects.set(node, fields);
  };
  addChildren(rootNode, params.select);

  // Filters, orders, ranges and logic go to their level before relationships are known,
  // so a misplaced one fails with PGRST108 first, as in PostgREST.
  const pendingFilters: { node: ReadNode; field: Field; negated: boolean; operation: LogicTree }[] = [];
  for (const { path, filter } of params.filters) {
    if (mode === 'mutate' && path.length === 0) continue;
    const node = findNode(rootNode, path);
    pendingFilters.push({
      node,
      field: filter.field,
      negated: filter.expr.negated,
      operation: { type: 'filter', filter },
    });
  }
  const seenOrders = new Set<string>();
  const pendingOrders: { node: ReadNode; terms: OrderTerm[] }[] = [];
  for (const { path, terms } of params.order) {
    const node = findNode(rootNode, path);
    // The first order parameter for a level wins, as in PostgREST.
    if (seenOrders.has(pathKey(path))) continue;
    seenOrders.add(pathKey(path));
    pendingOrders.push({ node, terms });
  }
  if (mode !== 'mutate') {
    for (const [key, range] of params.ranges) {
      const node = findNode(rootNode, key === '' ? [] : key.split('.'));
      node.offset = range.offset;
      if (range.limit !== undefined) node.limit = range.limit;
      else delete node.limit;
    }
  }
  const pendingLogic: { node: ReadNode; tree: LogicTree }[] = [];
  for (const { path, tree } of params.logic) {
    if (mode === 'mutate' && path.length === 0) continue;
    pendingLogic.push({ node: findNode(rootNode, path), tree });
  }

  resolveRelationships(ctx, rootNode);
  // After relationships and before columns, as PostgREST validates them.
  if (!ctx.aggregates && hasAggregate(params.select)) throw aggregatesNotAllowed();

  const resolveNode = (node: ReadNode): void => {
    for (const item of pendingSelects.get(node) ?? []) {
      if (item.type !== 'field') continue;
      const select = resolveSelect(ctx.cache, node, item, resolver);
      // As PostgREST does, `*` is spelled out (in place) when a column has a JSON
      // representation, so that its values can be formatted.
      if (select === 'star' && hasJsonRepresentation(node.columns)) node.select.push(...starSelects(node));
      else if (select === 'star') node.star = true;
      else node.select.push(select);
    }
    // A spread lifts named columns into the parent, so `*` is spelled out.
    if (node.spread && node.star) expandStar(node);
    node.children.forEach(resolveNode);
  };
  resolveNode(rootNode);
  placeAggregates(rootNode);

  for (const pending of pendingFilters) {
    pending.node.where.push(resolveCondition(pending.node, pending.operation, resolver));
  }
  for (const pending of pendingLogic) pending.node.where.push(resolveCondition(pending.node, pending.tree, resolver));
  for (const { node, terms } of pendingOrders) node.order = terms.map((term) => resolveOrder(node, term, resolver));

  if (mode !== 'mutate' && ctx.maxRows !== undefined) {
    const cap = BigInt(ctx.maxRows);
    const restrict = (node: ReadNode): void => {
      if (node.limit === undefined || node.limit > cap) node.limit = cap;
      node.children.forEach(restrict);
    };
    restrict(rootNode);
  }
  return rootNode;
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
function resolveSelect(cache: SchemaCache, node: ReadNode, item: FieldItem, resolver: Resolver): PlanSelect | 'star' {
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
function starSelects(node: ReadNode): PlanSelect[] {
  return [...node.columns.values()].map((column) => ({ ref: { column, jsonPath: [] }, outputName: column.name }));
}

function hasJsonRepresentation(columns: Map<string, Column>): boolean {
  for (const column of columns.values()) if (column.representation?.toJson) return true;
  return false;
}

/** Replaces `*` by the relation's columns, ahead of the named selects. */
function expandStar(node: ReadNode): void {
  node.select = [...starSelects(node), ...node.select];
  node.star = false;
}

/**
 * Decides where aggregates apply: a to-one spread hoists its aggregates (and those hoisted
 * into it) to the node it is spread into, as PostgREST 14 does; any other node left with
 * aggregates, a to-many spread included, is grouped by its other outputs, with `*` spelled
 * out so it can be. A to-many spread's groups then become its arrays, one entry per group, as
 * its rows do without aggregates (PostgREST 14 refuses this with PGRST127). Returns whether
 * `node` hoists aggregates into its parent.
 */
function placeAggregates(node: ReadNode): boolean {
  let hoisted = false;
  for (const child of node.children) {
    if (placeAggregates(child)) hoisted = true;
  }
  const own = node.select.some((select) => select.aggregate !== undefined);
  const toOneSpread = node.spread && (node.relationship === undefined || isToOne(node.relationship));
  if (toOneSpread) return own || hoisted;
  node.grouped = own || hoisted;
  if (node.grouped && node.star) expandStar(node);
  return false;
}

function resolveRelationships(ctx: PlanContext, node: ReadNode): void {
  for (const child of node.children) {
    const relationship = findRelationship(
      ctx.cache,
      node.relation.schema,
      node.relation.name,
      child.requestName,
      child.hint,
      ctx.visible,
    );
    child.relationship = relationship;
    child.relation = relationship.foreignTable;
    const through = readThroughOf(ctx, relationship.foreignTable);
    if (through) child.readThrough = through;
    const table = ctx.cache.tables.get(qualifiedKey(relationship.foreignTable));
    child.columns = table?.columnsByName ?? new Map();
    child.computed = table?.computedFields ?? new Map();
    const card = relationship.cardinality;
    // A computed relationship runs its function, which is authorized like a call.
    if (card.kind === 'computed') ctx.authorizeEmbed?.({ ...card.function, kind: 'function' });
    ctx.authorizeEmbed?.({ ...relationship.foreignTable, kind: 'relation' });
    // A many-to-many embed also reads the junction table.
    if (card.kind === 'm2m') ctx.authorizeEmbed?.({ ...card.junction.table, kind: 'relation' });
    if (child.joinType === 'inner') child.usedInWhere = true;
    resolveRelationships(ctx, child);
  }
}

function resolveCondition(node: ReadNode, tree: LogicTree, resolver: Resolver): PlanCondition {
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

function resolveOrder(node: ReadNode, term: OrderTerm, resolver: Resolver): PlanOrder {
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

/**
 * Root-level filters, logic trees and order of a mutation: they select the rows to
 * change (UPDATE/DELETE), so they apply to the table itself, not to the response.
 */
export function resolveTargetConditions(
  target: RootSource,
  params: QueryParams,
  authorizeEmbed?: PlanContext['authorizeEmbed'],
  deferred?: DeferredErrors,
  visible?: SeesName,
): { conditions: PlanCondition[]; order: PlanOrder[] } {
  const node = newNode({ ...target, depth: 0 }, { tables: 0, laterals: 0, embeds: 0 });
  const resolver = resolverOf({
    ...(authorizeEmbed ? { authorizeEmbed } : {}),
    ...(deferred ? { deferred } : {}),
    ...(visible ? { visible } : {}),
  });
  const conditions: PlanCondition[] = [];
  for (const { path, filter } of params.filters) {
    if (path.length === 0) conditions.push(resolveCondition(node, { type: 'filter', filter }, resolver));
  }
  for (const { path, tree } of params.logic) {
    if (path.length === 0) conditions.push(resolveCondition(node, tree, resolver));
  }
  const rootOrder = params.order.find((entry) => entry.path.length === 0);
  // A related order (`users(name)`) names an embed of the response: it orders the returned
  // rows only, never which rows change.
  const ownTerms = rootOrder?.terms.filter((term) => term.relation === undefined) ?? [];
  const order = ownTerms.map((term) => resolveOrder(node, term, resolver));
  return { conditions, order };
}
