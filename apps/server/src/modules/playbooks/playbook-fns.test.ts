import { timingSafeEqual } from 'node:crypto';
import { parsePlaybookSpec, type PlaybookSpec } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { mergePatch } from './actions/gitops-action.js';
import { scrub } from './actions/run-action.js';
import { approvalComplete } from './playbook-approvals.js';
import { matchLabelSelector, playbookApplies, selectorMatches, type TargetResource } from './playbook-match-fns.js';
import { nextStep, retryDelayMs, timeoutNanos, type ActionRowState } from './playbook-plan-fns.js';
import { celSpans, evaluateCondition, renderDeep, renderText } from './playbook-template-fns.js';
import { webhookAuthorized } from './playbook-webhooks.js';

const spec = (actions: PlaybookSpec['actions']): PlaybookSpec => {
  const parsed = parsePlaybookSpec({ actions });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.spec;
};
const row = (index: number, name: string, status: string, error: string | null = null): ActionRowState => ({
  action_index: index,
  name,
  status,
  error,
  result: {},
});

describe('templates', () => {
  const env = { params: { name: 'api', replicas: 2 }, config: { name: 'web', tags: { env: 'prod' } } };
  it('renders Go-template fields and $(CEL) in one string', () => {
    expect(renderText('scale {{ .params.name }} to $(params.replicas + 1) in {{ config.tags.env }}', env)).toEqual({
      text: 'scale api to 3 in prod',
      errors: [],
    });
  });
  it('keeps nested parentheses and quotes inside $(...)', () => {
    expect(celSpans('a $(size("x)y")) b')).toEqual([[2, 16]]);
    expect(renderText('$(string(size("ab")))', env).text).toBe('2');
  });
  it('renders a failing part as empty text and names it', () => {
    const out = renderText('x{{ .params.missing.deep }}y', env);
    expect(out.text).toBe('xy');
    expect(out.errors[0]).toContain('params.missing.deep');
  });
  it('renders every string of an action spec', () => {
    expect(
      renderDeep(
        { exec: { script: 'echo {{ .params.name }}', env: [{ name: 'N', value: '$(params.replicas)' }] } },
        env,
      ).value,
    ).toEqual({
      exec: { script: 'echo api', env: [{ name: 'N', value: '2' }] },
    });
  });
  it('evaluates if conditions and the status functions', () => {
    expect(evaluateCondition('always()', env, true)).toEqual({ run: true });
    expect(evaluateCondition('failure()', env, false)).toEqual({ run: false });
    expect(evaluateCondition('success()', env, false)).toEqual({ run: true });
    expect(evaluateCondition("params.name == 'api'", env, false)).toEqual({ run: true });
    expect(evaluateCondition('params.name', env, false).error).toContain('true or false');
  });
});

describe('the next step of a run', () => {
  const three = spec([
    { name: 'a', exec: { script: 'true' } },
    { name: 'b', delay: '5s', exec: { script: 'true' } },
    { name: 'c', if: 'always()', exec: { script: 'true' } },
  ] as PlaybookSpec['actions']);
  it('starts with the first action and waits while one is open', () => {
    expect(nextStep(three, [], {})).toMatchObject({ kind: 'action', index: 0, delayMs: 0 });
    expect(nextStep(three, [row(0, 'a', 'running')], {})).toEqual({ kind: 'wait' });
  });
  it('queues the next action with its delay', () => {
    expect(nextStep(three, [row(0, 'a', 'completed')], {})).toMatchObject({ kind: 'action', index: 1, delayMs: 5000 });
  });
  it('after a failure skips actions without an if and ends failed', () => {
    const after = nextStep(three, [row(0, 'a', 'failed', 'boom')], {});
    expect(after).toMatchObject({ kind: 'action', index: 2, skipped: [{ index: 1, name: 'b' }] });
    expect(
      nextStep(three, [row(0, 'a', 'failed', 'boom'), row(1, 'b', 'skipped'), row(2, 'c', 'completed')], {}),
    ).toEqual({
      kind: 'finish',
      status: 'failed',
      error: 'a: boom',
      skipped: [],
    });
  });
  it('completes when every action is done', () => {
    const done = [row(0, 'a', 'completed'), row(1, 'b', 'completed'), row(2, 'c', 'completed')];
    expect(nextStep(three, done, {})).toMatchObject({ kind: 'finish', status: 'completed', error: null });
  });
  it('reads earlier results in conditions', () => {
    const two = spec([
      { name: 'a', exec: { script: 'true' } },
      { name: 'b', if: "actions.a.result.stdout == 'yes'", exec: { script: 'true' } },
    ] as PlaybookSpec['actions']);
    const done = { ...row(0, 'a', 'completed'), result: { stdout: 'no' } };
    expect(nextStep(two, [done], {})).toMatchObject({ kind: 'finish', skipped: [{ name: 'b' }] });
  });
  it('computes retry waits and timeouts', () => {
    const action = three.actions[0]!;
    expect(retryDelayMs({ ...action, retry: { limit: 1, duration: '10s', jitter: 50 } }, () => 1)).toBe(15_000);
    expect(timeoutNanos('1m', '30m')).toBe(60_000_000_000n);
    expect(timeoutNanos(undefined, '30m')).toBe(1_800_000_000_000n);
  });
});

