import { describe, expect, it } from 'vitest';
import {
  evaluateFilter,
  heldByError,
  matchSilence,
  recipientsOf,
  type RuleRow,
  type SilenceRow,
} from './notification-match-fns.js';

const silence = (values: Partial<SilenceRow>): SilenceRow => ({
  id: 's',
  filter: null,
  recursive: false,
  config_id: null,
  check_id: null,
  canary_id: null,
  component_id: null,
  ...values,
});

const rule = (values: Partial<RuleRow>): RuleRow => ({
  id: 'r',
  title: null,
  events: ['check.failed'],
  filter: null,
  template: null,
  properties: null,
  person_id: null,
  team_id: null,
  custom_services: null,
  repeat_interval: null,
  error: null,
  error_at: null,
  ...values,
});

describe('filters', () => {
  const variables = { check: { name: 'api', labels: { env: 'prod' } } };
  it('is true, false, absent or an error', () => {
    expect(evaluateFilter("check.labels.env == 'prod'", variables)).toEqual({ result: true, error: null });
    expect(evaluateFilter("check.name == 'web'", variables)).toEqual({ result: false, error: null });
    expect(evaluateFilter('', variables)).toEqual({ result: null, error: null });
    expect(evaluateFilter('check.name', variables)).toEqual({
      result: null,
      error: 'the filter returned string, not true or false',
    });
    expect(evaluateFilter('check.missing.deeper', variables).error).toBeTruthy();
  });

  it('holds a rule whose filter failed for an hour', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    expect(heldByError({ error: 'x', error_at: new Date('2026-01-01T11:30:00Z') }, now)).toBe(true);
    expect(heldByError({ error: 'x', error_at: new Date('2026-01-01T10:59:00Z') }, now)).toBe(false);
    expect(heldByError({ error: null, error_at: null }, now)).toBe(false);
  });
});

describe('silences', () => {
  const target = { check_id: 'c1', canary_id: 'k1', ancestors: ['p1'] };
  it('covers the check or its canary', () => {
    expect(
      matchSilence([silence({ id: 'a', check_id: 'c2' }), silence({ id: 'b', canary_id: 'k1' })], target, {}).silenceId,
    ).toBe('b');
    expect(matchSilence([silence({ id: 'a', check_id: 'c2' })], target, {}).silenceId).toBeNull();
  });

  it('covers descendants only when recursive', () => {
    expect(matchSilence([silence({ id: 'a', component_id: 'p1' })], target, {}).silenceId).toBeNull();
    expect(matchSilence([silence({ id: 'a', component_id: 'p1', recursive: true })], target, {}).silenceId).toBe('a');
  });

  it('needs a filter to pass, and reports a failing filter', () => {
    const variables = { check: { name: 'api' } };
    expect(
      matchSilence([silence({ id: 'a', check_id: 'c1', filter: "check.name == 'web'" })], target, variables).silenceId,
    ).toBeNull();
    expect(matchSilence([silence({ id: 'a', filter: "check.name == 'api'" })], target, variables).silenceId).toBe('a');
    const failed = matchSilence([silence({ id: 'a', filter: 'check.nope.x' })], target, variables);
    expect(failed.silenceId).toBeNull();
    expect(failed.filterErrors[0]?.silenceId).toBe('a');
  });
});

describe('recipients', () => {
  it('fans a rule out per person, team channel and custom service', () => {
    const recipients = recipientsOf(
      rule({
        person_id: 'p',
        team_id: 't',
        custom_services: [{ connection: 'connection://default/hook' }, { url: 'slack://x@y' }],
      }),
      { notifications: [{ connection: 'connection://ops/mail' }, { nothing: true }, { url: 'ntfy://h/t' }] },
    );
    expect(recipients.map((recipient) => recipient.key)).toEqual([
      'person:p',
      'team:t:0',
      'team:t:1',
      'custom:0:connection://default/hook',
      'custom:1:slack://…',
    ]);
  });

  it("mails a team's members when its spec names no channel", () => {
    expect(recipientsOf(rule({ team_id: 't' }), { description: 'ops' })).toEqual([
      { key: 'team:t', kind: 'team-members', teamId: 't' },
    ]);
    expect(recipientsOf(rule({}), null)).toEqual([]);
  });
});
