import { describe, expect, it } from 'vitest';
import { sortByHealth, sortComponents, sortOptions } from './topology-sort';
import type { TopologyComponent } from './topology-types';

const c = (name: string, health: string, extra: Partial<TopologyComponent> = {}): TopologyComponent => ({
  id: name,
  name,
  health,
  ...extra,
});

describe('topology sort', () => {
  it('puts unhealthy first, then warning, then healthy', () => {
    const sorted = sortByHealth([c('a', 'healthy'), c('b', 'warning'), c('c', 'unhealthy'), c('d', 'unknown')]);
    expect(sorted.map((x) => x.name)).toEqual(['c', 'b', 'a', 'd']);
  });
  it('reverses with desc, keeping missing values last', () => {
    const sorted = sortComponents(
      [c('b', 'healthy'), c('a', 'healthy'), c('z', 'healthy', { name: '' })],
      'name',
      'desc',
    );
    expect(sorted.map((x) => x.id)).toEqual(['b', 'a', 'z']);
  });
  it('sorts by a headline property', () => {
    const p = (value: number) => ({ properties: [{ name: 'cost', value, headline: true }] });
    const sorted = sortComponents(
      [c('a', 'healthy', p(5)), c('b', 'healthy', p(1)), c('n', 'healthy')],
      'field:cost',
      'asc',
    );
    expect(sorted.map((x) => x.id)).toEqual(['b', 'a', 'n']);
  });
  it('offers the standard fields and each headline property once', () => {
    const props = { properties: [{ name: 'cost', headline: true }, { name: 'region' }] };
    expect(sortOptions([c('a', 'healthy', props), c('b', 'healthy', props)]).map((o) => o.label)).toEqual([
      'Health',
      'Name',
      'Type',
      'Last Updated',
      'cost',
    ]);
  });
});
