import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration, formatPercentage } from '@/lib/format';

describe('formatDuration', () => {
  it('shows milliseconds under one second', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(999)).toBe('999ms');
    expect(formatDuration(12.345)).toBe('12.35ms');
  });

  it('shows seconds from 1000 ms up to a minute', () => {
    expect(formatDuration(1000)).toBe('1s');
    expect(formatDuration(12_500)).toBe('12.5s');
    expect(formatDuration(1_234)).toBe('1.23s');
    expect(formatDuration(59_000)).toBe('59s');
  });

  it('shows minutes from a minute up to an hour', () => {
    expect(formatDuration(60_000)).toBe('1m');
    expect(formatDuration(90_000)).toBe('1.5m');
    expect(formatDuration(3_599_000)).toBe('59.98m');
  });

  it('shows hours from an hour on', () => {
    expect(formatDuration(3_600_000)).toBe('1h');
    expect(formatDuration(5_400_000)).toBe('1.5h');
    expect(formatDuration(86_400_000)).toBe('24h');
  });

  it('moves to the next unit when rounding reaches its threshold', () => {
    expect(formatDuration(999.999)).toBe('1s');
    expect(formatDuration(59_999)).toBe('1m');
    expect(formatDuration(3_599_999)).toBe('1h');
  });

  it('keeps the sign of negative durations', () => {
    expect(formatDuration(-1_500)).toBe('-1.5s');
  });

  it('shows "-" for missing values', () => {
    expect(formatDuration(null)).toBe('-');
    expect(formatDuration(undefined)).toBe('-');
    expect(formatDuration(Number.NaN)).toBe('-');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('-');
  });
});

describe('formatPercentage', () => {
  it('shows one decimal', () => {
    expect(formatPercentage(99.5)).toBe('99.5%');
    expect(formatPercentage(99.54)).toBe('99.5%');
    expect(formatPercentage(100)).toBe('100.0%');
    expect(formatPercentage(0)).toBe('0.0%');
    expect(formatPercentage(33.333)).toBe('33.3%');
  });

  it('does not show a negative zero', () => {
    expect(formatPercentage(-0.01)).toBe('0.0%');
  });

  it('shows "-" for missing values', () => {
    expect(formatPercentage(null)).toBe('-');
    expect(formatPercentage(undefined)).toBe('-');
    expect(formatPercentage(Number.NaN)).toBe('-');
  });
});

describe('formatDateTime', () => {
  it('shows local date and minutes', () => {
    const local = new Date(2024, 9, 2, 14, 5, 30);
    expect(formatDateTime(local)).toBe('2024-10-02 14:05');
    expect(formatDateTime(local.toISOString())).toBe('2024-10-02 14:05');
  });

  it("reads '-' for a missing or unreadable value", () => {
    expect(formatDateTime(null)).toBe('-');
    expect(formatDateTime(undefined)).toBe('-');
    expect(formatDateTime('')).toBe('-');
    expect(formatDateTime('not a date')).toBe('-');
  });
});
