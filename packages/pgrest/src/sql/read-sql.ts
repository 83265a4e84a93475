import type { ReadNode } from '../plan/plan-types.js';
import { isToOne } from '../schema/find-relationship.js';
import { columnSql, conditionSql, embedExistsSql, orderSql } from './condition-sql.js';
import { qualified, quoteIdent, type SqlParams } from './sql-params.js';

/*
 * SELECT generation for a read tree. An embed that only contributes its output becomes a
 * correlated subquery in its parent's select list: one object (`row_to_json`) for to-one,
 * an array (`json_agg`, `[]` when empty) for to-many. PostgreSQL plans such a subquery on
 * its own and runs it only for the rows the parent returns, where a join makes the planner
 * search join orders (planning then costs more than running a paged read). Embeds that
 * also filter (`!inner`, `rel=is.null`), order the parent or are spread become a LATERAL
 * subquery joined to the parent instead, which yields the row the condition or the parent
 * ORDER BY refers to. Internal aliases (t0, l1, c0, o0, m, n, body) are
 * generated, so request text reaches SQL only as quoted output names and bound values.
 */

/** One output expression of a SELECT list and the key it is published under. */
type Item = { sql: string; name: string };

function hasOutput(node: ReadNode): boolean {
  return node.star || node.select.length > 0 || node.children.some(hasOutput);
}

/** Output names a node publishes (for spreads, which lift them into the parent). */
export function outputNames(node: ReadNode): string[] {
  const names = node.select.map((select) => select.outputName);
  for (const child of node.children) {
    if (!hasOutput(child)) continue;
    if (child.spread) names.push(...outputNames(child));
    else names.push(child.outputName);
  }
  return names;
}

/** Items and lateral joins of a node, relative to its SQL alias. */
function selectParts(node: ReadNode, params: SqlParams): { items: Item[]; joins: string[] } {
  const items: Item[] = [];
  if (node.star) items.push({ sql: `${quoteIdent(node.sqlAlias)}.*`, name: '*' });
  for (const select of node.select) {
    let sql = columnSql(node.sqlAlias, select.ref, params);
    if (select.cast) sql = `CAST(${sql} AS ${qualified(select.cast)})`;
    items.push({ sql, name: select.outputName });
  }
  const joins: string[] = [];
  for (const child of node.children) {
    const output = hasOutput(child);
    if (!output && !child.usedInWhere && child.exposedOrders.length === 0) continue;
    if (output && inlinable(child)) {
      items.push({ sql: embedSubquerySql(node, child, params), name: child.outputName });
      continue;
    }
    joins.push(lateralJoin(node, child, params));
    if (!output) continue;
    const lateral = quoteIdent(child.lateralAlias);
    const toOne = child.relationship !== undefined && isToOne(child.relationship);
    if (child.spread) {
      outputNames(child).forEach((name, index) => {
        const column = `${lateral}.${quoteIdent(`c${index}`)}`;
        items.push({ sql: toOne ? column : `COALESCE(${column}, '[]'::json)`, name });
      });
    } else {
      const body = `${lateral}."body"`;
      items.push({ sql: toOne ? body : `COALESCE(${body}, '[]'::json)`, name: child.outputName });
    }
  }
  return { items, joins };
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
  if (node.limit !== undefined) sql += ` LIMIT ${params.add(node.limit)}`;
  if (node.offset !== 0) sql += ` OFFSET ${params.add(node.offset)}`;
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
  return !isToOne(relationship) || !relationship.foreignTableIsView;
}

/** The FROM … WHERE … ORDER BY … LIMIT of an embed, correlated to its parent. */
function embedFromSql(parent: ReadNode, child: ReadNode, joins: string[], params: SqlParams): string {
  const { junction, conditions } = joinParts(parent, child);
  const where = [...conditions, ...child.where.map((condition) => conditionSql(child, condition, params))];
  const from = `${qualified(child.relation)} AS ${quoteIdent(child.sqlAlias)}${junction}${joins.map((join) => ` ${join}`).join('')}`;
  return `${from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}${
    child.order.length > 0 ? ` ORDER BY ${orderSql(child, child.order, params).join(', ')}` : ''
  }${rangeSql(child, params)}`;
}

