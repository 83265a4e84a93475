import { describe, expect, it } from 'vitest';
import { utcTimestampToIso } from './utc-timestamps.js';

describe('utcTimestampToIso', () => {
  it('writes what Date#toISOString writes, truncating microseconds', () => {
    expect(utcTimestampToIso('2026-11-21 18:56:49.458264+00')).toBe('2026-11-21T18:56:49.458Z');
    expect(utcTimestampToIso('2026-11-21 18:56:49.4+00')).toBe('2026-11-21T18:56:49.400Z');
    expect(utcTimestampToIso('2026-11-21 18:56:49+00')).toBe('2026-11-21T18:56:49.000Z');
    expect(utcTimestampToIso('2026-11-21 18:56:49.999999+00')).toBe(new Date('2026-11-21T18:56:49.999Z').toISOString());
  });

  it('reads other zones through Date and leaves what Date cannot read as it is', () => {
    expect(utcTimestampToIso('2026-11-21 20:56:49.5+02')).toBe('2026-11-21T18:56:49.500Z');
    expect(utcTimestampToIso('infinity')).toBe('infinity');
  });
});
