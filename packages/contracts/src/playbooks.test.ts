import { describe, expect, it } from 'vitest';
import {
  isDns1123,
  parameterProblem,
  parameterProblems,
  parsePlaybookDocument,
  parsePlaybookSpec,
  PLAYBOOK_TEXTS,
  specJsonSchema,
} from './index.js';

describe('playbook specs', () => {
  it('accept every action type and name wrong fields', () => {
    const ok = parsePlaybookSpec({
      parameters: [{ name: 'ns', type: 'text', properties: { format: 'dns1123' } }],
      approval: { type: 'all', approvers: { people: ['a@x.io'], teams: ['sre'] } },
      actions: [
        { name: 'e', exec: { script: 'echo hi' }, timeout: '1m', retry: { limit: 2, duration: '5s' } },
        { name: 'h', http: { url: 'https://example.com', method: 'POST' } },
        { name: 's', sql: { connection: 'connection://default/db', query: 'select 1' } },
        { name: 'n', notification: { url: 'slack://token@channel', title: 'hi' } },
        {
          name: 'g',
          gitops: { repo: { url: 'https://git/x.git' }, commit: { author: 'a', email: 'a@x', message: 'm' } },
        },
      ],
    });
    expect(ok.ok).toBe(true);
    const bad = parsePlaybookSpec({
      actions: [
        { name: 'x', exec: { script: '' }, pod: {} },
        { name: 'x', http: {} },
      ],
    });
    expect(bad.ok).toBe(false);
    const messages = bad.ok ? [] : bad.problems.map((problem) => problem.message);
    expect(messages).toContain(
      'spec.actions[0].pod: unknown field; action types Lookout runs are exec, http, sql, notification, gitops',
    );
    expect(messages.some((message) => message.startsWith('spec.actions[1].name: duplicate'))).toBe(true);
    expect(messages.some((message) => message.startsWith('spec.actions[1].http'))).toBe(true);
    expect(parsePlaybookSpec({ actions: [] }).ok).toBe(false);
  });
  it('validate whole documents', () => {
    const doc = parsePlaybookDocument({
      apiVersion: 'mission-control.flanksource.com/v1',
      kind: 'Playbook',
      metadata: { name: 'Bad_Name' },
      spec: { actions: [{ name: 'a', exec: { script: 'true' } }] },
    });
    expect(doc.ok ? [] : doc.problems.map((p) => p.path)).toEqual(['metadata.name']);
  });
  it('are served as a JSON schema', () => {
    expect(specJsonSchema('playbook-spec.schema.json')).toMatchObject({
      $id: 'playbook-spec.schema.json',
      type: 'object',
    });
  });
});

describe('parameter rules (spec 2 section 5)', () => {
  it('checks dns1123, numbers, lengths and patterns', () => {
    expect(isDns1123('api.prod-1')).toBe(true);
    expect(isDns1123('Api')).toBe(false);
    const text = (properties: Record<string, unknown>) => ({ name: 'x', type: 'text' as const, properties });
    expect(parameterProblem(text({ format: 'dns1123' }), 'UPPER')).toContain('lowercase');
    expect(parameterProblem(text({ min: 1 }), 'abc')).toBe('This field must be a number');
    expect(parameterProblem(text({ max: 5 }), '6')).toBe('must be at most 5');
    expect(parameterProblem(text({ minLength: 3 }), 'ab')).toBe('must be at least 3 characters');
    expect(parameterProblem(text({ regex: '^v\\d+$' }), 'x1')).toBe('must match ^v\\d+$');
    expect(parameterProblem({ name: 'x', type: 'text', required: true }, '')).toBe('This field is required');
    expect(parameterProblem({ name: 'x', type: 'checkbox' }, 'maybe')).toBe('must be true or false');
    expect(parameterProblem({ name: 'x', type: 'list', properties: { options: [{ value: 'a' }] } }, 'b')).toBe(
      'must be one of the options',
    );
    expect(parameterProblem({ name: 'x', type: 'config' }, 'nope')).toBe('must be an id');
    expect(parameterProblem({ name: 'x', type: 'bytes' }, '512Mi')).toBeUndefined();
    expect(parameterProblem({ name: 'x', type: 'millicores' }, '500m')).toBeUndefined();
  });
  it('names every wrong parameter and unknown ones', () => {
    expect(parameterProblems([{ name: 'a', type: 'text', required: true }], { b: 1 })).toEqual([
      'params.b: unknown parameter',
      'params.a: This field is required',
    ]);
  });
  it('keeps the spec texts', () => {
    expect(PLAYBOOK_TEXTS.noParameters).toBe('No parameters for this playbook.');
    expect(PLAYBOOK_TEXTS.toasts.updateFailed('x')).toBe('Unable to update playbook spec: x');
  });
});
