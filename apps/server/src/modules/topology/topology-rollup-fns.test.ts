import { describe, expect, it } from 'vitest';
import { checkHealthCounts, rollUp, sameSummary } from './topology-rollup-fns.js';

const none = { checks: {}, insights: {}, incidents: {}, children: [] };

describe('rollUp', () => {
  it('is unknown with nothing to go by, and its own health otherwise', () => {
    expect(rollUp({ ownHealth: null, ...none })).toEqual({ health: 'unknown', summary: {} });
    expect(rollUp({ ownHealth: 'healthy', ...none }).health).toBe('healthy');
  });

  it('takes the worst of its own, its checks and its children (unhealthy > warning > unknown > healthy)', () => {
    expect(rollUp({ ...none, ownHealth: 'healthy', checks: { healthy: 2, unhealthy: 1 } }).health).toBe('unhealthy');
    expect(rollUp({ ...none, ownHealth: 'healthy', children: [{ health: 'warning', summary: null }] }).health).toBe(
      'warning',
    );
    expect(rollUp({ ...none, ownHealth: 'healthy', children: [{ health: 'unknown', summary: null }] }).health).toBe(
      'unknown',
    );
    expect(
      rollUp({
        ...none,
        ownHealth: 'warning',
        children: [
          { health: 'unhealthy', summary: null },
          { health: 'healthy', summary: null },
        ],
      }).health,
    ).toBe('unhealthy');
    // A check that never ran is unknown.
    expect(rollUp({ ...none, ownHealth: 'healthy', checks: { unknown: 1 } }).health).toBe('unknown');
  });

  it('adds children summaries and counts children by health', () => {
    const result = rollUp({
      ownHealth: null,
      checks: { healthy: 1 },
      insights: { cost: { high: 1 } },
      incidents: {},
      children: [
        { health: 'unhealthy', summary: { checks: { unhealthy: 2 }, insights: { cost: { high: 2, low: 1 } } } },
        { health: 'healthy', summary: { checks: { healthy: 3 } } },
        { health: null, summary: null },
      ],
    });
    expect(result.summary).toEqual({
      unhealthy: 1,
      healthy: 1,
      unknown: 1,
      checks: { healthy: 4, unhealthy: 2 },
      insights: { cost: { high: 3, low: 1 } },
    });
    expect(result.health).toBe('unhealthy');
  });
});

describe('checkHealthCounts and sameSummary', () => {
  it('maps statuses to healths and compares regardless of key order', () => {
    expect(checkHealthCounts({ healthy: 1, unhealthy: 0, pending: 2 })).toEqual({ healthy: 1, unknown: 2 });
    expect(sameSummary({ checks: { a: 1, b: 2 } } as never, { checks: { b: 2, a: 1 } } as never)).toBe(true);
    expect(sameSummary(null, {})).toBe(true);
    expect(sameSummary({ healthy: 1 }, { healthy: 2 })).toBe(false);
  });
});
