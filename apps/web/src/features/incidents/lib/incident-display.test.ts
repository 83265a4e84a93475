import { describe, expect, it } from 'vitest';
import { humanize, incidentAge, statusBadgeClasses } from './incident-display';

describe('incident display helpers', () => {
  it('humanizes camel case and snake case values', () => {
    expect(humanize('technicalDebt')).toBe('Technical Debt');
    expect(humanize('config_analysis')).toBe('Config Analysis');
    expect(humanize('open')).toBe('Open');
  });

  it('colours open light green, closed grey and the rest blue', () => {
    expect(statusBadgeClasses('open')).toContain('green');
    expect(statusBadgeClasses('closed')).toContain('slate');
    expect(statusBadgeClasses('mitigated')).toContain('sky');
  });

  it('reads the age of an incident', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    expect(incidentAge('2026-01-01T09:00:00Z', now)).toBe('3 hours');
    expect(incidentAge('2026-01-01T12:00:00Z', now)).toBe('now');
  });
});