/** An embed as a correlated subquery: its object (to-one) or array (to-many). */
function embedSubquerySql(parent: ReadNode, child: ReadNode, params: SqlParams): string {
  const { items, joins } = selectParts(child, params);
  const from = embedFromSql(parent, child, joins, params);
  if (child.relationship !== undefined && isToOne(child.relationship)) {
    return `(SELECT row_to_json("_x") FROM (SELECT ${renderItems(items, false)} FROM ${from}) AS "_x")`;
  }
  return `COALESCE((SELECT json_agg("_e") FROM (SELECT ${renderItems(items, false)} FROM ${from}) AS "_e"), '[]'::json)`;
}

function lateralJoin(parent: ReadNode, child: ReadNode, params: SqlParams): string {
  const { items, joins } = selectParts(child, params);
  const from = embedFromSql(parent, child, joins, params);
  const toOne = child.relationship !== undefined && isToOne(child.relationship);
  const exposed = child.exposedOrders.map(
    (ref, index) => `, ${columnSql(child.sqlAlias, ref, params)} AS ${quoteIdent(`o${index}`)}`,
  );
  let sql: string;
  if (toOne) {
    const body = child.spread
      ? `${items.length > 0 ? `${renderItems(items, true)}, ` : ''}TRUE AS "m"`
      : `(SELECT row_to_json("_x") FROM (SELECT ${renderItems(items, false)}) AS "_x") AS "body", TRUE AS "m"`;
    sql = `SELECT ${body}${exposed.join('')} FROM ${from}`;
  } else if (child.spread) {
    const aggregates = items.map(
      (_, index) => `json_agg("_e".${quoteIdent(`c${index}`)}) AS ${quoteIdent(`c${index}`)}, `,
    );
    sql = `SELECT ${aggregates.join('')}count(*) AS "n" FROM (SELECT ${renderItems(items, true)} FROM ${from}) AS "_e"`;
  } else {
    sql = `SELECT json_agg("_e") AS "body", count(*) AS "n" FROM (SELECT ${renderItems(items, false)} FROM ${from}) AS "_e"`;
  }
  const join = child.joinType === 'inner' ? 'INNER JOIN LATERAL' : 'LEFT JOIN LATERAL';
  const on = child.joinType === 'inner' ? embedExistsSql(child) : 'TRUE';
  return `${join} (${sql}) AS ${quoteIdent(child.lateralAlias)} ON ${on}`;
}

/**
 * The root SELECT of a read tree over `fromSql` (a table, or a CTE for calls and
 * mutations), with its filters, order and range unless `forMutation` (then the root's
 * filters already applied to the mutation itself).
 */
export function rootSelectSql(root: ReadNode, fromSql: string, params: SqlParams, forMutation = false): string {
  const { items, joins } = selectParts(root, params);
  const where = forMutation ? [] : root.where.map((condition) => conditionSql(root, condition, params));
  let sql = `SELECT ${renderItems(items, false)} FROM ${fromSql} AS ${quoteIdent(root.sqlAlias)}`;
  for (const join of joins) sql += ` ${join}`;
  if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
  if (!forMutation) {
    if (root.order.length > 0) sql += ` ORDER BY ${orderSql(root, root.order, params).join(', ')}`;
    sql += rangeSql(root, params);
  }
  return sql;
}

/** Rows counted for `Prefer: count=exact`: the root's filters and the joins they need. */
export function countSourceSql(root: ReadNode, fromSql: string, params: SqlParams): string {
  let sql = `SELECT 1 FROM ${fromSql} AS ${quoteIdent(root.sqlAlias)}`;
  for (const child of root.children) {
    if (child.usedInWhere) sql += ` ${lateralJoin(root, child, params)}`;
  }
  const where = root.where.map((condition) => conditionSql(root, condition, params));
  if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
  return sql;
}
