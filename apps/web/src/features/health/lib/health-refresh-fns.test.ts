import { describe, expect, it } from 'vitest';
import { disabledRefreshRates, effectiveRefreshRate, toHealthRefreshRate } from './health-refresh-fns';

const HOUR = 3_600_000;

describe('refresh rates (spec 2 section 4)', () => {
  it('disables 15s and 30s from 1 hour, and 2m and 3m from 3 hours', () => {
    expect([...disabledRefreshRates(30 * 60_000)]).toEqual([]);
    expect([...disabledRefreshRates(HOUR)]).toEqual(['15s', '30s']);
    expect([...disabledRefreshRates(3 * HOUR)]).toEqual(['15s', '30s', '2m', '3m']);
  });
  it('falls back from a disabled rate to the next allowed one', () => {
    expect(effectiveRefreshRate('15s', HOUR)).toBe('60s');
    expect(effectiveRefreshRate('2m', 6 * HOUR)).toBe('5m');
    expect(effectiveRefreshRate('15s', 15 * 60_000)).toBe('15s');
    expect(effectiveRefreshRate('None', 6 * HOUR)).toBe('None');
  });
  it('reads unknown stored values as None', () => {
    expect(toHealthRefreshRate('1h')).toBe('None');
    expect(toHealthRefreshRate('10m')).toBe('10m');
  });
});
