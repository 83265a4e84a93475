import { describe, expect, it } from 'vitest';
import { ageOf, spanOf } from './age-fns';

describe('ages', () => {
  const now = new Date('2026-01-02T12:00:00Z');
  it('says how long ago', () => {
    expect(ageOf('2026-01-02T11:55:00Z', now)).toBe('5 minutes ago');
    expect(ageOf(null, now)).toBe('-');
    expect(ageOf('nope', now)).toBe('-');
  });
  it('gives a span between two times', () => {
    expect(spanOf('2026-01-02T10:00:00Z', '2026-01-02T12:00:00Z')).toBe('2 hours');
    expect(spanOf('2026-01-02T10:00:00Z', null)).toBe('-');
  });
});
