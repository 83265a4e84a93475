import { describe, expect, it } from 'vitest';
import { breadcrumbIds, componentHref, pageComponents } from './topology-links';
import { readFilters, topologyQuery, writeFilters } from './topology-params';

describe('topology filters in the address', () => {
  it('reads All as no filter and defaults to the health sort, unhealthy first', () => {
    const filters = readFilters(new URLSearchParams('status=All&type=Database&labels=app%3Dweb'));
    expect(filters).toEqual({
      status: '',
      type: 'Database',
      team: '',
      labels: 'app=web',
      agentId: '',
      sortBy: 'status',
      sortOrder: 'asc',
    });
  });
  it('builds the fetch query, flattening when a type is chosen', () => {
    const filters = readFilters(new URLSearchParams('type=Database&agent_id=a1&team=ops'));
    expect(topologyQuery(filters, 'c1')).toEqual({
      id: 'c1',
      type: 'Database',
      flatten: 'true',
      team: 'ops',
      agent_id: 'a1',
      sortBy: 'status',
      sortOrder: 'asc',
    });
    expect(topologyQuery(readFilters(new URLSearchParams()))).toEqual({ sortBy: 'status', sortOrder: 'asc' });
  });
  it('writes changes, dropping defaults and keeping other parameters', () => {
    const next = writeFilters(new URLSearchParams('refererId=r&status=healthy'), { status: '', sortBy: 'name' });
    expect(next.toString()).toBe('refererId=r&sortBy=name&sortOrder=asc');
    expect(writeFilters(next, { sortBy: 'status' }).toString()).toBe('refererId=r');
  });
});

describe('component links', () => {
  it('carries the filters and a refererId when the page is not the parent', () => {
    const search = new URLSearchParams('status=unhealthy&refererId=old');
    expect(componentHref({ id: 'x', path: 'root.p' }, search, 'other')).toBe(
      '/topology/x?status=unhealthy&refererId=other',
    );
    expect(componentHref({ id: 'x', path: 'root.p' }, search, 'p')).toBe('/topology/x?status=unhealthy');
    expect(componentHref({ id: 'x' }, new URLSearchParams(), undefined)).toBe('/topology/x');
    expect(componentHref({ id: 'x' }, search, 'x')).toBeNull();
  });
  it('lists the breadcrumb trail once per id', () => {
    expect(breadcrumbIds({ path: 'a.b' }, 'c', 'b')).toEqual(['a', 'b', 'c']);
    expect(breadcrumbIds(null, undefined, undefined)).toEqual([]);
  });
  it('shows the children of a component, else the component itself', () => {
    const child = { id: 'k', name: 'kid' };
    expect(pageComponents([{ id: 'p', name: 'p', components: [child] }], 'p')).toEqual([child]);
    expect(pageComponents([{ id: 'p', name: 'p', components: [] }], 'p')).toEqual([
      { id: 'p', name: 'p', components: [] },
    ]);
    expect(
      pageComponents(
        [
          { id: 'a', name: '' },
          { id: 'b', name: 'b' },
        ],
        undefined,
      ),
    ).toEqual([{ id: 'b', name: 'b' }]);
  });
});
