import type { PlanAggregate, PlanSelect, ReadNode } from '../plan/plan-types.js';
import { isToOne } from '../schema/find-relationship.js';
import { columnSql, conditionSql, embedExistsSql, orderSql, representationCall } from './condition-sql.js';
import { qualified, quoteIdent, type SqlParams } from './sql-params.js';

/*
 * SELECT generation for a read tree. An embed that only contributes its output becomes a
 * correlated subquery in its parent's select list: one object (`row_to_json`) for to-one,
 * an array (`json_agg`, `[]` when empty) for to-many, each as `jsonb`, as PostgREST renders
 * embeds (so their keys come in jsonb's order, shorter first, a repeated key keeps its last
 * value, and the text has jsonb's spacing, `{"id": 1, "name": "a"}`). PostgreSQL plans such a subquery on
 * its own and runs it only for the rows the parent returns, where a join makes the planner
 * search join orders (planning then costs more than running a paged read). Embeds that
 * also filter (`!inner`, `rel=is.null`), order the parent or are spread become a LATERAL
 * subquery joined to the parent instead, which yields the row the condition or the parent
 * ORDER BY refers to. Internal aliases (t0, l1, c0, o0, m, n, body) are
 * generated, so request text reaches SQL only as quoted output names and bound values.
 */

/** One output expression of a SELECT list and the key it is published under. */
type Item = { sql: string; name: string };

/** Items, lateral joins and GROUP BY terms of a node, relative to its SQL alias. */
type SelectParts = { items: Item[]; joins: string[]; groupBy: string[] };

/** One column a spread lifts into its parent. */
type LiftedOutput = {
  name: string;
  /** Hoisted from a to-one spread: applied where the column lands. */
  aggregate?: PlanAggregate;
  /** Built as JSON by the engine (an embed, or a to-many spread's array). */
  json: boolean;
};

const AGGREGATE_SQL = { avg: 'avg', count: 'count', max: 'max', min: 'min', sum: 'sum' } as const;

function hasOutput(node: ReadNode): boolean {
  return node.star || node.select.length > 0 || node.children.some(hasOutput);
}

/** Columns a spread lifts into its parent, its nested spreads' included. */
function liftedOutputs(node: ReadNode): LiftedOutput[] {
  const toMany = node.relationship !== undefined && !isToOne(node.relationship);
  // A to-many spread applies its aggregates itself (it is grouped): its outputs are arrays.
  const outputs: LiftedOutput[] = node.select.map((select) =>
    select.aggregate !== undefined && !toMany
      ? { name: select.outputName, aggregate: select.aggregate, json: false }
      : { name: select.outputName, json: toMany },
  );
  for (const child of node.children) {
    if (!hasOutput(child)) continue;
    if (!child.spread) outputs.push({ name: child.outputName, json: true });
    else for (const output of liftedOutputs(child)) outputs.push(toMany ? { name: output.name, json: true } : output);
  }
  return outputs;
}

/** `sum(value)`, with the aggregate's output cast. */
function aggregateSql(aggregate: PlanAggregate, value: string): string {
  const sql = `${AGGREGATE_SQL[aggregate.fn]}(${value})`;
  return aggregate.cast ? `CAST(${sql} AS ${qualified(aggregate.cast)})` : sql;
}

/** One selected output; a to-one spread leaves its aggregates to the node it lands in. */
function selectSql(node: ReadNode, select: PlanSelect, params: SqlParams): { sql: string; aggregated: boolean } {
  const aggregate = node.spread && !node.grouped ? undefined : select.aggregate;
  if (select.ref === null) {
    // `count()`: counts rows; a spread marks its matched rows for the count above it.
    return aggregate ? { sql: aggregateSql(aggregate, '*'), aggregated: true } : { sql: 'TRUE', aggregated: false };
  }
  let sql = columnSql(node.sqlAlias, select.ref, params);
  // A domain's `AS json` representation formats the value, before any cast or aggregate
  // (as in PostgREST, `col::text` is the text of the formatted JSON).
  const format =
    select.ref.jsonPath.length === 0 && !select.ref.computed ? select.ref.column.representation?.toJson : undefined;
  if (format) sql = representationCall(format, sql);
  if (select.cast) sql = `CAST(${sql} AS ${qualified(select.cast)})`;
  return aggregate ? { sql: aggregateSql(aggregate, sql), aggregated: true } : { sql, aggregated: false };
}

