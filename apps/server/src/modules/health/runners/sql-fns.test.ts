import { describe, expect, it } from 'vitest';
import { buildConnectionUrl, describeDatabase, rowCountFailure, toPlainRows } from './sql-fns.js';

describe('sql-fns', () => {
  it('fills $(username) and $(password) placeholders, URL-encoded', () => {
    expect(buildConnectionUrl('postgres://$(username):$(password)@db:5432/app', 'app', 'p@ss/word')).toBe(
      'postgres://app:p%40ss%2Fword@db:5432/app',
    );
  });

  it('sets credentials on a URL without placeholders, and leaves it alone without credentials', () => {
    expect(buildConnectionUrl('mysql://db:3306/app', 'root', 'secret')).toBe('mysql://root:secret@db:3306/app');
    expect(buildConnectionUrl('mysql://db:3306/app')).toBe('mysql://db:3306/app');
  });

  it('names the database without credentials', () => {
    expect(describeDatabase('postgres://app:secret@db:5432/app')).toBe('db:5432/app');
  });

  it('fails when fewer rows come back than results asks for', () => {
    expect(rowCountFailure(0, 1)).toBe('query returned 0 rows, expected at least 1');
    expect(rowCountFailure(3, 1)).toBeUndefined();
    expect(rowCountFailure(0, undefined)).toBeUndefined();
  });

  it('makes rows JSON-safe', () => {
    expect(toPlainRows([{ at: new Date('2030-01-01T00:00:00Z'), big: 10n, raw: Buffer.from('hi'), n: null }])).toEqual([
      { at: '2030-01-01T00:00:00.000Z', big: '10', raw: 'aGk=', n: null },
    ]);
  });
});
