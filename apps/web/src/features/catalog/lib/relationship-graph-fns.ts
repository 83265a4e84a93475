import { RELATIONSHIP_GRAPH } from '@lookout/contracts';

/** A row of `rpc/related_configs_recursive` as the Relationships tab reads it (ui-calls 3.5). */
export type RelatedConfig = {
  id: string;
  name: string | null;
  type: string | null;
  status: string | null;
  health: string | null;
  tags: Record<string, string> | null;
  deleted_at: string | null;
  /** The items of the result this one has an outgoing edge to. */
  related_ids: string[] | null;
  /** Edges from the item the tab is about (0 for the item itself). */
  depth: number;
  /** 'self', 'outgoing' (downstream) or 'incoming' (upstream). */
  direction: string;
};

export type GraphNode =
  | {
      kind: 'config';
      id: string;
      config: RelatedConfig;
      root: boolean;
      /** Children not drawn until the node is clicked (more than 3). */
      hiddenChildren: number;
    }
  | {
      kind: 'group';
      id: string;
      type: string;
      members: RelatedConfig[];
      expanded: boolean;
    };

export type GraphEdge = { id: string; from: string; to: string };
export type RelationshipGraph = { nodes: GraphNode[]; edges: GraphEdge[] };

const edgeKey = (from: string, to: string) => `${from}->${to}`;

/**
 * Which item each item hangs under when drawn: the neighbour one step nearer to the tab's
 * item (an edge either way, as upstream items point at it). The first such neighbour wins;
 * the walk's other edges are still drawn, only the collapse rules follow this tree.
 */
function childrenByParent(rows: readonly RelatedConfig[], rootId: string): Map<string, RelatedConfig[]> {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const neighbours = new Map<string, string[]>();
  const link = (a: string, b: string) => neighbours.set(a, [...(neighbours.get(a) ?? []), b]);
  for (const row of rows) {
    for (const to of row.related_ids ?? []) {
      if (!byId.has(to) || to === row.id) continue;
      link(row.id, to);
      link(to, row.id);
    }
  }
  const children = new Map<string, RelatedConfig[]>();
  const ordered = [...rows].sort((a, b) => a.depth - b.depth || (a.name ?? '').localeCompare(b.name ?? ''));
  for (const row of ordered) {
    if (row.id === rootId) continue;
    const parent = (neighbours.get(row.id) ?? []).find((id) => byId.get(id)?.depth === row.depth - 1);
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), row]);
  }
  return children;
}

/**
 * The graph to draw (spec 3 section 2.1): the tab's item, and under every drawn item its
 * related items, where
 * - an item other than the tab's own with more than 3 children shows them only once clicked
 *   (`expanded` holds the clicked ids);
 * - 3 or more children of one type (on one side: upstream or downstream) are one intermediary
 *   node, expandable by a click, with the items under it.
 * Edges keep their real direction (from the item that points to the other); the edges of the
 * walk between two drawn items that the tree does not use are drawn too.
 */
export function buildRelationshipGraph(
  rows: readonly RelatedConfig[],
  rootId: string,
  expanded: ReadonlySet<string>,
): RelationshipGraph {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const root = byId.get(rootId);
  if (!root) return { nodes: [], edges: [] };
  const outgoing = new Set(rows.flatMap((row) => (row.related_ids ?? []).map((to) => edgeKey(row.id, to))));
  const children = childrenByParent(rows, rootId);
  const nodes: GraphNode[] = [];
  const edges = new Map<string, GraphEdge>();
  const drawn = new Set<string>();
  // Parent and child pairs the tree draws (directly or through a group node).
  const placed = new Set<string>();
  const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  // An edge between a drawn parent and child (or group), pointing the way the real one does.
  const connect = (parent: string, child: string, upstream: boolean) => {
    const [from, to] = upstream ? [child, parent] : [parent, child];
    edges.set(edgeKey(from, to), { id: edgeKey(from, to), from, to });
  };
  const isUpstream = (parent: string, child: string) =>
    !outgoing.has(edgeKey(parent, child)) && outgoing.has(edgeKey(child, parent));

  const visit = (row: RelatedConfig, isRoot: boolean) => {
    const own = children.get(row.id) ?? [];
    const collapsed = !isRoot && own.length > RELATIONSHIP_GRAPH.collapseChildrenAbove && !expanded.has(row.id);
    nodes.push({ kind: 'config', id: row.id, config: row, root: isRoot, hiddenChildren: collapsed ? own.length : 0 });
    drawn.add(row.id);
    if (collapsed) return;
    // Children of one type on one side of the item, in the order they were found.
    const sets = new Map<string, RelatedConfig[]>();
    for (const child of own) {
      const key = `${isUpstream(row.id, child.id) ? 'up' : 'down'}:${child.type ?? ''}`;
      sets.set(key, [...(sets.get(key) ?? []), child]);
    }
    for (const [key, members] of sets) {
      const upstream = key.startsWith('up:');
      for (const child of members) placed.add(pairKey(row.id, child.id));
      if (members.length < RELATIONSHIP_GRAPH.collapseGroupFrom) {
        for (const child of members) {
          connect(row.id, child.id, upstream);
          visit(child, false);
        }
        continue;
      }
      const groupId = `group:${row.id}:${key}`;
      const open = expanded.has(groupId);
      nodes.push({ kind: 'group', id: groupId, type: members[0]?.type ?? '', members, expanded: open });
      connect(row.id, groupId, upstream);
      if (!open) continue;
      for (const child of members) {
        connect(groupId, child.id, upstream);
        visit(child, false);
      }
    }
  };
  visit(root, true);

  // The walk's other edges between drawn items (an item reached two ways, a cycle).
  for (const row of rows) {
    for (const to of row.related_ids ?? []) {
      if (!drawn.has(row.id) || !drawn.has(to) || row.id === to) continue;
      if (placed.has(pairKey(row.id, to))) continue;
      edges.set(edgeKey(row.id, to), { id: edgeKey(row.id, to), from: row.id, to });
    }
  }
  return { nodes, edges: [...edges.values()] };
}

/**
 * The rows to draw when filters keep only some: the kept ones and the items between them and
 * the tab's item, so a kept item deep in the walk still hangs where it belongs.
 */
export function withAncestors(
  rows: readonly RelatedConfig[],
  rootId: string,
  kept: ReadonlySet<string>,
): RelatedConfig[] {
  const parentOf = new Map<string, string>();
  for (const [parent, list] of childrenByParent(rows, rootId)) for (const child of list) parentOf.set(child.id, parent);
  const keep = new Set<string>([rootId]);
  for (const id of kept) {
    let at: string | undefined = id;
    while (at !== undefined && !keep.has(at)) {
      keep.add(at);
      at = parentOf.get(at);
    }
  }
  return rows.filter((row) => keep.has(row.id));
}
