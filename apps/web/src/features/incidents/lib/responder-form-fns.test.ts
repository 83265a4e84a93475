import { describe, expect, it } from 'vitest';
import { acknowledgeMillis, defaultValues, fieldOptions, responderClient, responderLink } from './responder-form-fns';

const spec = {
  responder_clients: {
    jira: {
      values: { project: ['OPS', { id: 'SEC', name: 'Security' }] },
      defaults: { priority: 'High', retries: 2 },
      linkUrl: 'https://jira.example.com/browse/{external_id}',
    },
  },
};

describe('responder form helpers', () => {
  it('reads choices and defaults of the team client', () => {
    const client = responderClient(spec, 'jira');
    expect(fieldOptions(client, 'project')).toEqual([
      { value: 'OPS', label: 'OPS' },
      { value: 'SEC', label: 'Security' },
    ]);
    expect(fieldOptions(client, 'summary')).toBeUndefined();
    expect(defaultValues(client)).toEqual({ priority: 'High', retries: '2' });
    expect(responderClient(spec, 'email')).toBeUndefined();
  });

  it('builds the ticket link and the time to acknowledge', () => {
    expect(responderLink(spec, 'jira', 'OPS-1')).toBe('https://jira.example.com/browse/OPS-1');
    expect(responderLink(spec, 'jira', null)).toBeUndefined();
    expect(acknowledgeMillis('2026-01-01T00:00:00Z', '2026-01-01T00:05:00Z')).toBe(300_000);
    expect(acknowledgeMillis('2026-01-01T00:00:00Z', null)).toBeUndefined();
  });
});
