import { describe, expect, it } from 'vitest';
import { pageCountOf, parseSendHistoryParams, sendHistoryQueryParams } from './send-history-params';

describe('send history parameters', () => {
  it('reads defaults from an empty address', () => {
    expect(parseSendHistoryParams(new URLSearchParams())).toEqual({
      status: '',
      resourceType: '',
      pageIndex: 0,
      pageSize: 50,
    });
  });

  it('ignores a page or size that is not a whole number in range', () => {
    const params = parseSendHistoryParams(new URLSearchParams('pageIndex=-1&pageSize=0'));
    expect(params.pageIndex).toBe(0);
    expect(params.pageSize).toBe(50);
  });

  it('asks newest first, one page, with the tristate filters as <column>.filter', () => {
    const query = sendHistoryQueryParams({
      status: 'repeat-interval:1,error:-1',
      resourceType: 'check:1',
      pageIndex: 2,
      pageSize: 25,
    });
    expect(query).toEqual({
      select: '*',
      order: 'created_at.desc',
      limit: 25,
      offset: 50,
      'resource_type.filter': 'check',
      'status.filter': 'repeat-interval,!error',
    });
  });

  it('leaves the filters out when nothing is chosen', () => {
    const query = sendHistoryQueryParams({ status: '', resourceType: '', pageIndex: 0, pageSize: 50 });
    expect(query).not.toHaveProperty('status.filter');
    expect(query).not.toHaveProperty('resource_type.filter');
  });

  it('counts pages, at least one', () => {
    expect(pageCountOf(0, 50)).toBe(1);
    expect(pageCountOf(101, 50)).toBe(3);
  });
});