/**
 * Items, lateral joins and, for a grouped node, its GROUP BY: the positions of the outputs
 * that are not aggregates (embeds are jsonb, which has equality) and the columns its
 * to-one embeds expose to the ORDER BY. Embeds of a grouped node are joins, since a
 * correlated subquery could not refer to its ungrouped columns.
 */
function selectParts(node: ReadNode, params: SqlParams): SelectParts {
  const items: Item[] = [];
  const groupBy: string[] = [];
  const grouped = node.grouped;
  if (node.star) items.push({ sql: `${quoteIdent(node.sqlAlias)}.*`, name: '*' });
  for (const select of node.select) {
    const { sql, aggregated } = selectSql(node, select, params);
    items.push({ sql, name: select.outputName });
    if (grouped && !aggregated) groupBy.push(String(items.length));
  }
  const joins: string[] = [];
  for (const child of node.children) {
    const output = hasOutput(child);
    if (!output && !child.usedInWhere && child.exposedOrders.length === 0) continue;
    if (output && !grouped && inlinable(child)) {
      items.push({ sql: embedSubquerySql(node, child, params), name: child.outputName });
      continue;
    }
    joins.push(lateralJoin(node, child, params));
    const lateral = quoteIdent(child.lateralAlias);
    if (grouped) child.exposedOrders.forEach((_, index) => groupBy.push(`${lateral}.${quoteIdent(`o${index}`)}`));
    if (!output) continue;
    const toOne = child.relationship !== undefined && isToOne(child.relationship);
    if (child.spread) {
      liftedOutputs(child).forEach((lifted, index) => {
        const column = `${lateral}.${quoteIdent(`c${index}`)}`;
        // A to-one spread passes hoisted aggregates on, raw, to the node it is spread into.
        if (lifted.aggregate && (!node.spread || node.grouped)) {
          items.push({ sql: aggregateSql(lifted.aggregate, column), name: lifted.name });
          return;
        }
        const sql = toOne ? column : `COALESCE(${column}, '[]'::jsonb)`;
        items.push({ sql, name: lifted.name });
        if (grouped) groupBy.push(String(items.length));
      });
    } else {
      const body = `${lateral}."body"`;
      items.push({ sql: toOne ? body : `COALESCE(${body}, '[]'::jsonb)`, name: child.outputName });
      if (grouped) groupBy.push(String(items.length));
    }
  }
  return { items, joins, groupBy };
}

function groupBySql(groupBy: string[]): string {
  return groupBy.length > 0 ? ` GROUP BY ${groupBy.join(', ')}` : '';
}

function renderItems(items: Item[], positional: boolean): string {
  return items
    .map((item, index) => {
      if (item.name === '*' && item.sql.endsWith('.*')) return item.sql;
      return `${item.sql} AS ${quoteIdent(positional ? `c${index}` : item.name)}`;
    })
    .join(', ');
}

/** Join conditions tying an embed to its parent (through the junction for many-to-many). */
function joinParts(parent: ReadNode, child: ReadNode): { junction: string; conditions: string[] } {
  const relationship = child.relationship;
  if (!relationship) return { junction: '', conditions: [] };
  const parentAlias = quoteIdent(parent.sqlAlias);
  const childAlias = quoteIdent(child.sqlAlias);
  const card = relationship.cardinality;
  if (card.kind === 'm2m') {
    const junctionAlias = quoteIdent(`j${child.sqlAlias.slice(1)}`);
    const on = card.junction.targetColumns
      .map(
        ([target, junctionColumn]) =>
          `${junctionAlias}.${quoteIdent(junctionColumn)} = ${childAlias}.${quoteIdent(target)}`,
      )
      .join(' AND ');
    return {
      junction: ` INNER JOIN ${qualified(card.junction.table)} AS ${junctionAlias} ON ${on}`,
      conditions: card.junction.sourceColumns.map(
        ([source, junctionColumn]) =>
          `${junctionAlias}.${quoteIdent(junctionColumn)} = ${parentAlias}.${quoteIdent(source)}`,
      ),
    };
  }
  // A computed relationship is joined by calling its function on the parent row.
  if (card.kind === 'computed') return { junction: '', conditions: [] };
  return {
    junction: '',
    conditions: card.columns.map(
      ([parentColumn, childColumn]) =>
        `${childAlias}.${quoteIdent(childColumn)} = ${parentAlias}.${quoteIdent(parentColumn)}`,
    ),
  };
}