describe('selectors and approvals', () => {
  const target: TargetResource = {
    kind: 'config',
    id: 'id-1',
    name: 'web-api',
    namespace: 'prod',
    type: 'Kubernetes::Deployment',
    status: 'healthy',
    agent_id: null,
    labels: { app: 'web' },
    tags: { cluster: 'eu' },
    row: { name: 'web-api', type: 'Kubernetes::Deployment' },
  };
  it('matches types by glob, labels and tags', () => {
    expect(selectorMatches({ types: ['Kubernetes::*'] }, target)).toBe(true);
    expect(selectorMatches({ types: ['AWS::*'] }, target)).toBe(false);
    expect(selectorMatches({ labelSelector: 'app=web', tagSelector: 'cluster!=us' }, target)).toBe(true);
    expect(matchLabelSelector('app,!missing', { app: 'x' })).toBe(true);
  });
  it('applies a playbook only to the kinds it selects, through its filters', () => {
    const base = spec([{ name: 'a', exec: { script: 'true' } }] as PlaybookSpec['actions']);
    expect(playbookApplies({ ...base, configs: [{ types: ['Kubernetes::Deployment'] }] }, target)).toBe(true);
    expect(playbookApplies({ ...base, checks: [{ types: ['http'] }] }, target)).toBe(false);
    expect(
      playbookApplies({ ...base, configs: [{ name: 'web-*' }], filters: ["config.name == 'other'"] }, target),
    ).toBe(false);
    expect(playbookApplies(base, undefined)).toBe(true);
    expect(playbookApplies({ ...base, configs: [{ name: '*' }] }, undefined)).toBe(false);
  });
  it('completes any/all approvals', () => {
    const approvers = { people: ['a@x.io'], teams: ['sre'] };
    const a = { email: 'a@x.io', person_id: '1', teams: [] };
    const sre = { email: 'b@x.io', person_id: '2', teams: ['sre'] };
    expect(approvalComplete('any', approvers, [a])).toBe(true);
    expect(approvalComplete('all', approvers, [a])).toBe(false);
    expect(approvalComplete('all', approvers, [a, sre])).toBe(true);
    expect(approvalComplete('any', approvers, [])).toBe(false);
  });
});

describe('webhooks, patches and scrubbing', () => {
  it('checks webhook tokens and basic credentials', () => {
    expect(webhookAuthorized(undefined, undefined, timingSafeEqual)).toBe(true);
    expect(webhookAuthorized({ token: 't0k' }, 'Bearer t0k', timingSafeEqual)).toBe(true);
    expect(webhookAuthorized({ token: 't0k' }, 'Bearer nope', timingSafeEqual)).toBe(false);
    const basic = `Basic ${Buffer.from('u:p').toString('base64')}`;
    expect(webhookAuthorized({ basic: { username: 'u', password: 'p' } }, basic, timingSafeEqual)).toBe(true);
    expect(webhookAuthorized({ basic: { username: 'u', password: 'q' } }, basic, timingSafeEqual)).toBe(false);
  });
  it('merges JSON merge patches', () => {
    expect(mergePatch({ spec: { replicas: 1, keep: true }, drop: 1 }, { spec: { replicas: 3 }, drop: null })).toEqual({
      spec: { replicas: 3, keep: true },
    });
  });
  it('masks credentials in stored results', () => {
    expect(scrub({ stdout: 'token hunter2 used', n: 1 }, new Set(['hunter2']))).toEqual({
      stdout: 'token *** used',
      n: 1,
    });
  });
});
