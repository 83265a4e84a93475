import { aggregatesNotAllowed, requestTooComplex } from '../errors/api-errors.js';
import type { EmbedPath, Field, LogicTree, OrderTerm, QueryParams, SelectItem } from '../parser/ast.js';
import type { SeesName } from '../schema/find-relationship.js';
import { type Counter, findNode, newNode, placeAggregates, readThroughOf, resolveRelationships } from './embed-plan.js';
import type { PlanContext, PlanMode, RootSource } from './plan-context.js';
import type { PlanCondition, PlanOrder, ReadNode } from './plan-types.js';
import type { DeferredErrors } from './resolve-errors.js';
import {
  expandStar,
  hasJsonRepresentation,
  resolveCondition,
  resolveOrder,
  resolverOf,
  resolveSelect,
  starSelects,
} from './resolve-fields.js';

// The planner's types and pieces live in their own modules; importers keep reading the types
// from here.
export type { EmbedTarget, PlanContext, PlanMode, RootSource } from './plan-context.js';

function pathKey(path: EmbedPath): string {
  return path.join('.');
}

function hasAggregate(items: SelectItem[]): boolean {
  return items.some((item) => (item.type === 'field' ? item.aggregate !== undefined : hasAggregate(item.children)));
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
