import { describe, expect, it } from 'vitest';
import { applyJobHistoryParams, parseJobHistoryParams } from './job-history-params';

const parse = (query: string) => parseJobHistoryParams(new URLSearchParams(query));
const apply = (query: string, update: Parameters<typeof applyJobHistoryParams>[1]) =>
  applyJobHistoryParams(new URLSearchParams(query), update).toString();

describe('parseJobHistoryParams (spec 2 section 9)', () => {
  it('defaults to everything but SUCCESS, page 0 of 150 rows, newest first', () => {
    expect(parse('')).toEqual({
      name: {},
      resourceType: undefined,
      status: { SUCCESS: -1 },
      duration: '',
      pageIndex: 0,
      pageSize: 150,
      sortBy: 'created_at',
      sortDesc: true,
    });
  });

  it('reads every parameter back', () => {
    expect(
      parse(
        'name=SyncCanary:1,CleanupJobHistory:-1&resourceType=canary&status=FAILED:1&duration=2s&pageIndex=3&pageSize=50&sortBy=duration_millis&sortOrder=asc',
      ),
    ).toEqual({
      name: { SyncCanary: 1, CleanupJobHistory: -1 },
      resourceType: 'canary',
      status: { FAILED: 1 },
      duration: '2s',
      pageIndex: 3,
      pageSize: 50,
      sortBy: 'duration_millis',
      sortDesc: false,
    });
  });

  it('takes an empty status as every status, not the default', () => {
    expect(parse('status=').status).toEqual({});
  });

  it('falls back to the defaults for malformed values', () => {
    expect(parse('pageIndex=-2&pageSize=7&sortBy=password&sortOrder=sideways')).toMatchObject({
      pageIndex: 0,
      pageSize: 150,
      sortBy: 'created_at',
      sortDesc: true,
    });
  });
});

describe('applyJobHistoryParams', () => {
  it('leaves defaults out of the address and writes an emptied status as status=', () => {
    expect(apply('', { status: { SUCCESS: -1 } })).toBe('');
    expect(apply('', { status: {} })).toBe('status=');
    expect(apply('status=FAILED%3A1', { status: { SUCCESS: -1 } })).toBe('');
    expect(apply('', { sortBy: 'created_at', sortDesc: true, pageSize: 150 })).toBe('');
  });

  it('goes back to the first page when a filter, the order or the page size changes', () => {
    expect(apply('pageIndex=4', { duration: '500ms' })).toBe('duration=500ms');
    expect(apply('pageIndex=4', { sortBy: 'name', sortDesc: false })).toBe('sortBy=name&sortOrder=asc');
    expect(apply('pageIndex=4', { resourceType: undefined })).toBe('');
    expect(apply('pageIndex=4&pageSize=50', { pageSize: 150, pageIndex: 0 })).toBe('');
  });

  it('keeps the other parameters (the time range) and moves pages', () => {
    expect(apply('range=now-7d&rangeType=relative', { pageIndex: 2 })).toBe(
      'range=now-7d&rangeType=relative&pageIndex=2',
    );
    expect(apply('name=a%3A1', { name: { a: 1, b: -1 } })).toBe('name=a%3A1%2Cb%3A-1');
  });
});
