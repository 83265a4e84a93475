import { describe, expect, it } from 'vitest';
import {
  escapeTristateValue,
  nextTristate,
  parseTristate,
  serializeTristate,
  setTristate,
  tristateOf,
  tristateParamToQueryParam,
  tristateToQueryParam,
  unescapeTristateValue,
} from '@/components/ui/tristate-fns';

describe('tristate cycle', () => {
  it('goes none, include, exclude, none', () => {
    expect(nextTristate(0)).toBe(1);
    expect(nextTristate(1)).toBe(-1);
    expect(nextTristate(-1)).toBe(0);
  });

  it('drops an option set back to none', () => {
    const selection = setTristate(setTristate({}, 'a', 1), 'b', -1);
    expect(selection).toEqual({ a: 1, b: -1 });
    expect(tristateOf(selection, 'b')).toBe(-1);
    expect(tristateOf(selection, 'c')).toBe(0);
    expect(setTristate(selection, 'a', 0)).toEqual({ b: -1 });
  });
});

describe('URL form', () => {
  it('writes value:1 and value:-1', () => {
    expect(serializeTristate({ a: 1, b: -1 })).toBe('a:1,b:-1');
    expect(serializeTristate({})).toBe('');
  });

  it('reads it back', () => {
    expect(parseTristate('a:1,b:-1')).toEqual({ a: 1, b: -1 });
    expect(parseTristate('')).toEqual({});
    expect(parseTristate(null)).toEqual({});
  });

  it('round-trips values holding ":" and ","', () => {
    const selection = { 'app:web': 1, 'a,b': -1, plain: 1 } as const;
    const param = serializeTristate(selection);
    expect(param).toBe('app____web:1,a||||b:-1,plain:1');
    expect(parseTristate(param)).toEqual(selection);
  });

  it('skips malformed entries', () => {
    expect(parseTristate('a:1,b,c:2,:1,d:-1')).toEqual({ a: 1, d: -1 });
  });
});

describe('query form', () => {
  it("prefixes excluded values with '!'", () => {
    expect(tristateToQueryParam({ a: 1, b: -1 })).toBe('a,!b');
    expect(tristateToQueryParam({})).toBe('');
  });

  it("escapes ':' as '____' and ',' as '||||'", () => {
    expect(tristateToQueryParam({ 'app:web': 1, 'x,y': -1 })).toBe('app____web,!x||||y');
    expect(escapeTristateValue('a:b,c')).toBe('a____b||||c');
    expect(unescapeTristateValue('a____b||||c')).toBe('a:b,c');
  });

  it('converts the URL form directly', () => {
    expect(tristateParamToQueryParam('a:1,b:-1')).toBe('a,!b');
    expect(tristateParamToQueryParam('app____web:-1')).toBe('!app____web');
  });
});
