import { describe, expect, it } from 'vitest';
import { isPgError, isUniqueViolation, PG_CHECK_VIOLATION, PG_UNIQUE_VIOLATION } from './pg-errors.js';

const pgError = (code: string) => Object.assign(new Error('refused'), { code });

describe('PostgreSQL errors', () => {
  it('recognises an error by its SQLSTATE', () => {
    expect(isPgError(pgError(PG_CHECK_VIOLATION), '23514')).toBe(true);
    expect(isPgError(pgError(PG_CHECK_VIOLATION), PG_UNIQUE_VIOLATION)).toBe(false);
    expect(isUniqueViolation(pgError('23505'))).toBe(true);
    expect(isUniqueViolation(pgError('23503'))).toBe(false);
  });

  it('ignores what is not an error', () => {
    for (const value of [undefined, null, '23505', { code: '23505' }, new Error('no code')]) {
      expect(isUniqueViolation(value)).toBe(false);
    }
  });
});
