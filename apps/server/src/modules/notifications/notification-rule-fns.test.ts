import { describe, expect, it } from 'vitest';
import { ruleBodyProblems } from './notification-rule-fns.js';

const person = '0190a4b2-0000-7000-8000-000000000001';

describe('ruleBodyProblems', () => {
  it('accepts the body the rules dialog posts', () => {
    expect(
      ruleBodyProblems(
        {
          title: 'Check {{ check.name }} failed',
          events: ['check.failed', 'check.passed'],
          filter: "check.type == 'http'",
          repeat_interval: '1h',
          template: '**{{ .check.name }}** is {{ check.status }}',
          properties: {},
          person_id: person,
          team_id: null,
          custom_services: null,
        },
        'create',
      ),
    ).toEqual([]);
  });

  it('names each wrong field', () => {
    const problems = ruleBodyProblems(
      {
        events: ['check.failed', 'check.exploded'],
        filter: 'check.name ==',
        repeat_interval: 'sometimes',
        template: '{{ check.name ',
        person_id: 'bob',
      },
      'create',
    );
    expect(problems).toEqual([
      expect.stringContaining("events: 'check.exploded' is not a notification event"),
      expect.stringContaining('filter: not a valid CEL expression'),
      expect.stringContaining("repeat_interval: 'sometimes' is not a duration"),
      expect.stringContaining('template: every {{ needs a matching }}'),
      "person_id: 'bob' is not a UUID.",
    ]);
  });

  it('requires events and a recipient on create only', () => {
    expect(ruleBodyProblems({ title: 'x' }, 'create')).toEqual([
      'events: choose at least one event.',
      'A recipient is required: set person_id, team_id or custom_services.',
    ]);
    expect(ruleBodyProblems({ deleted_at: 'now()' }, 'update')).toEqual([]);
    expect(ruleBodyProblems({ events: [] }, 'update')).toEqual(['events: choose at least one event.']);
  });

  it('checks custom services: a connection reference or a service URL', () => {
    expect(
      ruleBodyProblems(
        { events: ['check.failed'], custom_services: [{ connection: 'connection://default/hook' }] },
        'create',
      ),
    ).toEqual([]);
    expect(
      ruleBodyProblems({ events: ['check.failed'], custom_services: [{ url: 'slack://xoxb-1@C123' }] }, 'create'),
    ).toEqual([]);
    expect(
      ruleBodyProblems(
        { events: ['check.failed'], custom_services: [{}, { url: 'gopher://x' }, { connection: 'hook' }] },
        'create',
      ),
    ).toEqual([
      'custom_services[0]: set connection (connection://namespace/name) or url',
      "custom_services[1]: url: 'gopher://' is not a service Lookout sends to",
      "custom_services[2]: connection 'hook' is not connection://namespace/name",
    ]);
  });

  it('refuses a body that is not an object', () => {
    expect(ruleBodyProblems('rule', 'create')).toEqual(['The body must be a JSON object (or an array of them).']);
  });
});
