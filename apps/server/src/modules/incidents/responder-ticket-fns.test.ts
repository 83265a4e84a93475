import { describe, expect, it } from 'vitest';
import {
  plannerPriority,
  responderEmail,
  ticketExternalId,
  ticketLink,
  ticketRequest,
} from './responder-ticket-fns.js';

const incident = { incident_id: 'INC-3', title: 'Queue backlog', link: 'http://lookout.test/incidents/x' };

describe('ticketRequest', () => {
  it("speaks Jira's create-issue API with basic auth", () => {
    const request = ticketRequest(
      'jira',
      { url: 'https://jira.example.com/', username: 'u', password: 'p' },
      {
        project: 'OPS',
        issueType: 'Bug',
        priority: 'High',
        summary: 'S',
        description: 'D',
      },
      incident,
    );
    expect(request.url).toBe('https://jira.example.com/rest/api/2/issue');
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(request.body).toMatchObject({
      fields: { project: { key: 'OPS' }, issuetype: { name: 'Bug' }, summary: 'S' },
    });
    expect(JSON.stringify(request.body)).toContain('INC-3');
  });

  it("speaks ServiceNow's table API and Planner's tasks API", () => {
    expect(
      ticketRequest(
        'service_now',
        { url: 'https://x.service-now.com' },
        { category: 'c', description: 'd', body: 'b' },
        incident,
      ),
    ).toMatchObject({
      url: 'https://x.service-now.com/api/now/table/incident',
      body: { short_description: 'd', category: 'c' },
    });
    const planner = ticketRequest(
      'ms_planner',
      { password: 'tok' },
      { plan_id: 'p', bucket_id: 'b', title: 't', priority: 'urgent' },
      incident,
    );
    expect(planner).toMatchObject({
      url: 'https://graph.microsoft.com/v1.0/planner/tasks',
      headers: { authorization: 'Bearer tok' },
      body: { planId: 'p', bucketId: 'b', title: 't', priority: 1 },
    });
  });

  it('refuses a Jira connection without a url', () => {
    expect(() => ticketRequest('jira', {}, {}, incident)).toThrow('the connection has no url');
  });
});

describe('answers and links', () => {
  it('reads the ticket id of each system', () => {
    expect(ticketExternalId('jira', { id: '1', key: 'OPS-7' })).toBe('OPS-7');
    expect(ticketExternalId('service_now', { result: { number: 'INC001', sys_id: 's' } })).toBe('INC001');
    expect(ticketExternalId('ms_planner', { id: 'task-1' })).toBe('task-1');
    expect(ticketExternalId('jira', 'oops')).toBeUndefined();
    expect(ticketLink('https://j/browse/{external_id}', 'OPS 7')).toBe('https://j/browse/OPS%207');
    expect(plannerPriority('7')).toBe(7);
    expect(plannerPriority('whenever')).toBeUndefined();
  });

  it('writes the email with the form subject and body, or defaults', () => {
    const full = { ...incident, severity: 'high', status: 'open', description: '' };
    expect(responderEmail({}, full).subject).toBe('[INC-3] Queue backlog');
    const custom = responderEmail({ subject: 'Help', body: 'Please look' }, full);
    expect(custom.subject).toBe('Help');
    expect(custom.text).toContain('Please look');
    expect(custom.text).toContain('Open it: http://lookout.test/incidents/x');
  });
});
