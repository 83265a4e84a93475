import { describe, expect, it } from 'vitest';
import { rewriteSearchFilter, rewriteSearchFilters, unescapeFilterValue } from './search-filter-fns.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');

describe('rewriting <column>.filter parameters', () => {
  it('turns included values into an in list', () => {
    expect(rewriteSearchFilter('status', 'healthy,warning')).toEqual([['status', 'in.("healthy","warning")']]);
  });

  it('turns excluded values into not.in', () => {
    expect(rewriteSearchFilter('status', '!unhealthy,!unknown')).toEqual([
      ['status', 'not.in.("unhealthy","unknown")'],
    ]);
  });

  it('keeps includes and excludes together', () => {
    expect(rewriteSearchFilter('type', 'http,!tcp')).toEqual([
      ['type', 'not.in.("tcp")'],
      ['type', 'in.("http")'],
    ]);
  });

  it('turns a wildcard into like, and several alternatives into or', () => {
    expect(rewriteSearchFilter('name', 'api*')).toEqual([['name', 'like.api*']]);
    expect(rewriteSearchFilter('name', '!*-test')).toEqual([['name', 'not.like.*-test']]);
    expect(rewriteSearchFilter('name', 'web,api*')).toEqual([['or', '(name.in.("web"),name.like."api*")']]);
  });

  it('restores escaped colons and commas inside values', () => {
    expect(unescapeFilterValue('app____web||||v2')).toBe('app:web,v2');
    expect(rewriteSearchFilter('labels', 'team____sre')).toEqual([['labels', 'in.("team:sre")']]);
  });

  it('quotes values that contain quotes or backslashes', () => {
    expect(rewriteSearchFilter('name', 'say "hi"\\')).toEqual([['name', 'in.("say \\"hi\\"\\\\")']]);
  });

  it('turns time comparisons into gt/lt with an ISO time', () => {
    expect(rewriteSearchFilter('created_at', '>now-1d', NOW)).toEqual([['created_at', 'gt.2026-11-20T12:00:00.000Z']]);
    expect(rewriteSearchFilter('created_at', '<now', NOW)).toEqual([['created_at', 'lt.2026-11-21T12:00:00.000Z']]);
    expect(rewriteSearchFilter('duration_millis', '>500', NOW)).toEqual([['duration_millis', 'gt.500']]);
  });

  it('resolves relative times by calendar for months and years', () => {
    expect(rewriteSearchFilter('created_at', '>now-1M', NOW)).toEqual([['created_at', 'gt.2026-10-21T12:00:00.000Z']]);
    expect(rewriteSearchFilter('created_at', '<now+2h', NOW)).toEqual([['created_at', 'lt.2026-11-21T14:00:00.000Z']]);
    expect(rewriteSearchFilter('created_at', '>yesterday', NOW)).toEqual([['created_at', 'gt.yesterday']]);
  });

  it('rewrites only .filter parameters and leaves the rest of the query untouched', () => {
    const query = 'select=id,name&order=name.asc&status.filter=healthy%2C!unknown&limit=10';
    expect(rewriteSearchFilters(query, NOW)).toBe(
      `select=id,name&order=name.asc&status=${encodeURIComponent('not.in.("unknown")')}&status=${encodeURIComponent('in.("healthy")')}&limit=10`,
    );
    expect(rewriteSearchFilters('select=*&name=eq.x')).toBe('select=*&name=eq.x');
  });

  it('drops an empty filter and passes malformed encoding through for the engine to report', () => {
    expect(rewriteSearchFilters('status.filter=&limit=1')).toBe('limit=1');
    expect(rewriteSearchFilters('status.filter=%E0%A4%A&limit=1')).toBe('status.filter=%E0%A4%A&limit=1');
  });
});
