import { COMPONENT_HEALTHS, TOPOLOGY_MAX_DEPTH, type TopologyQuery, type TopologyResponse } from '@lookout/contracts';
import type { Queryable } from '../../db/transaction.js';
import {
  childDepth,
  facets,
  listOf,
  nest,
  parseLabelFilter,
  sortComponents,
  type ComponentRow,
} from './topology-query-fns.js';

/**
 * `GET /api/canary/api/topology` (ui-calls 3.4; backend-model 2.4): the top-level components
 * (or, with `id`, that component with its children), filtered by status, type, team, labels,
 * owner, hidden and agent_id, sorted, with the filter bar's options. Health and summary are
 * read as stored: the roll-up keeps them current (topology-rollup.ts), so a fetch is a few
 * indexed reads whatever the size of the tree below.
 */

const COLUMNS = `c.id, c.name, c.text, c.icon, c.type, c.status, c.status_reason, c.health, c.labels, c.namespace,
  c.owner, c.tooltip, c.lifecycle, c.properties, c.summary, c.agent_id, c.topology_id, c.parent_id, c.external_id,
  c.path, c.is_leaf, c.hidden, c.config_id, c.cost_per_minute, c.cost_total_1d, c.cost_total_7d, c.cost_total_30d,
  c.log_selectors, c.created_at, c.updated_at, c.deleted_at`;

type Filter = { sql: string; params: unknown[] };

/** The filters as SQL over alias c, numbering parameters after `offset`. */
function filterSql(query: Partial<TopologyQuery>, offset: number): Filter {
  const params: unknown[] = [];
  const where: string[] = ['c.deleted_at IS NULL'];
  const p = (value: unknown) => {
    params.push(value);
    return `$${offset + params.length}`;
  };
  const statuses = listOf(query.status);
  if (statuses.length > 0) {
    const healths = statuses.filter((s) => (COMPONENT_HEALTHS as readonly string[]).includes(s));
    where.push(
      healths.length === statuses.length
        ? `coalesce(c.health, 'unknown') = ANY(${p(statuses)}::text[])`
        : `(coalesce(c.health, 'unknown') = ANY(${p(statuses)}::text[]) OR c.status = ANY($${offset + params.length}::text[]))`,
    );
  }
  const types = listOf(query.type);
  if (types.length > 0) where.push(`c.type = ANY(${p(types)}::text[])`);
  const teams = listOf(query.team);
  if (teams.length > 0) {
    where.push(
      `EXISTS (SELECT 1 FROM team_components tc JOIN teams t ON t.id = tc.team_id
               WHERE tc.component_id = c.id AND (t.name = ANY(${p(teams)}::text[]) OR t.id::text = ANY($${offset + params.length}::text[])))`,
    );
  }
  if (query.labels) where.push(`c.labels @> ${p(JSON.stringify(parseLabelFilter(query.labels)))}::jsonb`);
  if (query.owner) where.push(`c.owner = ${p(query.owner)}`);
  if (query.hidden !== undefined) where.push(`c.hidden = ${p(query.hidden)}`);
  if (query.agent_id) where.push(`c.agent_id = ${p(query.agent_id)}::uuid`);
  return { sql: where.join(' AND '), params };
}

/** The components below `rootIds` to `depth` levels (parent_id and relationships), filtered. */
async function subtree(
  db: Queryable,
  rootIds: string[],
  depth: number,
  filter: Filter | undefined,
): Promise<ComponentRow[]> {
  const where = filter?.sql ?? 'c.deleted_at IS NULL';
  const { rows } = await db.query<ComponentRow>(
    `WITH RECURSIVE tree(id, tree_parent, depth) AS (
       SELECT r.id, NULL::uuid, 0 FROM unnest($1::uuid[]) r(id)
       UNION ALL
       SELECT ch.id, t.id, t.depth + 1 FROM tree t
       CROSS JOIN LATERAL (
         SELECT c.id FROM components c WHERE c.parent_id = t.id AND ${where}
         UNION
         SELECT c.id FROM component_relationships r JOIN components c ON c.id = r.component_id
         WHERE r.relationship_id = t.id AND r.deleted_at IS NULL AND ${where}
       ) ch
       WHERE t.depth < $2
     )
     SELECT ${COLUMNS}, tree.tree_parent FROM tree JOIN components c ON c.id = tree.id`,
    [rootIds, depth, ...(filter?.params ?? [])],
  );
  return rows;
}

async function teamsOf(db: Queryable, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ name: string }>(
    `SELECT DISTINCT t.name FROM team_components tc JOIN teams t ON t.id = tc.team_id
     WHERE tc.component_id = ANY($1::uuid[]) AND t.deleted_at IS NULL`,
    [ids],
  );
  return rows.map((row) => row.name);
}

export async function fetchTopology(db: Queryable, query: Partial<TopologyQuery>): Promise<TopologyResponse> {
  const depth = childDepth(query);
  const sortBy = query.sortBy ?? 'name';
  const sortOrder = query.sortOrder ?? 'asc';

  if (query.id) {
    const { rows: found } = await db.query<ComponentRow>(
      `SELECT ${COLUMNS} FROM components c WHERE c.id = $1 AND c.deleted_at IS NULL`,
      [query.id],
    );
    const root = found[0];
    if (!root) return { components: [], healthStatuses: [], tags: {}, teams: [], types: [] };
    let rows: ComponentRow[];
    if (query.flatten) {
      // Every descendant that matches, listed directly under the component.
      const all = await subtree(db, [query.id], TOPOLOGY_MAX_DEPTH, undefined);
      const ids = all.filter((row) => row.id !== query.id).map((row) => row.id);
      const filter = filterSql(query, 1);
      const { rows: matched } = await db.query<ComponentRow>(
        `SELECT ${COLUMNS}, $1::uuid AS tree_parent FROM components c WHERE c.id = ANY($${2 + filter.params.length}::uuid[]) AND ${filter.sql}`,
        [query.id, ...filter.params, ids],
      );
      rows = [root, ...matched];
    } else {
      rows = (await subtree(db, [query.id], Math.max(depth, 1), filterSql(query, 2))).map((row) =>
        row.id === query.id ? { ...row, tree_parent: null } : row,
      );
    }
    const [component] = nest(rows, [query.id]);
    if (!component) return { components: [], healthStatuses: [], tags: {}, teams: [], types: [] };
    sortComponents(component.components ?? [], sortBy, sortOrder);
    const children = component.components ?? [];
    return {
      components: [component],
      ...facets(
        children,
        await teamsOf(
          db,
          children.map((child) => child.id),
        ),
      ),
    };
  }

  const filter = filterSql(query, 0);
  const scope = query.flatten ? filter.sql : `c.parent_id IS NULL AND ${filter.sql}`;
  const { rows: listed } = await db.query<ComponentRow>(
    `SELECT ${COLUMNS} FROM components c WHERE ${scope}`,
    filter.params,
  );
  const ids = listed.map((row) => row.id);
  const rows = depth > 0 && !query.flatten ? await subtree(db, ids, depth, undefined) : listed;
  const components = sortComponents(nest(rows, ids), sortBy, sortOrder);
  return { components, ...facets(components, await teamsOf(db, ids)) };
}
