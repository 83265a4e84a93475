import { describe, expect, it } from 'vitest';
import { incidentListQuery, readIncidentFilters, writeIncidentFilter } from './incident-list-params';

describe('incident list filters', () => {
  it('defaults to open incidents and lets status=all lift it', () => {
    expect(readIncidentFilters(new URLSearchParams(''))).toEqual({ status: 'open' });
    expect(readIncidentFilters(new URLSearchParams('status=all&type=cost'))).toEqual({ type: 'cost' });
  });

  it('keeps every filter the URL names and drops blanks', () => {
    const params = new URLSearchParams('severity=high&owner=&search=%20db%20&component=c1');
    expect(readIncidentFilters(params)).toEqual({ severity: 'high', search: 'db', component: 'c1', status: 'open' });
  });

  it('writes a cleared status as all and removes other cleared filters', () => {
    const params = new URLSearchParams('type=cost&status=closed');
    expect(writeIncidentFilter(params, 'status', '').get('status')).toBe('all');
    expect(writeIncidentFilter(params, 'type', '').has('type')).toBe(false);
    expect(writeIncidentFilter(params, 'search', 'db').get('search')).toBe('db');
  });

  it('builds the eq. conditions of incident_summary', () => {
    expect(incidentListQuery({ status: 'open', owner: 'p1', search: 'db(1)' })).toEqual({
      order: 'created_at.desc',
      status: 'eq.open',
      created_by: 'eq.p1',
      title: 'ilike.*db 1*',
    });
    expect(incidentListQuery({ component: 'c1' }, ['i1', 'i2'])).toMatchObject({ id: 'in.(i1,i2)' });
  });
});
