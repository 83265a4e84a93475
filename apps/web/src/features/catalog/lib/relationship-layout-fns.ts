import { graphlib, layout } from '@dagrejs/dagre';
import { RELATIONSHIP_GRAPH, type RelationshipDirection, type RelationshipEdgeStyle } from '@lookout/contracts';
import type { GraphEdge, GraphNode, RelationshipGraph } from './relationship-graph-fns';

export type Point = { x: number; y: number };
export type PlacedNode = GraphNode & { x: number; y: number; width: number; height: number };
export type PlacedEdge = GraphEdge & { points: Point[] };
export type GraphLayout = { nodes: PlacedNode[]; edges: PlacedEdge[]; width: number; height: number };

const MARGIN = 24;

/**
 * Places the graph with dagre (ADR 0022): ranks along `direction` (top to bottom or left to
 * right), node spacing 100 and rank spacing 120 (spec 3 section 9). Node positions are their
 * top-left corners; edges keep dagre's route.
 */
export function layoutRelationshipGraph(graph: RelationshipGraph, direction: RelationshipDirection): GraphLayout {
  const { nodeWidth: width, nodeHeight: height, nodeSpacing, rankSpacing } = RELATIONSHIP_GRAPH;
  const g = new graphlib.Graph();
  g.setGraph({ rankdir: direction, nodesep: nodeSpacing, ranksep: rankSpacing, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { width, height });
  for (const edge of graph.edges) g.setEdge(edge.from, edge.to);
  layout(g);
  const nodes = graph.nodes.map((node) => {
    const placed = g.node(node.id) as { x: number; y: number };
    return { ...node, x: placed.x - width / 2, y: placed.y - height / 2, width, height };
  });
  const edges = graph.edges.map((edge) => {
    const label = g.edge(edge.from, edge.to) as { points?: Point[] } | undefined;
    return { ...edge, points: label?.points ?? [] };
  });
  const size = g.graph() as { width?: number; height?: number };
  return { nodes, edges, width: size.width ?? 0, height: size.height ?? 0 };
}

/** Where an edge leaves its source and enters its target: the sides facing along the ranks. */
function ends(from: PlacedNode, to: PlacedNode, direction: RelationshipDirection): [Point, Point] {
  if (direction === 'LR') {
    return [
      { x: from.x + from.width, y: from.y + from.height / 2 },
      { x: to.x, y: to.y + to.height / 2 },
    ];
  }
  return [
    { x: from.x + from.width / 2, y: from.y + from.height },
    { x: to.x + to.width / 2, y: to.y },
  ];
}

/**
 * The SVG path of an edge in the chosen style: 'curved' (a cubic curve between the facing
 * sides), 'straight' (a line) or 'step' (right angles half way between the ranks).
 */
export function edgePath(
  from: PlacedNode,
  to: PlacedNode,
  direction: RelationshipDirection,
  style: RelationshipEdgeStyle,
): string {
  const [a, b] = ends(from, to, direction);
  if (style === 'straight') return `M${a.x},${a.y} L${b.x},${b.y}`;
  if (direction === 'LR') {
    const mid = (a.x + b.x) / 2;
    return style === 'step'
      ? `M${a.x},${a.y} L${mid},${a.y} L${mid},${b.y} L${b.x},${b.y}`
      : `M${a.x},${a.y} C${mid},${a.y} ${mid},${b.y} ${b.x},${b.y}`;
  }
  const mid = (a.y + b.y) / 2;
  return style === 'step'
    ? `M${a.x},${a.y} L${a.x},${mid} L${b.x},${mid} L${b.x},${b.y}`
    : `M${a.x},${a.y} C${a.x},${mid} ${b.x},${mid} ${b.x},${b.y}`;
}
