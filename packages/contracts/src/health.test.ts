import { describe, expect, it } from 'vitest';
import { canRunCheck, checkSummaryQuerySchema } from './health.js';

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
