import { notEmbedded } from '../errors/api-errors.js';
import type { EmbedPath } from '../parser/ast.js';
import { findRelationship, isToOne } from '../schema/find-relationship.js';
import { qualifiedKey, type QualifiedName } from '../schema/schema-types.js';
import type { PlanContext } from './plan-context.js';
import type { ReadNode } from './plan-types.js';
import { expandStar } from './resolve-fields.js';

// The nodes of the read tree and the embeds below the root: their relationships, the relations
// they read (authorized as they are found) and where their aggregates apply.

/** The columns of `relation` read through a function, when the host names any. */
export function readThroughOf(
  ctx: PlanContext,
  relation: QualifiedName,
): ReadonlyMap<string, QualifiedName> | undefined {
  const columns = ctx.readThrough?.({ schema: relation.schema, name: relation.name });
  if (!columns) return undefined;
  const entries = Object.entries(columns);
  return entries.length > 0 ? new Map(entries) : undefined;
}

export type Counter = { tables: number; laterals: number; embeds: number };

export function newNode(
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
export function findNode(root: ReadNode, path: EmbedPath): ReadNode {
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
 * Decides where aggregates apply: a to-one spread hoists its aggregates (and those hoisted
 * into it) to the node it is spread into, as PostgREST 14 does; any other node left with
 * aggregates, a to-many spread included, is grouped by its other outputs, with `*` spelled
 * out so it can be. A to-many spread's groups then become its arrays, one entry per group, as
 * its rows do without aggregates (PostgREST 14 refuses this with PGRST127). Returns whether
 * `node` hoists aggregates into its parent.
 */
export function placeAggregates(node: ReadNode): boolean {
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

export function resolveRelationships(ctx: PlanContext, node: ReadNode): void {
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
