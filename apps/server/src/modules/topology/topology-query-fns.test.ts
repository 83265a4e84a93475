import { describe, expect, it } from 'vitest';
import { childDepth, facets, nest, parseLabelFilter, sortComponents, type ComponentRow } from './topology-query-fns.js';

const row = (id: string, name: string, extra: Partial<ComponentRow> = {}): ComponentRow => ({
  id,
  name,
  status: 'healthy',
  health: 'healthy',
  summary: {},
  agent_id: '00000000-0000-0000-0000-000000000000',
  is_leaf: false,
  hidden: false,
  created_at: new Date('2026-01-01T00:00:00Z'),
  updated_at: '2026-01-02T00:00:00.000Z',
  ...extra,
});

describe('nest', () => {
  it('puts rows under their tree parent and ignores cycles', () => {
    const tree = nest(
      [
        row('a', 'A'),
        row('b', 'B', { tree_parent: 'a', log_selectors: [{ name: 'pods' }] }),
        row('a', 'A', { tree_parent: 'b' }),
      ],
      ['a'],
    );
    expect(tree).toHaveLength(1);
    expect(tree[0]!.components!.map((c) => c.name)).toEqual(['B']);
    expect(tree[0]!.components![0]!.logs).toEqual([{ name: 'pods' }]);
    expect(tree[0]!.components![0]!.components).toBeUndefined();
    expect(tree[0]!.created_at).toBe('2026-01-01T00:00:00.000Z');
  });
});

describe('sortComponents', () => {
  const list = () => [
    nest([row('1', 'b', { health: 'healthy', properties: [{ name: 'cpu', value: 5 }] })], ['1'])[0]!,
    nest([row('2', 'a', { health: 'warning', properties: [{ name: 'cpu', value: 50 }] })], ['2'])[0]!,
    nest([row('3', 'c', { health: 'unhealthy' })], ['3'])[0]!,
  ];
  it('sorts by name, by health rank (unhealthy first) and by a property, missing last', () => {
    expect(sortComponents(list()).map((c) => c.name)).toEqual(['a', 'b', 'c']);
    expect(sortComponents(list(), 'status').map((c) => c.name)).toEqual(['c', 'a', 'b']);
    expect(sortComponents(list(), 'cpu', 'desc').map((c) => c.name)).toEqual(['a', 'b', 'c']);
  });
});

describe('facets, labels and depth', () => {
  it('collects the filter options', () => {
    const listed = nest(
      [
        row('1', 'a', { type: 'DB', labels: { env: 'prod' } }),
        row('2', 'b', { type: 'App', health: 'warning', labels: { env: 'dev' } }),
      ],
      ['1', '2'],
    );
    expect(facets(listed, ['ops', 'ops'])).toEqual({
      healthStatuses: ['healthy', 'warning'],
      tags: { env: ['dev', 'prod'] },
      teams: ['ops'],
      types: ['App', 'DB'],
    });
  });
  it('reads k=v pairs and names a bad one', () => {
    expect(parseLabelFilter('env=prod, team = ops')).toEqual({ env: 'prod', team: 'ops' });
    expect(() => parseLabelFilter('env')).toThrow("labels: 'env' must be key=value");
  });
  it('lists children one level deep for an id, none at the top level, unless asked', () => {
    expect(childDepth({ id: 'x' })).toBe(1);
    expect(childDepth({})).toBe(0);
    expect(childDepth({ depth: 3 })).toBe(3);
  });
});
