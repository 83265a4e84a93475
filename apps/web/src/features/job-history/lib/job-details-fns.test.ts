import { describe, expect, it } from 'vitest';
import { hasDetailsData, jobDetailsTabs, jobErrors } from './job-details-fns';

describe('jobErrors (spec 2 section 3: three shapes)', () => {
  it('reads a string', () => {
    expect(jobErrors('connection refused')).toEqual([{ message: 'connection refused' }]);
  });

  it('reads a list of strings, skipping empty entries', () => {
    expect(jobErrors(['timeout', '', 'refused'])).toEqual([{ message: 'timeout' }, { message: 'refused' }]);
  });

  it('reads an object keyed by item with a nested error', () => {
    expect(
      jobErrors({
        'pod/a': { error: 'forbidden' },
        'pod/b': { error: { message: 'not found' } },
        'pod/c': 'plain text',
        'pod/d': { code: 7 },
        'pod/e': {},
      }),
    ).toEqual([
      { item: 'pod/a', message: 'forbidden' },
      { item: 'pod/b', message: 'not found' },
      { item: 'pod/c', message: 'plain text' },
      { item: 'pod/d', message: '{"code":7}' },
    ]);
  });

  it('has nothing for missing or empty errors', () => {
    expect(jobErrors(undefined)).toEqual([]);
    expect(jobErrors(null)).toEqual([]);
    expect(jobErrors('  ')).toEqual([]);
    expect(jobErrors([])).toEqual([]);
    expect(jobErrors({})).toEqual([]);
  });
});

describe('jobDetailsTabs (spec 2 section 2.7)', () => {
  it('lists only the parts with data, Errors first, then Scrape Summary, then the summary', () => {
    expect(jobDetailsTabs({ summary: { pushed: 3 }, errors: ['x'], scrape_summary: { pods: 2 } })).toEqual([
      'errors',
      'scrape_summary',
      'summary',
    ]);
    expect(jobDetailsTabs({ summary: { pushed: 3 }, scrape_summary: { pods: 2 } })).toEqual([
      'scrape_summary',
      'summary',
    ]);
    expect(jobDetailsTabs({ summary: { pushed: 3 }, errors: [] })).toEqual(['summary']);
  });

  it('has no tab (no modal) when all three are empty or absent', () => {
    expect(jobDetailsTabs(null)).toEqual([]);
    expect(jobDetailsTabs({ checks: 3 })).toEqual([]);
    expect(jobDetailsTabs({ errors: '', scrape_summary: {}, summary: null })).toEqual([]);
  });
});

describe('hasDetailsData', () => {
  it('counts zero and false as data, empty containers as none', () => {
    expect(hasDetailsData(0)).toBe(true);
    expect(hasDetailsData(false)).toBe(true);
    expect(hasDetailsData([''])).toBe(false);
    expect(hasDetailsData({ a: null })).toBe(true);
  });
});
