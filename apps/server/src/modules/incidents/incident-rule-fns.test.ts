import { describe, expect, it } from 'vitest';
import {
  globMatches,
  matchingRules,
  planRuleIncident,
  renderRuleText,
  ruleMismatch,
  ruleSpecProblems,
  type IncidentRule,
  type RuleResource,
} from './incident-rule-fns.js';

const check: RuleResource = {
  kind: 'check',
  id: 'c1',
  name: 'payments-api',
  namespace: 'prod',
  type: 'http',
  failures: 2,
};
const component: RuleResource = {
  kind: 'component',
  id: 'm1',
  name: 'db',
  namespace: 'prod',
  type: 'database',
  health: 'unhealthy',
};
const insight: RuleResource = {
  kind: 'insight',
  id: 'a1',
  name: 'bucket',
  namespace: null,
  type: 'AWS::S3::Bucket',
  status: 'open',
  severity: 'critical',
  category: 'security',
  message: 'public read',
};

describe('globMatches', () => {
  it('treats * as any run of characters and everything else literally', () => {
    expect(globMatches('payments-*', 'payments-api')).toBe(true);
    expect(globMatches('payments-*', 'orders-api')).toBe(false);
    expect(globMatches('a.b', 'aXb')).toBe(false);
    expect(globMatches(undefined, null)).toBe(true);
    expect(globMatches('prod', null)).toBe(false);
  });
});

describe('ruleMismatch', () => {
  it('opens for a check once it failed the required times in a row', () => {
    expect(ruleMismatch({ checks: [{ name: 'payments-*' }] }, check)).toBeUndefined();
    expect(ruleMismatch({ checks: [{ name: 'payments-*' }], filter: { failures: 3 } }, check)).toBe(
      'failed 2 of 3 times in a row',
    );
    expect(ruleMismatch({ components: [{}] }, check)).toBe('the rule watches no checks');
    expect(ruleMismatch({ checks: [{ namespace: 'dev' }] }, check)).toBe('no selector matches');
  });

  it('opens for a component in one of the statuses (unhealthy by default)', () => {
    expect(ruleMismatch({ components: [{ type: 'database' }] }, component)).toBeUndefined();
    expect(ruleMismatch({ components: [{}], filter: { status: ['warning'] } }, component)).toBe(
      'status unhealthy is not warning',
    );
  });

  it('opens for an open insight of the severities and categories', () => {
    expect(
      ruleMismatch({ insights: [{}], filter: { severity: ['critical'], category: ['security'] } }, insight),
    ).toBeUndefined();
    expect(ruleMismatch({ insights: [{}], filter: { severity: ['low'] } }, insight)).toBe(
      'severity critical is not low',
    );
    expect(ruleMismatch({ insights: [{}] }, { ...insight, status: 'resolved' })).toBe('the insight is resolved');
  });
});

describe('matchingRules', () => {
  it('orders by priority and stops at a rule that breaks on match', () => {
    const rules: IncidentRule[] = [
      { id: '1', name: 'b', spec: { checks: [{}] } },
      { id: '2', name: 'a', spec: { checks: [{}], priority: 5, breakOnMatch: true } },
      { id: '3', name: 'c', spec: { checks: [{}], priority: 9 } },
    ];
    expect(matchingRules(rules, check).map((rule) => rule.id)).toEqual(['3', '2']);
  });
});

describe('planRuleIncident', () => {
  it('uses the original defaults and titles, or the template', () => {
    expect(planRuleIncident({ id: '1', name: 'r', spec: {} }, component)).toMatchObject({
      title: 'db is unhealthy',
      severity: 'low',
      status: 'open',
      type: 'availability',
      evidence: { type: 'topology' },
    });
    expect(
      planRuleIncident(
        { id: '1', name: 'r', spec: { template: { title: '{rule}: {name} ({severity})', severity: 'critical' } } },
        insight,
      ),
    ).toMatchObject({ title: 'r: bucket (critical)', severity: 'critical', evidence: { type: 'config_analysis' } });
    expect(renderRuleText('{unknown} {name}', check, 'r')).toBe('{unknown} payments-api');
  });
});

describe('ruleSpecProblems', () => {
  it('names each wrong field under spec', () => {
    expect(ruleSpecProblems({ checks: [{ name: 'x' }] })).toEqual([]);
    const problems = ruleSpecProblems({ filter: { failures: 0 }, template: { type: 'outage' }, extra: 1 });
    expect(problems.join('\n')).toContain('spec.filter.failures');
    expect(problems.join('\n')).toContain('spec.template.type');
    expect(problems.join('\n')).toContain('spec.');
  });
});
