import type { NotificationRule } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import {
  isRuleEditable,
  parseProperties,
  recipientKindOf,
  ruleFormValues,
  rulePayload,
  switchRecipient,
  validateRuleForm,
} from './rule-form-fns';

const PERSON = '11111111-1111-4111-8111-111111111111';
const TEAM = '22222222-2222-4222-8222-222222222222';

const rule = (overrides: Partial<NotificationRule> = {}): NotificationRule => ({
  id: '33333333-3333-4333-8333-333333333333',
  name: null,
  namespace: null,
  title: 'API down',
  events: ['check.failed'],
  filter: null,
  template: null,
  properties: null,
  person_id: null,
  team_id: TEAM,
  custom_services: null,
  repeat_interval: '1h',
  source: 'UI',
  created_by: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: null,
  deleted_at: null,
  error: null,
  error_at: null,
  ...overrides,
});

describe('rule form', () => {
  it('opens a rule on the tab of the recipient it has, Person when none', () => {
    expect(recipientKindOf(rule())).toBe('team');
    expect(recipientKindOf(rule({ team_id: null, custom_services: [{ connection: 'connection://default/x' }] }))).toBe(
      'custom',
    );
    expect(recipientKindOf(rule({ team_id: null }))).toBe('person');
  });

  it('clears the other recipients when the tab changes', () => {
    const values = { ...ruleFormValues(rule()), person_id: PERSON, connection: 'connection://default/hook' };
    const person = switchRecipient(values, 'person');
    expect(person).toMatchObject({ recipientKind: 'person', person_id: PERSON, team_id: '', connection: '' });
    const others = switchRecipient(values, 'custom');
    expect(others).toMatchObject({ person_id: '', team_id: '', connection: 'connection://default/hook' });
  });

  it('requires events and a recipient, and properties as a JSON object', () => {
    const errors = validateRuleForm({ ...ruleFormValues(), properties: '[1]' });
    expect(errors).toEqual({
      events: 'This field is required',
      recipient: 'This field is required',
      properties: 'Properties must be a JSON object',
    });
    expect(validateRuleForm(ruleFormValues(rule()))).toEqual({});
  });

  it('sends the recipients not chosen as null and a default template as null', () => {
    const values = {
      ...switchRecipient(ruleFormValues(rule({ template: 'x' })), 'custom'),
      connection: 'connection://default/hook',
      templateMode: 'default' as const,
      properties: '{"a":"b"}',
      filter: '  ',
    };
    expect(rulePayload(values)).toEqual({
      title: 'API down',
      events: ['check.failed'],
      filter: null,
      person_id: null,
      team_id: null,
      custom_services: [{ connection: 'connection://default/hook' }],
      repeat_interval: '1h',
      template: null,
      properties: { a: 'b' },
    });
  });

  it('reads properties text', () => {
    expect(parseProperties('')).toBeNull();
    expect(parseProperties('{"k":1}')).toEqual({ k: 1 });
    expect(parseProperties('nope')).toBeUndefined();
  });

  it('lets the UI edit only rules it owns', () => {
    expect(isRuleEditable(undefined)).toBe(true);
    expect(isRuleEditable(rule())).toBe(true);
    expect(isRuleEditable(rule({ source: 'KubernetesCRD' }))).toBe(false);
  });
});
