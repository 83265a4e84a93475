import type { ConfigQuery, ResourceSelector } from '@lookout/contracts';

/**
 * duty's ResourceSelector as SQL conditions over one table (checks, config_items, components):
 * `labelSelector` / `tagSelector` (`k=v`, `k!=v`, `k`, `!k`, comma separated), `fieldSelector`
 * on the table's plain columns, names with `*` as a wildcard, types, statuses, health. Values
 * always travel as parameters.
 */

export type SelectorTable = {
  /** Alias of the table in the query. */
  alias: string;
  /** Columns `fieldSelector` may name (others are refused). */
  fields: readonly string[];
  /** The column of types (`type`), and whether there are tags (config items). */
  hasTags?: boolean;
  /** The namespace column (checks and components have one; config items keep it in tags). */
  namespace: string;
};

export type SqlCondition = { sql: string; params: unknown[] };

export class SelectorError extends Error {}

export type Requirement = { key: string; op: '=' | '!=' | 'exists' | '!exists'; value?: string };

/** Parses `k=v,k!=v,k,!k` (also `==`); throws SelectorError naming the bad part. */
export function parseRequirements(text: string, what: string): Requirement[] {
  const out: Requirement[] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (!part) continue;
    const match = /^(!?)([^=!\s]+)\s*(?:(==|=|!=)\s*(.*))?$/.exec(part);
    if (!match || (match[1] && match[3])) throw new SelectorError(`${what}: cannot read '${part}'`);
    const [, not, key, op, value] = match;
    if (!op) out.push({ key: key!, op: not ? '!exists' : 'exists' });
    else out.push({ key: key!, op: op === '!=' ? '!=' : '=', value: (value ?? '').trim() });
  }
  return out;
}

/** `*` matches anything; the rest literally (LIKE with escapes). */
export function globToLike(pattern: string): string {
  return pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

/** SQL (with $n placeholders from `offset` + 1) selecting the rows the selector matches. */
export function selectorConditions(
  selector: ResourceSelector & Partial<Pick<ConfigQuery, 'type' | 'class'>>,
  table: SelectorTable,
  offset = 0,
): SqlCondition {
  const params: unknown[] = [];
  const where: string[] = [];
  const a = table.alias;
  const p = (value: unknown) => {
    params.push(value);
    return `$${offset + params.length}`;
  };
  if (!selector.includeDeleted) where.push(`${a}.deleted_at IS NULL`);
  if (selector.id) where.push(`${a}.id::text = ${p(selector.id)}`);
  if (selector.name) {
    where.push(
      selector.name.includes('*')
        ? `${a}.name LIKE ${p(globToLike(selector.name))}`
        : `${a}.name = ${p(selector.name)}`,
    );
  }
  if (selector.namespace) where.push(`${table.namespace} = ${p(selector.namespace)}`);
  if (selector.agent) {
    where.push(
      selector.agent === 'local'
        ? `${a}.agent_id = '00000000-0000-0000-0000-000000000000'`
        : `(${a}.agent_id::text = ${p(selector.agent)} OR ${a}.agent_id IN (SELECT id FROM agents WHERE name = ${p(selector.agent)}))`,
    );
  }
  const types = [...(selector.types ?? []), ...(selector.type ? [selector.type] : [])];
  if (types.length > 0) where.push(`${a}.type = ANY(${p(types)}::text[])`);
  if (selector.class && table.fields.includes('config_class')) where.push(`${a}.config_class = ${p(selector.class)}`);
  if (selector.statuses && selector.statuses.length > 0)
    where.push(`${a}.status = ANY(${p(selector.statuses)}::text[])`);
  if (selector.health) {
    const healths = selector.health
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    where.push(
      table.fields.includes('health')
        ? `${a}.health = ANY(${p(healths)}::text[])`
        : `${a}.status = ANY(${p(healths)}::text[])`,
    );
  }
  if (selector.search) where.push(`${a}.name ILIKE ${p(`%${globToLike(selector.search)}%`)}`);
  for (const requirement of selector.labelSelector ? parseRequirements(selector.labelSelector, 'labelSelector') : []) {
    where.push(jsonRequirement(`${a}.labels`, requirement, p));
  }
  if (selector.tagSelector) {
    if (!table.hasTags) throw new SelectorError('tagSelector: only config items have tags');
    for (const requirement of parseRequirements(selector.tagSelector, 'tagSelector')) {
      where.push(jsonRequirement(`${a}.tags`, requirement, p));
    }
  }
  for (const requirement of selector.fieldSelector ? parseRequirements(selector.fieldSelector, 'fieldSelector') : []) {
    if (!table.fields.includes(requirement.key)) {
      throw new SelectorError(`fieldSelector: '${requirement.key}' is not one of ${table.fields.join(', ')}`);
    }
    const column = requirement.key === 'namespace' ? table.namespace : `${a}.${requirement.key}`;
    if (requirement.op === '=') where.push(`${column}::text = ${p(requirement.value)}`);
    else if (requirement.op === '!=') where.push(`${column}::text IS DISTINCT FROM ${p(requirement.value)}`);
    else where.push(`${column} IS ${requirement.op === 'exists' ? 'NOT ' : ''}NULL`);
  }
  return { sql: where.length > 0 ? where.join(' AND ') : 'true', params };
}

function jsonRequirement(column: string, requirement: Requirement, p: (value: unknown) => string): string {
  switch (requirement.op) {
    case '=':
      return `${column} ->> ${p(requirement.key)} = ${p(requirement.value)}`;
    case '!=':
      return `${column} ->> ${p(requirement.key)} IS DISTINCT FROM ${p(requirement.value)}`;
    case 'exists':
      return `coalesce(${column}, '{}'::jsonb) ? ${p(requirement.key)}`;
    case '!exists':
      return `NOT coalesce(${column}, '{}'::jsonb) ? ${p(requirement.key)}`;
  }
}

/** A selector's stable id for link rows (`selector_id`): the same selector keeps its links. */
export function selectorId(selector: unknown): string {
  const text = JSON.stringify(selector, Object.keys((selector ?? {}) as object).sort());
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `selector-${hash.toString(16).padStart(8, '0')}`;
}

export const CHECK_TABLE: SelectorTable = {
  alias: 'k',
  fields: ['name', 'namespace', 'type', 'status', 'canary_id'],
  namespace: 'k.namespace',
};
export const CONFIG_TABLE: SelectorTable = {
  alias: 'ci',
  fields: ['name', 'type', 'config_class', 'status', 'health', 'namespace'],
  hasTags: true,
  namespace: "ci.tags ->> 'namespace'",
};
export const COMPONENT_TABLE: SelectorTable = {
  alias: 'c',
  fields: ['name', 'namespace', 'type', 'status', 'health', 'topology_id', 'owner'],
  namespace: 'c.namespace',
};
