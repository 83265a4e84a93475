import { describe, expect, it } from 'vitest';
import {
  changeTotal,
  configClassOf,
  costChangePercent,
  formatCost,
  formatCount,
  groupLabels,
  isHighChangeCount,
  isStale,
  toggleFavourite,
  typeLabel,
} from './catalog-fns';

describe('catalog-fns', () => {
  it('writes counts above 999 as Nk+ and flags 500 or more', () => {
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1k+');
    expect(formatCount(25_400)).toBe('25k+');
    expect(isHighChangeCount(499)).toBe(false);
    expect(isHighChangeCount(500)).toBe(true);
  });

  it('shows a cost change only beyond 10% of the daily mean', () => {
    expect(costChangePercent(1.05, 30)).toBeUndefined();
    expect(costChangePercent(1.2, 30)).toBe(20);
    expect(costChangePercent(0.5, 30)).toBe(-50);
    expect(costChangePercent(null, 30)).toBeUndefined();
    expect(formatCost(3.456)).toBe('$3.46');
    expect(formatCost(1234.5)).toBe('$1,235');
    expect(formatCost(null)).toBe('');
  });

  it('splits class and type at ::', () => {
    expect(configClassOf('Kubernetes::Pod')).toBe('Kubernetes');
    expect(typeLabel('Kubernetes::Pod')).toBe('Pod');
    expect(typeLabel('File')).toBe('File');
  });

  it('groups labels by the prefix before : or /', () => {
    expect(groupLabels({ 'app.kubernetes.io/name': 'web', team: 'blue', 'aws:region': 'eu' })).toEqual([
      ['', [['team', 'blue']]],
      ['app.kubernetes.io', [['name', 'web']]],
      ['aws', [['region', 'eu']]],
    ]);
  });

  it('flags items not scraped for over an hour', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    expect(isStale('2026-01-01T10:59:00Z', now)).toBe(true);
    expect(isStale('2026-01-01T11:30:00Z', now)).toBe(false);
    expect(isStale(null, now)).toBe(false);
  });

  it('sums changes and toggles favourites', () => {
    expect(changeTotal([{ total: 2 }, { total: 3 }])).toBe(5);
    expect(toggleFavourite(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleFavourite(['a', 'b'], 'a')).toEqual(['b']);
  });
});
