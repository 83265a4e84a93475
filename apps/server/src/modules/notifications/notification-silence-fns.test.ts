import { describe, expect, it } from 'vitest';
import { planSilence } from './notification-silence-fns.js';

const now = new Date('2026-03-01T10:00:00Z');
const check = '0190a4b2-0000-7000-8000-000000000001';

describe('planSilence', () => {
  it('reads relative and ISO times', () => {
    const plan = planSilence({ check_id: check, from: 'now', until: 'now+2h', description: ' deploy ' }, now);
    expect(plan).toEqual({
      ok: true,
      row: {
        component_id: null,
        config_id: null,
        check_id: check,
        canary_id: null,
        recursive: false,
        from: now,
        until: new Date('2026-03-01T12:00:00Z'),
        description: 'deploy',
      },
    });
    const iso = planSilence({ check_id: check, from: '2026-03-02T00:00:00Z', until: '2026-03-03T00:00:00Z' }, now);
    expect(iso.ok && iso.row.from.toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });

  it('needs exactly one resource', () => {
    expect(planSilence({ until: 'now+1h' }, now)).toEqual({
      ok: false,
      problem: expect.stringContaining('A resource is required'),
    });
    expect(planSilence({ check_id: check, canary_id: check }, now)).toEqual({
      ok: false,
      problem: expect.stringContaining('only one of'),
    });
  });

  it('names a bad time and a window that ends before it starts', () => {
    expect(planSilence({ check_id: check, until: 'tomorrow' }, now)).toEqual({
      ok: false,
      problem: "until: 'tomorrow' is not a time. Use an ISO time, 'now' or 'now+<duration>' such as now+2h.",
    });
    expect(planSilence({ check_id: check, from: 'now+2h', until: 'now+1h' }, now)).toEqual({
      ok: false,
      problem: 'until must be after from.',
    });
  });
});
