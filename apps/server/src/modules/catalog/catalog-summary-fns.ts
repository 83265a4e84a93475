import {
  CATALOG_CHANGES_SORT_COLUMNS,
  CATALOG_SUMMARY_COLUMNS,
  parseTagConditions,
  parseTimeExpression,
  splitValueList,
  type CatalogChangesRequest,
} from '@lookout/contracts';

/**
 * Builds the WHERE parts of the catalog summary and changes queries (catalog-summary-repository.ts)
 * from request bodies. Values always travel as parameters; only whitelisted column names are
 * written into the SQL text.
 */
export class SqlParts {
  readonly where: string[] = [];

  /** `params` may be another SqlParts' list, so both write one statement's parameters. */
  constructor(readonly params: unknown[] = []) {}

  /** Adds a parameter and returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** `expr` among the kept values and not among the left-out ones ("a,!b"). */
  valueList(expr: string, text: string | undefined): void {
    const { include, exclude } = splitValueList(text);
    if (include.length > 0) this.where.push(`${expr} = ANY(${this.param(include)}::text[])`);
    if (exclude.length > 0) this.where.push(`(${expr} IS NULL OR NOT (${expr} = ANY(${this.param(exclude)}::text[])))`);
  }

  sql(): string {
    return this.where.length > 0 ? `WHERE ${this.where.join(' AND ')}` : '';
  }
}

/** The SQL expression of a summary group-by key: an item column, else a tag. */
export function groupExpression(key: string, parts: SqlParts): string {
  return (CATALOG_SUMMARY_COLUMNS as readonly string[]).includes(key) ? `ci.${key}` : `ci.tags ->> ${parts.param(key)}`;
}

/** `sort_by` ("-created_at") → column and direction; undefined when the column is unknown. */
export function changesOrder(sortBy: string | undefined): { column: string; direction: 'ASC' | 'DESC' } | undefined {
  const text = sortBy?.trim() || '-created_at';
  const descending = text.startsWith('-');
  const column = descending ? text.slice(1) : text;
  if (!(CATALOG_CHANGES_SORT_COLUMNS as readonly string[]).includes(column)) return undefined;
  return { column, direction: descending ? 'DESC' : 'ASC' };
}

/** The condition that leaves out changes of deleted items (catalog-change-counts.ts rewrites it). */
export const LIVE_ITEMS_CONDITION = 'cc.deleted_at IS NULL';

export type ChangesProblem = { field: string; message: string };

/** The conditions of a changes query on catalog_changes rows (alias cc), or what is wrong. */
export function changesConditions(
  body: CatalogChangesRequest,
  now: Date,
  parts: SqlParts,
  defaultFrom: string,
): ChangesProblem | undefined {
  const from = parseTimeExpression(body.from ?? defaultFrom, now);
  if (!from) return { field: 'from', message: 'from must be a time such as now-7d or an ISO date.' };
  parts.where.push(`cc.created_at >= ${parts.param(from)}`);
  if (body.to !== undefined && body.to !== '') {
    const to = parseTimeExpression(body.to, now, { roundUp: true });
    if (!to) return { field: 'to', message: 'to must be a time such as now or an ISO date.' };
    parts.where.push(`cc.created_at <= ${parts.param(to)}`);
  }
  parts.valueList('cc.type', body.config_type);
  parts.valueList('cc.change_type', body.type);
  parts.valueList('cc.severity', body.severity);
  parts.valueList('cc.source', body.source);
  if (body.summary) parts.where.push(`cc.summary ILIKE ${parts.param(`%${body.summary}%`)}`);
  if (body.created_by) {
    const who = parts.param(body.created_by);
    parts.where.push(`(cc.created_by::text = ${who} OR cc.external_created_by = ${who})`);
  }
  if (body.tags) {
    const read = parseTagConditions(body.tags);
    if (!read.ok) {
      return {
        field: 'tags',
        message: `tags: cannot read "${read.part}"; write k=v, k!=v, k in (a,b) or k notin (a,b).`,
      };
    }
    for (const { key, values, negate } of read.conditions) {
      const expr = `cc.tags ->> ${parts.param(key)}`;
      const list = `${parts.param(values)}::text[]`;
      parts.where.push(negate ? `(${expr} IS NULL OR NOT (${expr} = ANY(${list})))` : `${expr} = ANY(${list})`);
    }
  }
  if (!body.include_deleted_configs) parts.where.push(LIVE_ITEMS_CONDITION);
  return undefined;
}
