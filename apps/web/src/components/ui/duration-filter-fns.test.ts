import { describe, expect, it } from 'vitest';
import { parseDurationFilter } from './duration-filter-fns';

describe('parseDurationFilter (spec 2 section 5)', () => {
  it('accepts All, milliseconds and seconds, converting seconds', () => {
    expect(parseDurationFilter('All')).toEqual({ kind: 'all' });
    expect(parseDurationFilter('')).toEqual({ kind: 'all' });
    expect(parseDurationFilter('500ms')).toEqual({ kind: 'min', ms: 500 });
    expect(parseDurationFilter('1.5s')).toEqual({ kind: 'min', ms: 1500 });
    expect(parseDurationFilter(' 30s ')).toEqual({ kind: 'min', ms: 30_000 });
  });
  it('refuses other units and text', () => {
    expect(parseDurationFilter('2m')).toEqual({ kind: 'invalid' });
    expect(parseDurationFilter('fast')).toEqual({ kind: 'invalid' });
    expect(parseDurationFilter('100')).toEqual({ kind: 'invalid' });
  });
});
