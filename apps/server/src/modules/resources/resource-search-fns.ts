import {
  RESOURCE_SEARCH_AGENT_ALL,
  RESOURCE_SEARCH_AGENT_LOCAL,
  RESOURCE_SEARCH_DEFAULT_LIMIT,
  type ResourceSearchKind,
  type ResourceSearchSelector,
} from '@lookout/contracts';

/** The id of the local agent (this Lookout), which owns everything not pushed by an agent. */
export const LOCAL_AGENT_ID = '00000000-0000-0000-0000-000000000000';

/** A selector the caller wrote wrongly: the route answers 400 with this message. */
export class SelectorError extends Error {}

/** How each kind maps onto its table: the SQL of the answer's columns and of the filterable fields. */
type KindColumns = {
  table: string;
  namespace: string;
  status: string;
  tags: string;
  /** `fieldSelector` keys and the SQL they read. */
  fields: Record<string, string>;
};

const KINDS: Record<ResourceSearchKind, KindColumns> = {
  checks: {
    table: 'checks',
    namespace: 't.namespace',
    status: 't.status',
    tags: 'NULL::jsonb',
    fields: {
      name: 't.name',
      namespace: 't.namespace',
      type: 't.type',
      status: 't.status',
      canary_id: 't.canary_id::text',
    },
  },
  components: {
    table: 'components',
    namespace: 't.namespace',
    status: 't.status',
    tags: 'NULL::jsonb',
    fields: {
      name: 't.name',
      namespace: 't.namespace',
      type: 't.type',
      status: 't.status',
      health: 't.health',
      owner: 't.owner',
      topology_id: 't.topology_id::text',
      external_id: 't.external_id',
    },
  },
  configs: {
    table: 'config_items',
    // Config items carry their namespace as a tag, as the scrapers write it.
    namespace: "t.tags->>'namespace'",
    status: 't.status',
    tags: 't.tags',
    fields: {
      name: 't.name',
      namespace: "t.tags->>'namespace'",
      type: 't.type',
      status: 't.status',
      health: 't.health',
      config_class: 't.config_class',
      scraper_id: 't.scraper_id::text',
    },
  },
};

export const SEARCH_FIELDS: Record<ResourceSearchKind, readonly string[]> = {
  checks: Object.keys(KINDS.checks.fields),
  components: Object.keys(KINDS.components.fields),
  configs: Object.keys(KINDS.configs.fields),
};

/** One requirement of a Kubernetes label or field selector. */
export type Requirement =
  { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | 'absent' };

const KEY = /^[A-Za-z0-9]([A-Za-z0-9._/-]*[A-Za-z0-9])?$/;

/** Splits on commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/**
 * Reads a Kubernetes selector (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`).
 * `field` names the body field in the error message.
 */
