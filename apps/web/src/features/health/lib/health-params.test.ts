import { describe, expect, it } from 'vitest';
import { applyHealthParams, parseHealthParams, parseLabelFilter } from './health-params';

describe('parseHealthParams', () => {
  it('applies the spec defaults to an empty address', () => {
    expect(parseHealthParams(new URLSearchParams())).toEqual({
      query: '',
      labels: {},
      hidePassing: true,
      groupBy: 'canary_name',
      tabBy: 'namespace',
      tab: '',
      layout: 'table',
      checkId: undefined,
      sortBy: undefined,
      sortDesc: false,
      pageIndex: 0,
      pageSize: 50,
      pivotBy: undefined,
      pivotLabel: undefined,
      pivotCellType: undefined,
    });
  });

  it('reads every parameter of spec 2 section 2.2', () => {
    const params = parseHealthParams(
      new URLSearchParams(
        'query=api&labels=%7B%22canary%3Aenv%3Aprod%22%3A1%7D&layout=card&checkId=abc&sortBy=uptime&sortDesc=true' +
          '&groupBy=type&tabBy=team&tab=sre&hidePassing=false&pageIndex=2&pageSize=100' +
          '&pivotBy=labels&pivotLabel=env&pivotCellType=latency',
      ),
    );
    expect(params).toMatchObject({
      query: 'api',
      labels: { 'canary:env:prod': 1 },
      layout: 'card',
      checkId: 'abc',
      sortBy: 'uptime',
      sortDesc: true,
      groupBy: 'type',
      tabBy: 'team',
      tab: 'sre',
      hidePassing: false,
      pageIndex: 2,
      pageSize: 100,
      pivotBy: 'labels',
      pivotLabel: 'env',
      pivotCellType: 'latency',
    });
  });

  it('falls back to defaults for values it does not know', () => {
    const params = parseHealthParams(new URLSearchParams('layout=grid&sortBy=colour&pageSize=7&pageIndex=-1'));
    expect(params).toMatchObject({ layout: 'table', sortBy: undefined, pageSize: 50, pageIndex: 0 });
  });
});

describe('parseLabelFilter', () => {
  it('keeps includes and excludes and drops zeros and junk', () => {
    expect(parseLabelFilter('{"canary:a:1":1,"canary:b:2":-1,"canary:c:3":0,"canary:d:4":"x"}')).toEqual({
      'canary:a:1': 1,
      'canary:b:2': -1,
    });
    expect(parseLabelFilter('not json')).toEqual({});
    expect(parseLabelFilter('[1]')).toEqual({});
  });
});

describe('applyHealthParams', () => {
  it('leaves defaults out of the address and keeps other parameters', () => {
    const next = applyHealthParams(new URLSearchParams('range=now-1h&groupBy=type'), {
      groupBy: 'canary_name',
      hidePassing: false,
      labels: {},
    });
    expect(next.toString()).toBe('range=now-1h&hidePassing=false');
  });

  it('goes back to the first page when the rows change', () => {
    const next = applyHealthParams(new URLSearchParams('pageIndex=3'), { query: 'db' });
    expect(next.get('pageIndex')).toBeNull();
    expect(applyHealthParams(new URLSearchParams('pageIndex=3'), { checkId: 'x' }).get('pageIndex')).toBe('3');
  });
});
