import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../../../cel/cel-program.js';
import { fromCel } from '../../../cel/cel-values.js';
import { celDuration, celTypeName } from './cel-fns.js';

describe('cel-fns', () => {
  it('compares durations such as elapsed and sslAge', () => {
    const variables = { elapsed: celDuration(150), sslAge: celDuration(3 * 86_400_000) };
    expect(evaluateCel('elapsed < duration("1s")', variables)).toEqual({ ok: true, value: true });
    expect(evaluateCel('sslAge > duration("168h")', variables)).toEqual({ ok: true, value: false });
  });

  it('stores durations as Go prints them', () => {
    expect(fromCel(celDuration(1500))).toBe('1.5s');
    expect(fromCel(celDuration(250))).toBe('250ms');
  });

  it('names CEL types for messages', () => {
    expect(celTypeName(1n)).toBe('int');
    expect(celTypeName(1.5)).toBe('double');
    expect(celTypeName('x')).toBe('string');
    expect(celTypeName(celDuration(1))).toBe('duration');
    expect(celTypeName(new Date())).toBe('timestamp');
    expect(celTypeName(null)).toBe('null');
  });
});
