import { describe, expect, it } from 'vitest';
import { canRunCheck, checkSummaryQuerySchema, parseTimeExpression } from './health.js';

const now = new Date('2026-11-21T10:00:00.000Z');

describe('parseTimeExpression', () => {
  it('reads now, now-N<unit> and a bare N<unit> as that long ago', () => {
    expect(parseTimeExpression('now', now)).toEqual(now);
    expect(parseTimeExpression('now-1h', now)).toEqual(new Date('2026-11-21T09:00:00.000Z'));
    expect(parseTimeExpression('1h', now)).toEqual(new Date('2026-11-21T09:00:00.000Z'));
    expect(parseTimeExpression('15m', now)).toEqual(new Date('2026-11-21T09:45:00.000Z'));
    expect(parseTimeExpression('now+30s', now)).toEqual(new Date('2026-11-21T10:00:30.000Z'));
    expect(parseTimeExpression('7d', now)).toEqual(new Date('2026-11-14T10:00:00.000Z'));
    expect(parseTimeExpression('2w', now)).toEqual(new Date('2026-11-07T10:00:00.000Z'));
  });

  it('counts months and years on the calendar', () => {
    expect(parseTimeExpression('1mo', now)).toEqual(new Date('2026-10-21T10:00:00.000Z'));
    expect(parseTimeExpression('now-3M', now)).toEqual(new Date('2026-08-21T10:00:00.000Z'));
    expect(parseTimeExpression('1y', now)).toEqual(new Date('2025-11-21T10:00:00.000Z'));
  });

  it('reads ISO 8601 times', () => {
    expect(parseTimeExpression('2026-11-20T08:30:00Z', now)).toEqual(new Date('2026-11-20T08:30:00Z'));
    expect(parseTimeExpression('2026-11-20T08:30:00+02:00', now)).toEqual(new Date('2026-11-20T06:30:00Z'));
    expect(parseTimeExpression('2026-11-20', now)).toEqual(new Date('2026-11-20T00:00:00Z'));
  });

  it('returns undefined for anything else', () => {
    for (const text of ['yesterday', '+1h', '1 hour', '2026-13-45', '', 'now-', '1x']) {
      expect(parseTimeExpression(text, now), text).toBeUndefined();
    }
  });
});

describe('checkSummaryQuerySchema', () => {
  it('names the parameter that is not a time', () => {
    const result = checkSummaryQuerySchema.safeParse({ timeRange: 'soon' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['timeRange']);
  });
});

describe('canRunCheck (spec 2 section 6)', () => {
  it('lets admins, editors, responders and commanders run a check now, not viewers', () => {
    expect(canRunCheck(['admin'])).toBe(true);
    expect(canRunCheck(['editor'])).toBe(true);
    expect(canRunCheck(['responder'])).toBe(true);
    expect(canRunCheck(['commander'])).toBe(true);
    expect(canRunCheck(['viewer'])).toBe(false);
    expect(canRunCheck([])).toBe(false);
    expect(canRunCheck(['viewer', 'responder'])).toBe(true);
  });
});
