import { describe, expect, it } from 'vitest';
import { paramText } from './batch.js';

describe('paramText', () => {
  it('writes values as node-postgres does', () => {
    expect(paramText(null)).toBeNull();
    expect(paramText(undefined)).toBeNull();
    expect(paramText('text')).toBe('text');
    expect(paramText(25)).toBe('25');
    expect(paramText(true)).toBe('true');
    expect(paramText({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
  });

  it('writes arrays as array literals with every element quoted and escaped', () => {
    expect(paramText([])).toBe('{}');
    expect(paramText(['a,b', 'c"d', 'e\\f', null, ''])).toBe('{"a,b","c\\"d","e\\\\f",NULL,""}');
    expect(paramText([['x'], ['y']])).toBe('{{"x"},{"y"}}');
  });
});
