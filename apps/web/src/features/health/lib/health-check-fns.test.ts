import type { CheckSummary } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { checkSummaryFixture } from '@/test/health-fixtures';
import {
  checksInTab,
  collectLabels,
  compareLabelKeys,
  filterChecks,
  healthCounts,
  healthTabs,
  labelFilterGroups,
  matchesLabels,
  matchesSearch,
} from './health-check-fns';

const check = (overrides: Partial<CheckSummary> & { name: string }) => checkSummaryFixture(overrides);
const NO_AGENTS = new Map<string, string>();

describe('label order', () => {
  it('puts account, namespace and name first', () => {
    expect(['zone', 'name', 'app', 'namespace', 'account'].sort(compareLabelKeys)).toEqual([
      'account',
      'namespace',
      'name',
      'app',
      'zone',
    ]);
  });
});

describe('labelFilterGroups', () => {
  it('gives boolean labels a toggle and the others a multi-select', () => {
    const labels = collectLabels([
      check({ name: 'a', labels: { critical: 'true', env: 'prod' } }),
      check({ name: 'b', labels: { critical: 'false', env: 'dev' } }),
    ]);
    expect(labelFilterGroups(labels)).toEqual([
      { kind: 'toggle', key: 'critical', id: 'canary:critical:true' },
      {
        kind: 'multi',
        key: 'env',
        labels: [
          { id: 'canary:env:dev', key: 'env', value: 'dev' },
          { id: 'canary:env:prod', key: 'env', value: 'prod' },
        ],
      },
    ]);
  });
});

describe('matchesLabels', () => {
  const prodSre = check({ name: 'a', labels: { env: 'prod', team: 'sre' } });
  it('includes any value of a key, and needs every included key', () => {
    expect(matchesLabels(prodSre, { 'canary:env:prod': 1, 'canary:env:dev': 1 })).toBe(true);
    expect(matchesLabels(prodSre, { 'canary:env:prod': 1, 'canary:team:ops': 1 })).toBe(false);
    expect(matchesLabels(check({ name: 'b' }), { 'canary:env:prod': 1 })).toBe(false);
  });
  it('hides a check with an excluded label', () => {
    expect(matchesLabels(prodSre, { 'canary:team:sre': -1 })).toBe(false);
    expect(matchesLabels(prodSre, { 'canary:team:ops': -1 })).toBe(true);
  });
  it('reads values that contain a colon', () => {
    const url = check({ name: 'c', labels: { link: 'http://x' } });
    expect(matchesLabels(url, { 'canary:link:http://x': 1 })).toBe(true);
  });
});

describe('search and filters', () => {
  const api = check({
    name: 'api',
    description: 'Payments API',
    endpoint: 'https://pay.example.com',
    status: 'healthy',
  });
  it('matches name, description and endpoint, ignoring case', () => {
    expect(matchesSearch(api, 'PAYMENTS')).toBe(true);
    expect(matchesSearch(api, 'pay.example')).toBe(true);
    expect(matchesSearch(api, 'orders')).toBe(false);
  });
  it('hides passing checks when asked', () => {
    const failing = check({ name: 'db', status: 'unhealthy' });
    const never = check({ name: 'new', status: null });
    expect(filterChecks([api, failing, never], { query: '', labels: {}, hidePassing: true })).toEqual([failing, never]);
    expect(healthCounts([api, failing, never])).toEqual({ passing: 1, failing: 1 });
  });
});

describe('tabs', () => {
  const checks = [
    check({ name: 'a', namespace: 'shop', labels: { team: 'sre' } }),
    check({ name: 'b', namespace: '', labels: { team: 'ops' } }),
    check({ name: 'c', namespace: 'default' }),
  ];
  it('lists All first, then sorted namespaces with none for an empty one', () => {
    expect(healthTabs(checks, 'namespace', NO_AGENTS).map((tab) => tab.label)).toEqual([
      'All',
      'default',
      'none',
      'shop',
    ]);
    expect(checksInTab(checks, 'namespace', 'none', NO_AGENTS).map((c) => c.name)).toEqual(['b']);
  });
  it('tabs by label values and by agent name', () => {
    expect(healthTabs(checks, 'team', NO_AGENTS).map((tab) => tab.label)).toEqual(['All', 'ops', 'sre']);
    expect(healthTabs(checks, 'agent_id', NO_AGENTS).map((tab) => tab.label)).toEqual(['All', 'local']);
    const agents = new Map([['00000000-0000-0000-0000-000000000000', 'here']]);
    expect(healthTabs(checks, 'agent_id', agents).map((tab) => tab.label)).toEqual(['All', 'here']);
  });
});
