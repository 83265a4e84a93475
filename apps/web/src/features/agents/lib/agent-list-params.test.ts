import { describe, expect, it } from 'vitest';
import { backlogAgeMs, coarseAge, listRequestOf, pageCountOf, withListRequest } from './agent-list-params';

describe('listRequestOf', () => {
  it('starts newest first, 50 a page, on the first page', () => {
    expect(listRequestOf(new URLSearchParams())).toEqual({
      sortBy: 'created_at',
      desc: true,
      pageSize: 50,
      pageIndex: 0,
    });
  });

  it('reads the sort, order, size and page from the address', () => {
    const params = new URLSearchParams('sortBy=name&sortOrder=asc&pageSize=200&pageIndex=2');
    expect(listRequestOf(params)).toEqual({ sortBy: 'name', desc: false, pageSize: 200, pageIndex: 2 });
  });

  it('falls back on a column that is not sortable, a size the page does not offer and a bad page', () => {
    const params = new URLSearchParams('sortBy=checks_count&sortOrder=asc&pageSize=25&pageIndex=-1');
    expect(listRequestOf(params)).toEqual({ sortBy: 'created_at', desc: true, pageSize: 50, pageIndex: 0 });
  });
});

describe('withListRequest', () => {
  it('writes the request and keeps the drawer parameter', () => {
    const next = withListRequest(new URLSearchParams('id=a1&pageIndex=3'), {
      sortBy: 'status',
      desc: false,
      pageSize: 100,
      pageIndex: 0,
    });
    expect(Object.fromEntries(next)).toEqual({ id: 'a1', sortBy: 'status', sortOrder: 'asc', pageSize: '100' });
  });
});

describe('pageCountOf and backlogAgeMs', () => {
  it('counts at least one page', () => {
    expect(pageCountOf(0, 50)).toBe(1);
    expect(pageCountOf(101, 50)).toBe(3);
  });

  it('gives the age of the oldest unpushed row, none without one', () => {
    const now = Date.parse('2026-01-01T00:05:00Z');
    expect(backlogAgeMs('2026-01-01T00:00:00Z', now)).toBe(300_000);
    expect(backlogAgeMs(null, now)).toBeUndefined();
    expect(backlogAgeMs('not a time', now)).toBeUndefined();
  });
});

describe('coarseAge', () => {
  it('reads in the largest whole unit', () => {
    expect(coarseAge(40_500)).toBe('40s');
    expect(coarseAge(5 * 60_000 + 8_000)).toBe('5m');
    expect(coarseAge(3 * 3_600_000 + 1)).toBe('3h');
    expect(coarseAge(47 * 3_600_000)).toBe('47h');
    expect(coarseAge(3 * 86_400_000)).toBe('3d');
  });
});
