import { CATALOG_CHANGES_PARAMS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import {
  applyChangesParams,
  changesBody,
  changesChips,
  parseChangesParams,
  recursiveMode,
  tagsCondition,
} from './changes-params';
import { changesWindow } from './changes-window';

const LABELS = {
  id: 'Config',
  summary: 'Summary',
  source: 'Source',
  created_by: 'Created By',
  external_created_by: 'External Created By',
  tags: 'Tags',
  changeType: 'Change Type',
  severity: 'Severity',
  configTypes: 'Config Type',
};
const WEEK = { from: 'now-7d', to: 'now' };

describe('changes params', () => {
  it('reads the defaults: page 1 of 200, newest first, downstream on, upstream off', () => {
    const params = parseChangesParams(new URLSearchParams());
    expect(params).toMatchObject({
      page: 1,
      pageSize: 200,
      sortBy: 'created_at',
      sortDirection: 'desc',
      downstream: true,
      upstream: false,
      changeType: {},
    });
  });

  it('reads every parameter the spec lists', () => {
    const search = new URLSearchParams({
      id: '0192a5d4-0000-7000-8000-000000000001',
      summary: 'image',
      source: 'kubernetes',
      created_by: 'alice',
      external_created_by: 'bob',
      tags: 'namespace=prod:1',
      changeType: 'diff:1,BackOff:-1',
      severity: 'high:1',
      configTypes: 'Kubernetes::Pod:1',
      page: '3',
      pageSize: '50',
      sortBy: 'severity',
      sortDirection: 'asc',
    });
    expect([...search.keys()]).toEqual([...CATALOG_CHANGES_PARAMS]);
    const params = parseChangesParams(search);
    expect(params).toMatchObject({
      summary: 'image',
      source: 'kubernetes',
      created_by: 'alice',
      external_created_by: 'bob',
      tags: { 'namespace=prod': 1 },
      changeType: { diff: 1, BackOff: -1 },
      severity: { high: 1 },
      configTypes: { 'Kubernetes::Pod': 1 },
      page: 3,
      pageSize: 50,
      sortBy: 'severity',
      sortDirection: 'asc',
    });
  });

  it('falls back on malformed values', () => {
    const params = parseChangesParams(new URLSearchParams('page=-2&pageSize=7&sortBy=drop table&sortDirection=up'));
    expect(params).toMatchObject({ page: 1, pageSize: 200, sortBy: 'created_at', sortDirection: 'desc' });
  });

  it('writes updates, drops defaults and goes back to page 1 when a filter changes', () => {
    const start = new URLSearchParams('page=4&rangeType=relative');
    const next = applyChangesParams(start, { severity: { high: 1 }, downstream: true, upstream: true });
    expect(next.get('page')).toBeNull();
    expect(next.get('severity')).toBe('high:1');
    expect(next.get('downstream')).toBeNull();
    expect(next.get('upstream')).toBe('true');
    expect(next.get('rangeType')).toBe('relative');
    expect(applyChangesParams(next, { page: 2 }).get('page')).toBe('2');
    expect(applyChangesParams(next, { severity: {} }).has('severity')).toBe(false);
  });

  it('builds the call: window, paging, order, "a,!b" lists, tags and deleted items', () => {
    const params = parseChangesParams(
      new URLSearchParams(
        'changeType=diff:1,BackOff:-1&severity=high:1&configTypes=Kubernetes::Pod:1&tags=namespace=prod:1,team=a:-1&summary=image&external_created_by=bob&page=2&sortBy=severity&sortDirection=asc',
      ),
    );
    expect(changesBody(params, WEEK, true)).toEqual({
      from: 'now-7d',
      to: 'now',
      page: 2,
      page_size: 200,
      sort_by: 'severity',
      include_deleted_configs: false,
      recursive: 'none',
      config_type: 'Kubernetes::Pod',
      type: 'diff,!BackOff',
      severity: 'high',
      tags: 'namespace=prod,team!=a',
      summary: 'image',
      created_by: 'bob',
    });
    expect(changesBody(parseChangesParams(new URLSearchParams()), WEEK, false)).toMatchObject({
      sort_by: '-created_at',
      include_deleted_configs: true,
    });
  });

  it("follows an item's related items by the toggles", () => {
    expect(recursiveMode(true, false)).toBe('downstream');
    expect(recursiveMode(false, true)).toBe('upstream');
    expect(recursiveMode(true, true)).toBe('all');
    expect(recursiveMode(false, false)).toBe('none');
    const body = changesBody(parseChangesParams(new URLSearchParams('upstream=true')), WEEK, true, 'cfg');
    expect(body).toMatchObject({ id: 'cfg', recursive: 'all', depth: 5 });
  });

  it('reads tag selections as conditions, leaving out malformed ones', () => {
    expect(tagsCondition({ 'a=b': 1, 'c=d=e': -1, bad: 1 })).toBe('a=b,c!=d=e');
  });

  it('lists a chip per active filter with the update that clears it', () => {
    const params = parseChangesParams(new URLSearchParams('severity=high:1,info:-1&source=kubernetes&id=x'));
    const chips = changesChips(params, LABELS, ['id']);
    expect(chips.map((chip) => [chip.label, chip.value])).toEqual([
      ['Severity', 'high, !info'],
      ['Source', 'kubernetes'],
    ]);
    expect(chips[0]!.clear).toEqual({ severity: {} });
    expect(chips[1]!.clear).toEqual({ source: '' });
  });

  it('sends relative and named ranges as date-math, absolute ones as ISO', () => {
    expect(changesWindow({ type: 'relative', display: 'Last 7 days', range: 'now-7d' })).toEqual(WEEK);
    expect(changesWindow({ type: 'mapped', display: 'Today so far', from: 'now/d', to: 'now' })).toEqual({
      from: 'now/d',
      to: 'now',
    });
    const from = '2026-01-01T00:00:00.000Z';
    const to = '2026-01-02T00:00:00.000Z';
    expect(changesWindow({ type: 'absolute', display: 'x', from, to })).toEqual({ from, to });
  });
});