export function parseSelector(text: string, field: string): Requirement[] {
  return splitTopLevel(text).map((part) => {
    const set = /^(\S+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(part);
    let requirement: Requirement;
    if (set) {
      const values = set[3]!.split(',').map((value) => value.trim());
      requirement = { key: set[1]!, op: set[2] as 'in' | 'notin', values };
    } else if (part.startsWith('!')) {
      requirement = { key: part.slice(1).trim(), op: 'absent' };
    } else {
      const equality = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
      if (equality) {
        requirement = { key: equality[1]!, op: equality[2] === '!=' ? 'notin' : 'in', values: [equality[3]!.trim()] };
      } else requirement = { key: part, op: 'exists' };
    }
    if (!KEY.test(requirement.key)) {
      throw new SelectorError(
        `${field}: '${part}' is not a requirement (key=value, key!=value, key in (a,b), key notin (a), key, !key)`,
      );
    }
    return requirement;
  });
}

/** A parameterised WHERE clause. */
export type SqlWhere = { clauses: string[]; params: unknown[] };

const add = (where: SqlWhere, value: unknown): string => {
  where.params.push(value);
  return `$${where.params.length}`;
};

/** `*x`, `x*`, `*x*` patterns become LIKE; `\`, `%` and `_` are matched literally. */
function likeOrEqual(where: SqlWhere, column: string, pattern: string): string {
  if (!pattern.startsWith('*') && !pattern.endsWith('*')) return `${column} = ${add(where, pattern)}`;
  const inner = pattern
    .replace(/^\*/, '')
    .replace(/\*$/, '')
    .replace(/[\\%_]/g, (char) => `\\${char}`);
  const like = `${pattern.startsWith('*') ? '%' : ''}${inner}${pattern.endsWith('*') ? '%' : ''}`;
  return `${column} LIKE ${add(where, like)}`;
}

/** A list of values, each may start with `!` to exclude (ui-calls: tristate filters). */
function includeExclude(where: SqlWhere, column: string, values: readonly string[]): void {
  const included = values.filter((value) => !value.startsWith('!'));
  const excluded = values.filter((value) => value.startsWith('!')).map((value) => value.slice(1));
  if (included.length > 0) where.clauses.push(`${column} = ANY(${add(where, included)}::text[])`);
  if (excluded.length > 0) {
    where.clauses.push(`(${column} IS NULL OR NOT (${column} = ANY(${add(where, excluded)}::text[])))`);
  }
}

function requirementSql(where: SqlWhere, column: string, requirement: Requirement): string {
  switch (requirement.op) {
    case 'exists':
      return `${column} IS NOT NULL`;
    case 'absent':
      return `${column} IS NULL`;
    case 'in':
      return `${column} = ANY(${add(where, requirement.values)}::text[])`;
    case 'notin':
      return `(${column} IS NULL OR NOT (${column} = ANY(${add(where, requirement.values)}::text[])))`;
  }
}

/**
 * The SQL of one selector over one kind: `SELECT ... FROM <table> t WHERE ... LIMIT n`.
 * Throws SelectorError naming the field for a selector it cannot read.
 */
export function selectorQuery(
  kind: ResourceSearchKind,
  selector: ResourceSearchSelector,
  path: string,
): { text: string; params: unknown[] } {
  const columns = KINDS[kind];
  const where: SqlWhere = { clauses: [], params: [] };
  if (!selector.includeDeleted) where.clauses.push('t.deleted_at IS NULL');
  if (selector.id) where.clauses.push(`t.id = ${add(where, selector.id)}::uuid`);
  if (selector.name) {
    const name = selector.name.trim();
    if (name.startsWith('!')) where.clauses.push(`NOT (${likeOrEqual(where, 't.name', name.slice(1))})`);
    else where.clauses.push(likeOrEqual(where, 't.name', name));
  }
  if (selector.namespace) where.clauses.push(`${columns.namespace} = ${add(where, selector.namespace.trim())}`);
  const agent = selector.agent?.trim();
  if (agent && agent !== RESOURCE_SEARCH_AGENT_ALL) {
    if (agent === RESOURCE_SEARCH_AGENT_LOCAL || agent === 'self') {
      where.clauses.push(`t.agent_id = ${add(where, LOCAL_AGENT_ID)}::uuid`);
    } else {
      where.clauses.push(
        `t.agent_id IN (SELECT a.id FROM agents a WHERE a.id::text = ${add(where, agent)} OR a.name = ${add(where, agent)})`,
      );
    }
  }
  if (selector.types?.length) includeExclude(where, 't.type', selector.types);
  if (selector.statuses?.length) includeExclude(where, columns.status, selector.statuses);
  if (selector.labelSelector?.trim()) {
    for (const requirement of parseSelector(selector.labelSelector, `${path}.labelSelector`)) {
      // Config items match on their tags as well, as the original does.
      const column =
        kind === 'configs'
          ? `COALESCE(t.labels->>${add(where, requirement.key)}, t.tags->>${add(where, requirement.key)})`
          : `(t.labels->>${add(where, requirement.key)})`;
      where.clauses.push(requirementSql(where, column, requirement));
    }
  }
  if (selector.fieldSelector?.trim()) {
    for (const requirement of parseSelector(selector.fieldSelector, `${path}.fieldSelector`)) {
      const column = columns.fields[requirement.key];
      if (!column) {
        throw new SelectorError(
          `${path}.fieldSelector: '${requirement.key}' is not a field of ${kind}; use one of ${SEARCH_FIELDS[kind].join(', ')}`,
        );
      }
      where.clauses.push(requirementSql(where, column, requirement));
    }
  }
  const search = selector.search?.trim();
  if (search) {
    const escaped = search.replace(/[\\%_]/g, (char) => `\\${char}`);
    where.clauses.push(`t.name ILIKE ${add(where, `%${escaped}%`)}`);
  }
  const limit = add(where, selector.limit ?? RESOURCE_SEARCH_DEFAULT_LIMIT);
  const text =
    `SELECT t.id::text AS id, t.name, t.type, ${columns.namespace} AS namespace, t.agent_id::text AS agent, ` +
    `t.labels, t.icon, ${columns.tags} AS tags FROM ${columns.table} t` +
    (where.clauses.length > 0 ? ` WHERE ${where.clauses.join(' AND ')}` : '') +
    ` ORDER BY t.name ASC NULLS LAST, t.id LIMIT ${limit}`;
  return { text, params: where.params };
}
