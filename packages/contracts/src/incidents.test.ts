import { describe, expect, it } from 'vitest';
import {
  applyResponderFieldChange,
  canMoveIncidentStatus,
  childHypothesisType,
  commentMentions,
  incidentMoveRefusal,
  incidentStatusColor,
  missingResponderFields,
  responderCurrentStep,
  teamResponderTypes,
} from './index.js';

describe('incident status moves', () => {
  it('follow the table of spec 3 section 4', () => {
    expect(canMoveIncidentStatus('new', 'closed')).toBe(true);
    expect(canMoveIncidentStatus('open', 'new')).toBe(false);
    expect(canMoveIncidentStatus('investigating', 'open')).toBe(false);
    expect(canMoveIncidentStatus('mitigated', 'open')).toBe(true);
    expect(canMoveIncidentStatus('closed', 'resolved')).toBe(false);
    expect(incidentMoveRefusal('closed', 'mitigated')).toBe(
      'An incident cannot move from closed to mitigated; from closed it can move to closed, open.',
    );
    expect([incidentStatusColor('open'), incidentStatusColor('closed'), incidentStatusColor('mitigated')]).toEqual([
      'light-green',
      'grey',
      'blue',
    ]);
  });
});

describe('hypotheses, responders and mentions', () => {
  it('create root, then factor, then solution', () => {
    expect([childHypothesisType('root'), childHypothesisType('factor'), childHypothesisType('solution')]).toEqual([
      'factor',
      'solution',
      undefined,
    ]);
  });

  it('cascade the Jira and Planner fields', () => {
    const values = { configType: 'a', project: 'OPS', issueType: 'Bug', priority: 'High' };
    expect(applyResponderFieldChange('jira', values, 'configType', 'b')).toEqual({
      configType: 'b',
      project: undefined,
      issueType: undefined,
      priority: 'High',
    });
    expect(applyResponderFieldChange('jira', values, 'project', 'WEB')).toMatchObject({
      project: 'WEB',
      issueType: undefined,
    });
    expect(applyResponderFieldChange('jira', values, 'project', 'OPS')).toEqual(values);
    expect(applyResponderFieldChange('ms_planner', { plan_id: 'p', bucket_id: 'b' }, 'plan_id', 'q')).toEqual({
      plan_id: 'q',
      bucket_id: undefined,
    });
  });

  it('name missing form fields and the team types', () => {
    expect(missingResponderFields('email', { to: 'a@b', subject: ' ' })).toEqual(['subject', 'body']);
    expect(teamResponderTypes({ responder_clients: { ms_planner: {}, email: {}, person: {} } })).toEqual([
      'email',
      'ms_planner',
    ]);
    expect(teamResponderTypes(null)).toEqual([]);
  });

  it('find the progress step and the mentions', () => {
    expect(responderCurrentStep({ created_at: 'x' })).toBe(1);
    expect(responderCurrentStep({ created_at: 'x', acknowledge_time: 'y', signoff_time: 'z', close_time: 'w' })).toBe(
      3,
    );
    const id = '0195f3a0-0000-7000-8000-000000000001';
    expect(commentMentions(`hi @[Ann](${id}) and @[Ann](${id.toUpperCase()}) @[x](nope)`)).toEqual([
      { name: 'Ann', id },
    ]);
  });
});
