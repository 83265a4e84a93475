import { describe, expect, it } from 'vitest';
import { checkSummaryFixture } from '@/test/health-fixtures';
import { groupChecks, groupUptime, rowHealth, rowLatency } from './health-group-fns';

const check = checkSummaryFixture;

describe('groupChecks', () => {
  const a = check({ name: 'a', canary_name: 'web', type: 'http', status: 'healthy' });
  const b = check({ name: 'b', canary_name: 'web', type: 'tcp', status: 'unhealthy' });
  const c = check({ name: 'c', canary_name: 'data', type: 'tcp', description: 'Store', labels: { team: 'sre' } });

  it('makes one row per check without grouping', () => {
    expect(groupChecks([a, b, c], 'no-group').map((row) => row.title)).toEqual(['a', 'b', 'c']);
  });

  it('groups by canary name, showing a lone check as itself', () => {
    const rows = groupChecks([a, b, c], 'canary_name');
    expect(rows.map((row) => [row.kind, row.title])).toEqual([
      ['group', 'web'],
      ['check', 'c'],
    ]);
    const [web] = rows;
    if (web?.kind !== 'group') throw new Error('expected a group');
    expect(rowHealth(web)).toBe('mixed');
    expect(groupUptime(web)).toEqual({ passed: 0, total: 2 });
  });

  it('groups by type and description, with (none) for a missing value', () => {
    expect(groupChecks([a, b, c], 'type').map((row) => row.title)).toEqual(['a', 'tcp']);
    expect(groupChecks([a, b, c], 'description').map((row) => row.title)).toEqual(['(none)', 'c']);
  });

  it('groups by the name before a slash', () => {
    const rows = groupChecks(
      [check({ name: 'eu/api' }), check({ name: 'eu/db' }), check({ name: 'us/api' }), check({ name: 'plain' })],
      'name',
    );
    expect(rows.map((row) => row.title)).toEqual(['eu', 'us/api', 'plain']);
    const [eu] = rows;
    expect(eu?.kind === 'group' && eu.rows.map((row) => row.title)).toEqual(['api', 'db']);
  });

  it('groups by a label, with Others for checks without it', () => {
    const d = check({ name: 'd', labels: { team: 'sre' } });
    expect(groupChecks([a, b, c, d], 'team').map((row) => row.title)).toEqual(['Others', 'sre']);
  });

  it('shows the slowest latency of a group', () => {
    const slow = check({ name: 'x', canary_name: 'g', latency: { p95: 900, p97: null, p99: null } });
    const fast = check({ name: 'y', canary_name: 'g', latency: { p95: null, p97: 20, p99: 30 } });
    const [group] = groupChecks([slow, fast], 'canary_name');
    expect(group && rowLatency(group)).toBe(900);
  });
});
