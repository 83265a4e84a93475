import { describe, expect, it } from 'vitest';
import { jsonNestingExceeds, parseJsonBody } from './json-body.js';

describe('jsonNestingExceeds', () => {
  it('counts arrays and objects, and stops past the limit', () => {
    expect(jsonNestingExceeds('{"a": [1, {"b": []}]}', 4)).toBe(false);
    expect(jsonNestingExceeds('{"a": [1, {"b": []}]}', 3)).toBe(true);
    expect(jsonNestingExceeds(`${'['.repeat(200_000)}${']'.repeat(200_000)}`, 100)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestingExceeds('{"a": "[[[[{{{{", "b": "\\"[[[["}', 1)).toBe(false);
    expect(jsonNestingExceeds('["\\\\", [[]]]', 2)).toBe(true);
  });

  it('measures depth, not the number of collections', () => {
    expect(jsonNestingExceeds(`[${'[],'.repeat(10_000)}[]]`, 2)).toBe(false);
  });
});

describe('parseJsonBody', () => {
  it('parses JSON within the limit, and refuses invalid or too deep bodies as PGRST102', () => {
    expect(parseJsonBody('{"a": [1]}', 2)).toEqual({ a: [1] });
    expect(() => parseJsonBody('{"a": ', 2)).toThrow('Empty or invalid json');
    expect(() => parseJsonBody('[[[1]]]', 2)).toThrow('more than 2 levels deep');
  });
});
