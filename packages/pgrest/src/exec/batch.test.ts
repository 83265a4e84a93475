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
    expect(paramText(9007199254740993n)).toBe('9007199254740993');
  });

  it('writes bytes in bytea hex format, a view of a larger buffer included', () => {
    expect(paramText(Uint8Array.from([0x00, 0xff, 0x41]))).toBe('\\x00ff41');
    expect(paramText(new Uint8Array(0))).toBe('\\x');
    expect(paramText(Buffer.from([1, 2, 3, 4]).subarray(1, 3))).toBe('\\x0203');
  });

  it('writes arrays as array literals with every element quoted and escaped', () => {
    expect(paramText([])).toBe('{}');
    expect(paramText(['a,b', 'c"d', 'e\\f', null, ''])).toBe('{"a,b","c\\"d","e\\\\f",NULL,""}');
    expect(paramText([['x'], ['y']])).toBe('{{"x"},{"y"}}');
  });
});
