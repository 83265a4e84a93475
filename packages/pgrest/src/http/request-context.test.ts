import { describe, expect, it } from 'vitest';
import { PgrstError } from '../errors/pgrst-error.js';
import { parseRoute } from './request-context.js';

describe('parseRoute', () => {
  it('reads the root, a relation and a function, the same on every call', () => {
    for (let i = 0; i < 2; i += 1) {
      expect(parseRoute('')).toEqual({ kind: 'root' });
      expect(parseRoute('/agents/')).toEqual({ kind: 'relation', name: 'agents' });
      expect(parseRoute('rpc/do%20it')).toEqual({ kind: 'rpc', name: 'do it' });
    }
  });

  it('refuses a deeper path every time it is asked (refusals are not kept)', () => {
    for (let i = 0; i < 2; i += 1) {
      expect(() => parseRoute('agents/1')).toThrow(PgrstError);
    }
  });

  it('reads paths longer than those it keeps, and more distinct paths than it keeps', () => {
    const long = `t${'x'.repeat(300)}`;
    expect(parseRoute(long)).toEqual({ kind: 'relation', name: long });
    for (let i = 0; i < 600; i += 1) expect(parseRoute(`r${i}`)).toEqual({ kind: 'relation', name: `r${i}` });
  });

  it('hands out routes nobody can change', () => {
    const route = parseRoute('books');
    expect(Object.isFrozen(route)).toBe(true);
  });
});
