import { describe, expect, it } from 'vitest';
import { humanDuration, incidentMarkdown, mergeTimeline } from './incident-report-fns.js';

describe('mergeTimeline', () => {
  it('merges sources by time, keeping ties in source order', () => {
    const entry = (at: string, title: string) => ({
      at,
      kind: 'changelog' as const,
      title,
      detail: null,
      resource: null,
    });
    expect(
      mergeTimeline(
        [entry('2026-01-01T10:00:00Z', 'b'), entry('2026-01-01T12:00:00Z', 'd')],
        [entry('2026-01-01T09:00:00Z', 'a'), entry('2026-01-01T10:00:00Z', 'c')],
      ).map((e) => e.title),
    ).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('incidentMarkdown', () => {
  it('writes the summary, responders, the hypothesis tree and the timeline, escaping markup', () => {
    const markdown = incidentMarkdown(
      {
        incident_id: 'INC-1',
        title: 'Disk *full*',
        description: 'Root volume',
        type: 'availability',
        severity: 'high',
        status: 'resolved',
        created_at: '2026-01-01T10:00:00Z',
        acknowledged: '2026-01-01T10:05:00Z',
        resolved: '2026-01-01T12:00:00Z',
        closed: null,
        commander: 'Ann',
        created_by: 'Bob',
      },
      [
        { id: 'r', parent_id: null, type: 'root', title: 'Why?', status: 'likely', evidences: [], comments: [] },
        {
          id: 'f',
          parent_id: 'r',
          type: 'factor',
          title: 'Logs',
          status: 'proven',
          evidences: [{ type: 'check', description: 'disk check', definition_of_done: true, done: true }],
          comments: [{ comment: 'rotated', created_by: 'Ann', created_at: '2026-01-01T11:00:00Z' }],
        },
      ],
      [
        {
          name: 'Ann',
          responderType: 'email',
          created_at: '2026-01-01T10:00:00Z',
          acknowledge_time: '2026-01-01T10:03:00Z',
          external_id: null,
        },
      ],
      [
        {
          at: '2026-01-01T10:00:00Z',
          kind: 'changelog',
          title: 'incident.created',
          detail: 'Disk full',
          resource: null,
        },
      ],
    );
    expect(markdown).toContain('# INC-1: Disk \\*full\\*');
    expect(markdown).toContain('| Acknowledged | 2026-01-01T10:05:00Z (after 5m 0s) |');
    expect(markdown).toContain('| Resolved | 2026-01-01T12:00:00Z (after 2h) |');
    expect(markdown).toContain('- Ann (email): acknowledged after 3m 0s');
    expect(markdown).toContain('- **Why?** (root, Likely)\n  - **Logs** (factor, Proven)');
    expect(markdown).toContain('    - Evidence (check): disk check [definition of done: done]');
    expect(markdown).toContain('- 2026-01-01T10:00:00Z [changelog] incident.created: Disk full');
  });

  it('formats durations', () => {
    expect(humanDuration(0)).toBe('0s');
    expect(humanDuration(90_061_000)).toBe('1d 1h 1m');
    expect(humanDuration(-1)).toBe('-');
  });
});
