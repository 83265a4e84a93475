import { describe, expect, it } from 'vitest';
import { describeProperty, formatBytes, formatCurrency, formatUnitValue, usagePercent } from './property-format';

describe('formatCurrency (spec 3 section 2.2)', () => {
  it('uses k for thousands with one decimal', () => {
    expect(formatCurrency(1500)).toBe('1.5k');
    expect(formatCurrency(12_345)).toBe('12.3k');
  });
  it('shows whole numbers above 100 and one decimal above 10', () => {
    expect(formatCurrency(150.6)).toBe('151');
    expect(formatCurrency(12.34)).toBe('12.3');
    expect(formatCurrency('42.25')).toBe('42.3');
  });
  it('keeps two decimals below 10 and three under a cent', () => {
    expect(formatCurrency(9.5)).toBe('9.50');
    expect(formatCurrency(0.005)).toBe('0.005');
    expect(formatCurrency(0)).toBe('0');
    expect(formatCurrency(null)).toBe('0');
  });
});

describe('units', () => {
  it('shows milli* in whole units with two decimals', () => {
    expect(formatUnitValue(1500, 'millicores')).toBe('1.50');
    expect(formatUnitValue(250, 'milliseconds')).toBe('0.25');
  });
  it('scales bytes, with one decimal from a gigabyte', () => {
    expect(formatBytes(1536)).toBe('1.5KB');
    expect(formatUnitValue(512 * 1024 * 1024, 'bytes')).toBe('512MB');
    expect(formatUnitValue(3 * 1024 ** 3 + 512 * 1024 ** 2, 'bytes')).toBe('3.5GB');
  });
  it('turns a ratio into percent', () => {
    expect(formatUnitValue(0.25, 'percent')).toBe('25%');
  });
});

describe('describeProperty', () => {
  const now = new Date('2026-01-10T00:00:00Z');
  it('hides hidden and empty properties', () => {
    expect(describeProperty({ name: 'secret', type: 'hidden', text: 'x' })).toEqual({ kind: 'hidden' });
    expect(describeProperty({ name: 'empty' })).toEqual({ kind: 'hidden' });
  });
  it('links urls without the scheme', () => {
    expect(describeProperty({ name: 'docs', type: 'url', text: 'https://example.org/a' })).toEqual({
      kind: 'url',
      href: 'https://example.org/a',
      text: 'example.org/a',
    });
  });
  it('shows an age for age properties and created/updated names', () => {
    expect(describeProperty({ name: 'started', type: 'age', text: '2026-01-07T00:00:00Z' }, { now })).toMatchObject({
      kind: 'age',
      text: '3 days',
    });
    expect(describeProperty({ name: 'created_at', text: '2026-01-09T22:00:00Z' }, { now })).toMatchObject({
      kind: 'age',
      text: '2 hours',
    });
  });
  it('formats currency', () => {
    expect(describeProperty({ name: 'cost', type: 'currency', value: 2500 })).toMatchObject({ text: '2.5k' });
  });
  it('shows usage as a share of max, red above 70 %', () => {
    const memory = { name: 'memory', unit: 'bytes', value: 800 * 1024 ** 2, max: 1024 ** 3 };
    expect(usagePercent(memory)).toBe(78);
    expect(describeProperty(memory)).toEqual({ kind: 'text', text: '78% of 1GB', red: true, title: '800MB' });
    expect(describeProperty(memory, { short: true })).toMatchObject({ text: '78%', red: true });
    expect(describeProperty({ name: 'cpu', unit: 'millicores', value: 700, max: 1000 })).toMatchObject({
      text: '70% of 1.00',
      red: false,
    });
  });
  it('formats plain values by unit, and text as given', () => {
    expect(describeProperty({ name: 'cpu', unit: 'millicores', value: 2500 })).toMatchObject({ text: '2.50' });
    expect(describeProperty({ name: 'region', type: 'text', text: 'eu-west-1' })).toMatchObject({ text: 'eu-west-1' });
    expect(describeProperty({ name: 'replicas', value: 3 })).toMatchObject({ text: '3', red: false });
  });
  it('shows links when there is no value', () => {
    expect(describeProperty({ name: 'runbooks', links: [{ label: 'wiki', url: 'https://w' }] })).toEqual({
      kind: 'links',
      links: [{ label: 'wiki', url: 'https://w' }],
    });
  });
});
