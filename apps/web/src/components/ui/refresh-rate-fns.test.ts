import { describe, expect, it } from 'vitest';
import { normalizeRefreshRate, REFRESH_RATE_OPTIONS, refreshRateToMs } from '@/components/ui/refresh-rate-fns';

describe('refreshRateToMs', () => {
  it('converts every unit', () => {
    expect(refreshRateToMs('15s')).toBe(15_000);
    expect(refreshRateToMs('5m')).toBe(300_000);
    expect(refreshRateToMs('2h')).toBe(7_200_000);
    expect(refreshRateToMs('1d')).toBe(86_400_000);
    expect(refreshRateToMs('1w')).toBe(604_800_000);
  });

  it("treats 'None' and missing values as no refresh", () => {
    expect(refreshRateToMs('None')).toBeUndefined();
    expect(refreshRateToMs('')).toBeUndefined();
    expect(refreshRateToMs(null)).toBeUndefined();
    expect(refreshRateToMs(undefined)).toBeUndefined();
  });

  it('rejects what is not a rate', () => {
    expect(refreshRateToMs('15')).toBeUndefined();
    expect(refreshRateToMs('0s')).toBeUndefined();
    expect(refreshRateToMs('1M')).toBeUndefined();
    expect(refreshRateToMs('10ms')).toBeUndefined();
    expect(refreshRateToMs('-5m')).toBeUndefined();
  });

  it('offers None first and only valid rates', () => {
    expect(REFRESH_RATE_OPTIONS[0]).toBe('None');
    expect(REFRESH_RATE_OPTIONS.slice(1).every((rate) => refreshRateToMs(rate) !== undefined)).toBe(true);
  });
});

describe('normalizeRefreshRate', () => {
  it("falls back to 'None'", () => {
    expect(normalizeRefreshRate(null)).toBe('None');
    expect(normalizeRefreshRate('soon')).toBe('None');
    expect(normalizeRefreshRate('30s')).toBe('30s');
    expect(normalizeRefreshRate('45s')).toBe('45s');
  });
});
