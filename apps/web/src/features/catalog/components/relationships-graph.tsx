import { RELATIONSHIP_TEXTS, type RelationshipDirection, type RelationshipEdgeStyle } from '@lookout/contracts';
import { clsx } from 'clsx';
import { ChevronDown, ChevronRight, Layers } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { buildRelationshipGraph, type RelatedConfig } from '../lib/relationship-graph-fns';
import { edgePath, layoutRelationshipGraph, type PlacedNode } from '../lib/relationship-layout-fns';
import { HealthDot } from '@/components/ui/health-dot';

export interface RelationshipsGraphProps {
  rows: readonly RelatedConfig[];
  rootId: string;
  direction: RelationshipDirection;
  edgeStyle: RelationshipEdgeStyle;
}

function ConfigNode({
  node,
  opened,
  onToggle,
}: {
  node: Extract<PlacedNode, { kind: 'config' }>;
  /** Opened by a click (it had more than 3 children): it can be closed again. */
  opened: boolean;
  onToggle: () => void;
}) {
  const { config } = node;
  const deleted = config.deleted_at !== null;
  return (
    <div
      data-testid="graph-node"
      data-node-id={node.id}
      className={clsx(
        'flex h-full flex-col justify-center gap-0.5 rounded-md border bg-white px-2.5 py-1 text-xs shadow-sm',
        node.root ? 'border-sky-500 ring-2 ring-sky-200' : 'border-slate-300',
        deleted && 'opacity-50',
      )}
    >
      <span className="flex min-w-0 items-center gap-1.5">
        <HealthDot health={config.health} />
        {node.root ? (
          <span
            className={clsx('truncate font-semibold text-slate-900', deleted && 'line-through')}
            title={config.name ?? ''}
          >
            {config.name}
          </span>
        ) : (
          <Link
            to={`/catalog/${config.id}/relationships`}
            className={clsx('truncate font-medium text-sky-800 hover:underline', deleted && 'line-through')}
            title={config.name ?? ''}
          >
            {config.name}
          </Link>
        )}
      </span>
      <span className="flex items-center justify-between gap-1 text-slate-500">
        <span className="truncate" title={config.type ?? ''}>
          {config.type}
        </span>
        {(node.hiddenChildren > 0 || opened) && (
          <button
            type="button"
            onClick={onToggle}
            aria-expanded={opened}
            className="shrink-0 rounded bg-slate-100 px-1 text-slate-700 hover:bg-slate-200"
          >
            {opened ? RELATIONSHIP_TEXTS.hideChildren : RELATIONSHIP_TEXTS.showChildren(node.hiddenChildren)}
          </button>
        )}
      </span>
    </div>
  );
}

function GroupNode({ node, onToggle }: { node: Extract<PlacedNode, { kind: 'group' }>; onToggle: () => void }) {
  const Chevron = node.expanded ? ChevronDown : ChevronRight;
  return (
    <button
      type="button"
      data-testid="graph-group"
      aria-expanded={node.expanded}
      onClick={onToggle}
      title={node.expanded ? RELATIONSHIP_TEXTS.hideChildren : RELATIONSHIP_TEXTS.expandGroup}
      className="flex h-full w-full items-center gap-2 rounded-md border border-dashed border-slate-400 bg-slate-50 px-2.5 text-left text-xs text-slate-800 hover:bg-slate-100"
    >
      <Chevron aria-hidden className="size-3.5 shrink-0" />
      <Layers aria-hidden className="size-3.5 shrink-0 text-slate-500" />
      <span className="truncate font-medium">{RELATIONSHIP_TEXTS.group(node.members.length, node.type)}</span>
    </button>
  );
}

/**
 * The relationship graph (spec 3 section 2.1): laid out by dagre (ADR 0022) along the chosen
 * direction, edges drawn in the chosen style with arrows in the relationship's direction.
 * Groups and collapsed items open and close on click; an item's name opens its page.
 */
export function RelationshipsGraph({ rows, rootId, direction, edgeStyle }: RelationshipsGraphProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const markerId = useId();
  const placed = useMemo(
    () => layoutRelationshipGraph(buildRelationshipGraph(rows, rootId, expanded), direction),
    [rows, rootId, expanded, direction],
  );
  const byId = new Map(placed.nodes.map((node) => [node.id, node]));
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="min-h-0 flex-1 overflow-auto rounded-lg border border-slate-200 bg-slate-50/50">
      <div
        role="img"
        aria-label={RELATIONSHIP_TEXTS.graph}
        className="relative"
        style={{ width: placed.width, height: placed.height }}
      >
        <svg width={placed.width} height={placed.height} className="absolute inset-0" aria-hidden>
          <defs>
            <marker id={markerId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
              <path d="M0,0 L10,5 L0,10 z" className="fill-slate-400" />
            </marker>
          </defs>
          {placed.edges.map((edge) => {
            const from = byId.get(edge.from);
            const to = byId.get(edge.to);
            if (!from || !to) return null;
            return (
              <path
                key={edge.id}
                data-testid="graph-edge"
                d={edgePath(from, to, direction, edgeStyle)}
                fill="none"
                className="stroke-slate-400"
                strokeWidth={1.5}
                markerEnd={`url(#${markerId})`}
              />
            );
          })}
        </svg>
        {placed.nodes.map((node) => (
          <div
            key={node.id}
            className="absolute"
            style={{ left: node.x, top: node.y, width: node.width, height: node.height }}
          >
            {node.kind === 'group' ? (
              <GroupNode node={node} onToggle={() => toggle(node.id)} />
            ) : (
              <ConfigNode node={node} opened={!node.root && expanded.has(node.id)} onToggle={() => toggle(node.id)} />
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
