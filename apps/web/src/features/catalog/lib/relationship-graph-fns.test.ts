import { describe, expect, it } from 'vitest';
import { buildRelationshipGraph, withAncestors, type RelatedConfig } from './relationship-graph-fns';
import { edgePath, layoutRelationshipGraph } from './relationship-layout-fns';

const row = (
  id: string,
  type: string,
  depth: number,
  related: string[] = [],
  direction = 'outgoing',
): RelatedConfig => ({
  id,
  name: id,
  type,
  status: null,
  health: 'healthy',
  tags: null,
  deleted_at: null,
  related_ids: related,
  depth,
  direction: depth === 0 ? 'self' : direction,
});

// cluster → ns, deploy, secret; deploy → 5 pods (a node with more than 3 children); ns → 3
// services (one type: a group); secret → s1 too; an upstream owner points at the cluster.
const pods = ['p1', 'p2', 'p3', 'p4', 'p5'];
const rows: RelatedConfig[] = [
  row('cluster', 'Cluster', 0, ['ns', 'deploy', 'secret']),
  row('ns', 'Namespace', 1, ['s1', 's2', 's3']),
  row('deploy', 'Deployment', 1, pods),
  ...pods.map((id) => row(id, 'Pod', 2)),
  row('s1', 'Service', 2),
  row('s2', 'Service', 2),
  row('s3', 'Service', 2),
  row('secret', 'Secret', 1, ['s1']),
  row('owner', 'Account', 1, ['cluster'], 'incoming'),
];

const ids = (graph: ReturnType<typeof buildRelationshipGraph>) => graph.nodes.map((node) => node.id).sort();

describe('buildRelationshipGraph', () => {
  it('collapses a node with more than 3 children and groups 3 or more of one type', () => {
    const graph = buildRelationshipGraph(rows, 'cluster', new Set());
    expect(ids(graph)).toEqual(['cluster', 'deploy', 'group:ns:down:Service', 'ns', 'owner', 'secret'].sort());
    const deploy = graph.nodes.find((node) => node.id === 'deploy');
    expect(deploy).toMatchObject({ kind: 'config', hiddenChildren: 5 });
    const group = graph.nodes.find((node) => node.kind === 'group');
    expect(group).toMatchObject({ type: 'Service', expanded: false });
    expect(group?.kind === 'group' && group.members.map((member) => member.id)).toEqual(['s1', 's2', 's3']);
    // Edges keep their real direction: the upstream owner points at the cluster.
    expect(graph.edges).toEqual(
      expect.arrayContaining([
        { id: 'owner->cluster', from: 'owner', to: 'cluster' },
        { id: 'ns->group:ns:down:Service', from: 'ns', to: 'group:ns:down:Service' },
      ]),
    );
  });

  it('shows the children of a clicked node (grouped: 5 pods are one node) and the members of an opened group', () => {
    const opened = buildRelationshipGraph(rows, 'cluster', new Set(['deploy']));
    expect(ids(opened)).toContain('group:deploy:down:Pod');
    const both = buildRelationshipGraph(
      rows,
      'cluster',
      new Set(['deploy', 'group:deploy:down:Pod', 'group:ns:down:Service']),
    );
    expect(ids(both)).toEqual(expect.arrayContaining([...pods, 's1', 's2', 's3']));
    expect(both.edges).toEqual(
      expect.arrayContaining([
        { id: 'group:deploy:down:Pod->p1', from: 'group:deploy:down:Pod', to: 'p1' },
        // secret → s1 is no tree edge: drawn besides the group's.
        { id: 'secret->s1', from: 'secret', to: 's1' },
      ]),
    );
  });

  it('keeps the items between a filtered item and the root', () => {
    expect(
      withAncestors(rows, 'cluster', new Set(['p3']))
        .map((r) => r.id)
        .sort(),
    ).toEqual(['cluster', 'deploy', 'p3']);
  });

  it('answers nothing without the root', () => {
    expect(buildRelationshipGraph(rows, 'missing', new Set())).toEqual({ nodes: [], edges: [] });
  });
});

describe('layoutRelationshipGraph', () => {
  it('places ranks 120 apart and nodes of one rank 100 apart (dagre)', () => {
    const graph = buildRelationshipGraph(
      [row('a', 'A', 0, ['b', 'c']), row('b', 'B', 1), row('c', 'C', 1)],
      'a',
      new Set(),
    );
    const placed = layoutRelationshipGraph(graph, 'TB');
    const at = (id: string) => placed.nodes.find((node) => node.id === id)!;
    expect(at('b').y - (at('a').y + at('a').height)).toBe(120);
    expect(Math.abs(at('c').x - at('b').x) - at('b').width).toBe(100);
    const sideways = layoutRelationshipGraph(graph, 'LR');
    const lr = (id: string) => sideways.nodes.find((node) => node.id === id)!;
    expect(lr('b').x - (lr('a').x + lr('a').width)).toBe(120);
    expect(edgePath(at('a'), at('b'), 'TB', 'straight')).toMatch(/^M[\d.]+,[\d.]+ L[\d.]+,[\d.]+$/);
    expect(edgePath(at('a'), at('b'), 'TB', 'curved')).toContain(' C');
    expect(edgePath(at('a'), at('b'), 'TB', 'step').match(/L/g)).toHaveLength(3);
  });
});
