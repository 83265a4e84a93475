import { describe, expect, it } from 'vitest';
import { jobHistoryPageCount, jobHistoryQueryParams, type JobHistoryQuery } from './job-history-query-fns';

const base: JobHistoryQuery = {
  name: {},
  status: { SUCCESS: -1 },
  pageIndex: 0,
  pageSize: 150,
  sortBy: 'created_at',
  sortDesc: true,
};

describe('jobHistoryQueryParams (ui-calls 3.9)', () => {
  it('asks for the default page as the original console does', () => {
    const window = { from: new Date('2024-10-01T10:00:00Z'), to: new Date('2024-10-03T10:00:00Z') };
    expect([...jobHistoryQueryParams({ ...base, window }).entries()]).toEqual([
      ['select', '*'],
      ['limit', '150'],
      ['offset', '0'],
      ['status.filter', '!SUCCESS'],
      ['order', 'created_at.desc'],
      ['and', '(created_at.gt.2024-10-01T10:00:00.000Z,created_at.lt.2024-10-03T10:00:00.000Z)'],
    ]);
  });

  it('adds the resource, names, statuses and minimum duration, and pages by offset', () => {
    const params = jobHistoryQueryParams({
      ...base,
      resourceType: 'team',
      resourceId: '0192a5d4-0000-7000-8000-000000000001',
      name: { SyncTeam: 1, 'Odd,name:x': -1 },
      status: { FAILED: 1, WARNING: 1 },
      minDurationMs: 1500,
      pageIndex: 2,
      pageSize: 50,
      sortBy: 'duration_millis',
      sortDesc: false,
    });
    expect(Object.fromEntries(params)).toEqual({
      select: '*',
      limit: '50',
      offset: '100',
      'resource_type.filter': 'team',
      resource_id: 'eq.0192a5d4-0000-7000-8000-000000000001',
      // ',' and ':' inside a value are escaped for the .filter grammar.
      'name.filter': 'SyncTeam,!Odd||||name____x',
      'status.filter': 'FAILED,WARNING',
      order: 'duration_millis.asc',
      duration_millis: 'gte.1500',
    });
  });

  it('sends no status filter when every status is wanted', () => {
    expect(jobHistoryQueryParams({ ...base, status: {} }).has('status.filter')).toBe(false);
  });
});

describe('jobHistoryPageCount', () => {
  it('counts pages of the size in use, one page when empty', () => {
    expect(jobHistoryPageCount(0, 150)).toBe(1);
    expect(jobHistoryPageCount(150, 150)).toBe(1);
    expect(jobHistoryPageCount(151, 150)).toBe(2);
    expect(jobHistoryPageCount(1000, 50)).toBe(20);
  });
});
