import { describe, expect, it } from 'vitest';
import { SqlParams } from './sql-params.js';

describe('SqlParams.limit', () => {
  it('writes a limit in bigint range as a number and binds nothing', () => {
    const params = new SqlParams();
    expect(params.limit(25n)).toBe(' LIMIT 25');
    expect(params.limit(0n)).toBe(' LIMIT 0');
    expect(params.limit(9223372036854775807n)).toBe(' LIMIT 9223372036854775807');
    expect(params.values).toEqual([]);
  });

  it('binds a negative or beyond-bigint limit, for PostgreSQL to refuse', () => {
    const params = new SqlParams();
    params.add('paid');
    expect(params.limit(-1n)).toBe(' LIMIT $2');
    expect(params.limit(9223372036854775808n)).toBe(' LIMIT $3');
    expect(params.values).toEqual(['paid', -1n, 9223372036854775808n]);
  });
});