function rangeSql(node: ReadNode, params: SqlParams): string {
  let sql = '';
  if (node.limit !== undefined) sql += params.limit(node.limit);
  if (node.offset !== 0n) sql += ` OFFSET ${params.add(node.offset)}`;
  return sql;
}

/**
 * Whether an embed can be a subquery in the select list: it contributes only its output
 * (no parent filter, order or spread refers to it), and a to-one embed's target is a table,
 * whose key guarantees at most one row (a view may repeat a key, which a join turns into
 * repeated parent rows and a scalar subquery into an error).
 */
function inlinable(child: ReadNode): boolean {
  const relationship = child.relationship;
  if (!relationship || child.spread || child.usedInWhere || child.joinType === 'inner') return false;
  if (child.exposedOrders.length > 0) return false;
  // A to-one computed relationship is a function whose row count nothing enforces.
  if (relationship.cardinality.kind === 'computed') return !relationship.cardinality.toOne;
  return !isToOne(relationship) || !relationship.foreignTableIsView;
}

/**
 * `source` (a relation, a function call or a CTE of the node's rows) as the node reads it:
 * unchanged, or, when the host reads some of its columns through functions (`readThrough`),
 * a subquery applying them that passes every other column on as it is, in the relation's
 * order, so `*`, row casts, filters, orders and JSON paths all see the functions' values.
 * PostgreSQL pulls such a subquery up into the query, so filters on the other columns still
 * use their indexes.
 */
function throughSql(node: ReadNode, source: string): string {
  const through = node.readThrough;
  if (!through) return source;
  const columns = [...node.columns.values()]
    .sort((a, b) => a.position - b.position)
    .map((column) => {
      const value = `"_s".${quoteIdent(column.name)}`;
      const fn = through.get(column.name);
      return fn ? `${qualified(fn)}(${value}) AS ${quoteIdent(column.name)}` : value;
    });
  return `(SELECT ${columns.join(', ')} FROM ${source} AS "_s")`;
}

/** What an embed reads: its relation, or its computed relationship's function of the parent row. */
function embedSourceSql(parent: ReadNode, child: ReadNode): string {
  const card = child.relationship?.cardinality;
  if (card?.kind === 'computed' && child.relationship) {
    const row = `${quoteIdent(parent.sqlAlias)}::${qualified(child.relationship.table)}`;
    return throughSql(child, `${qualified(card.function)}(${row})`);
  }
  return throughSql(child, qualified(child.relation));
}

/** The FROM … WHERE … GROUP BY … ORDER BY … LIMIT of an embed, correlated to its parent. */
function embedFromSql(parent: ReadNode, child: ReadNode, parts: SelectParts, params: SqlParams): string {
  const { junction, conditions } = joinParts(parent, child);
  const where = [...conditions, ...child.where.map((condition) => conditionSql(child, condition, params))];
  const from = `${embedSourceSql(parent, child)} AS ${quoteIdent(child.sqlAlias)}${junction}${parts.joins.map((join) => ` ${join}`).join('')}`;
  return `${from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}${groupBySql(parts.groupBy)}${
    child.order.length > 0 ? ` ORDER BY ${orderSql(child, child.order, params).join(', ')}` : ''
  }${rangeSql(child, params)}`;
}

/** An embed as a correlated subquery: its object (to-one) or array (to-many). */
function embedSubquerySql(parent: ReadNode, child: ReadNode, params: SqlParams): string {
  const parts = selectParts(child, params);
  const { items } = parts;
  const from = embedFromSql(parent, child, parts, params);
  if (child.relationship !== undefined && isToOne(child.relationship)) {
    return `(SELECT row_to_json("_x")::jsonb FROM (SELECT ${renderItems(items, false)} FROM ${from}) AS "_x")`;
  }
  return `COALESCE((SELECT json_agg("_e")::jsonb FROM (SELECT ${renderItems(items, false)} FROM ${from}) AS "_e"), '[]'::jsonb)`;
}

/** The columns an embed exposes to its parent's ORDER BY (`o0`, `o1`, …). */
function exposedSql(child: ReadNode, params: SqlParams): string {
  return child.exposedOrders
    .map(({ ref, cast }, index) => {
      const value = columnSql(child.sqlAlias, ref, params);
      return `, ${cast ? `CAST(${value} AS ${qualified(cast)})` : value} AS ${quoteIdent(`o${index}`)}`;
    })
    .join('');
}

