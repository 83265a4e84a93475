import type { WhatChangedItem } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { checkTransitions, rankChanges, toSeverity, type CheckResultRow } from './topology-changes-fns.js';

const item = (
  id: string,
  severity: WhatChangedItem['severity'],
  at: string,
  relation: WhatChangedItem['relation'] = 'self',
) =>
  ({
    kind: 'config_change',
    id,
    at,
    severity,
    relation,
    component: { id: 'c', name: 'C' },
    title: 'diff',
    summary: null,
  }) satisfies WhatChangedItem;

describe('rankChanges', () => {
  it('puts the most severe first and the newest first within a severity', () => {
    const ranked = rankChanges(
      [
        item('old-high', 'high', '2026-01-01T10:05:00Z'),
        item('new-info', 'info', '2026-01-01T10:59:00Z'),
        item('new-high', 'high', '2026-01-01T10:50:00Z'),
        item('critical', 'critical', '2026-01-01T10:01:00Z'),
        item('medium', 'medium', '2026-01-01T10:30:00Z'),
      ],
      10,
    );
    expect(ranked.map((entry) => entry.id)).toEqual(['critical', 'new-high', 'old-high', 'medium', 'new-info']);
  });

  it('puts the component’s own entry before a relative’s at the same time and keeps the limit', () => {
    const at = '2026-01-01T10:00:00Z';
    const ranked = rankChanges(
      [item('b-child', 'low', at, 'child'), item('z-self', 'low', at, 'self'), item('a', 'info', at)],
      2,
    );
    expect(ranked.map((entry) => entry.id)).toEqual(['z-self', 'b-child']);
  });
});

describe('toSeverity', () => {
  it('maps stored text onto the known severities', () => {
    expect(toSeverity('High')).toBe('high');
    expect(toSeverity(' critical ')).toBe('critical');
    expect(toSeverity('urgent')).toBeUndefined();
    expect(toSeverity(null)).toBeUndefined();
  });
});

describe('checkTransitions', () => {
  const owners = new Map([
    ['k1', { relation: 'self' as const, component: { id: 'c', name: 'C' } }],
    ['k2', { relation: 'child' as const, component: { id: 'd', name: 'D' } }],
  ]);
  const row = (check: string, time: string, status: boolean, extra: Partial<CheckResultRow> = {}): CheckResultRow => ({
    check_id: check,
    check_name: check.toUpperCase(),
    check_severity: null,
    time,
    status,
    message: 'ok',
    error: status ? null : 'timeout',
    ...extra,
  });

  it('finds the flips against the result before the window', () => {
    const items = checkTransitions(
      [
        row('k1', '2026-01-01T10:20:00Z', false),
        row('k1', '2026-01-01T10:10:00Z', true),
        row('k1', '2026-01-01T10:30:00Z', false),
        row('k1', '2026-01-01T10:40:00Z', true),
      ],
      new Map([['k1', true]]),
      owners,
    );
    expect(items.map((entry) => [entry.at, entry.status, entry.severity, entry.summary])).toEqual([
      ['2026-01-01T10:20:00.000Z', 'unhealthy', 'high', 'timeout'],
      ['2026-01-01T10:40:00.000Z', 'healthy', 'info', 'ok'],
    ]);
    expect(items[0]).toMatchObject({
      kind: 'check_transition',
      id: 'k1@2026-01-01T10:20:00.000Z',
      title: 'K1',
      check: { id: 'k1', name: 'K1' },
    });
  });

  it('counts a first failing result without history, uses the check’s severity, skips unknown checks', () => {
    const items = checkTransitions(
      [
        row('k2', '2026-01-01T10:00:00Z', false, { check_severity: 'Critical' }),
        row('k2', '2026-01-01T10:01:00Z', false),
        row('k3', '2026-01-01T10:00:00Z', false),
      ],
      new Map(),
      owners,
    );
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ severity: 'critical', relation: 'child', component: { id: 'd', name: 'D' } });
    expect(checkTransitions([row('k1', '2026-01-01T10:00:00Z', true)], new Map(), owners)).toEqual([]);
  });
});