/**
 * A grouped to-one embed as a join: its groups are formed first (items and the columns it
 * exposes to the parent's ORDER BY named positionally, both grouped by position), then
 * turned into an object.
 */
function groupedToOneSql(child: ReadNode, parts: SelectParts, from: string, exposed: string): string {
  const object = parts.items.map((item, index) => `"_g".${quoteIdent(`c${index}`)} AS ${quoteIdent(item.name)}`);
  const outerExposed = child.exposedOrders.map((_, index) => `, "_g".${quoteIdent(`o${index}`)}`);
  return (
    `SELECT (SELECT row_to_json("_x")::jsonb FROM (SELECT ${object.join(', ')}) AS "_x") AS "body", TRUE AS "m"` +
    `${outerExposed.join('')} FROM (SELECT ${renderItems(parts.items, true)}${exposed} FROM ${from}) AS "_g"`
  );
}

function lateralJoin(parent: ReadNode, child: ReadNode, params: SqlParams): string {
  const parts = selectParts(child, params);
  const { items } = parts;
  const toOne = child.relationship !== undefined && isToOne(child.relationship);
  const groupedToOne = toOne && child.grouped;
  if (groupedToOne) parts.groupBy.push(...child.exposedOrders.map((_, index) => String(items.length + index + 1)));
  const exposed = toOne ? exposedSql(child, params) : '';
  const from = embedFromSql(parent, child, parts, params);
  let sql: string;
  if (groupedToOne) sql = groupedToOneSql(child, parts, from, exposed);
  else if (toOne) {
    const body = child.spread
      ? `${items.length > 0 ? `${renderItems(items, true)}, ` : ''}TRUE AS "m"`
      : `(SELECT row_to_json("_x")::jsonb FROM (SELECT ${renderItems(items, false)}) AS "_x") AS "body", TRUE AS "m"`;
    sql = `SELECT ${body}${exposed} FROM ${from}`;
  } else if (child.spread) {
    const aggregates = items.map(
      (_, index) => `json_agg("_e".${quoteIdent(`c${index}`)})::jsonb AS ${quoteIdent(`c${index}`)}, `,
    );
    sql = `SELECT ${aggregates.join('')}count(*) AS "n" FROM (SELECT ${renderItems(items, true)} FROM ${from}) AS "_e"`;
  } else {
    sql = `SELECT json_agg("_e")::jsonb AS "body", count(*) AS "n" FROM (SELECT ${renderItems(items, false)} FROM ${from}) AS "_e"`;
  }
  const join = child.joinType === 'inner' ? 'INNER JOIN LATERAL' : 'LEFT JOIN LATERAL';
  const on = child.joinType === 'inner' ? embedExistsSql(child) : 'TRUE';
  return `${join} (${sql}) AS ${quoteIdent(child.lateralAlias)} ON ${on}`;
}

/**
 * The root SELECT of a read tree over `fromSql` (a table, or a CTE for calls and
 * mutations), with its filters, order and range. With `forMutation` (the rows a write
 * returns) the root's filters and range already applied to the write itself; its order still
 * orders the returned rows, as in PostgREST 13+.
 */
export function rootSelectSql(root: ReadNode, fromSql: string, params: SqlParams, forMutation = false): string {
  const { items, joins, groupBy } = selectParts(root, params);
  const where = forMutation ? [] : root.where.map((condition) => conditionSql(root, condition, params));
  let sql = `SELECT ${renderItems(items, false)} FROM ${throughSql(root, fromSql)} AS ${quoteIdent(root.sqlAlias)}`;
  for (const join of joins) sql += ` ${join}`;
  if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
  sql += groupBySql(groupBy);
  if (root.order.length > 0) sql += ` ORDER BY ${orderSql(root, root.order, params).join(', ')}`;
  if (!forMutation) sql += rangeSql(root, params);
  return sql;
}

/** Rows counted for `Prefer: count=exact`: the root's filters and the joins they need. */
export function countSourceSql(root: ReadNode, fromSql: string, params: SqlParams): string {
  let sql = `SELECT 1 FROM ${throughSql(root, fromSql)} AS ${quoteIdent(root.sqlAlias)}`;
  for (const child of root.children) {
    if (child.usedInWhere) sql += ` ${lateralJoin(root, child, params)}`;
  }
  const where = root.where.map((condition) => conditionSql(root, condition, params));
  if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
  return sql;
}
