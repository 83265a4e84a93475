import { describe, expect, it } from 'vitest';
import { evaluateCel } from './cel-program.js';
import { fromCel, toCel } from './cel-values.js';

const when = new Date('2024-05-01T10:00:00.000Z');

describe('cel-values', () => {
  it('passes dates through as CEL timestamps, also nested in objects and lists', () => {
    const variables = { incident: { created: when, history: [{ at: when }] } };
    expect(evaluateCel('incident.created > timestamp("2024-01-01T00:00:00Z")', variables)).toEqual({
      ok: true,
      value: true,
    });
    expect(evaluateCel('incident.history[0].at.getFullYear()', variables)).toEqual({ ok: true, value: 2024n });
    expect(toCel({ a: { b: [when] } })).toEqual({ a: { b: [when] } });
  });

  it('copies nested objects and lists, with undefined as null', () => {
    expect(toCel({ a: { b: [1, undefined, { c: null }] }, d: undefined })).toEqual({
      a: { b: [1, null, { c: null }] },
      d: null,
    });
    expect(toCel(undefined)).toBeNull();
    expect(
      evaluateCel('a.b.size() == 3 && a.b[1] == null && d == null', { a: { b: [1, undefined, 2] }, d: undefined }),
    ).toEqual({
      ok: true,
      value: true,
    });
  });

  it('turns safe whole numbers into CEL ints only when asked, bigints always stay ints', () => {
    expect(toCel({ n: 3, x: 1.5, big: 2 ** 60 })).toEqual({ n: 3, x: 1.5, big: 2 ** 60 });
    expect(toCel({ n: 3, x: 1.5, big: 2 ** 60, list: [4] }, 'int')).toEqual({
      n: 3n,
      x: 1.5,
      big: 2 ** 60,
      list: [4n],
    });
    expect(toCel(7n)).toBe(7n);
  });

  it('gives CEL results back as JSON-safe data', () => {
    expect(fromCel(5n)).toBe(5);
    expect(fromCel(-5n)).toBe(-5);
    expect(fromCel(2n ** 70n)).toBe('1180591620717411303424');
    expect(fromCel(when)).toBe('2024-05-01T10:00:00.000Z');
    expect(fromCel(new Uint8Array([97, 98]))).toBe('YWI=');
    expect(
      fromCel(
        new Map<unknown, unknown>([
          ['a', 1n],
          [2n, [when, null]],
        ]),
      ),
    ).toEqual({
      a: 1,
      '2': ['2024-05-01T10:00:00.000Z', null],
    });
    expect(fromCel({ nested: { list: [1n, 'x', true, 2.5] } })).toEqual({ nested: { list: [1, 'x', true, 2.5] } });
    expect(fromCel(undefined)).toBeNull();
  });

  it('round-trips what an expression builds from its variables', () => {
    const outcome = evaluateCel('{"at": incident.created, "count": size(incident.tags), "tags": incident.tags}', {
      incident: { created: when, tags: ['a', 'b'] },
    });
    expect(outcome.ok && fromCel(outcome.value)).toEqual({
      at: '2024-05-01T10:00:00.000Z',
      count: 2,
      tags: ['a', 'b'],
    });
  });

  it('names other CEL objects by their text instead of copying no fields', () => {
    const outcome = evaluateCel('type(1)', {});
    expect(outcome.ok && typeof fromCel(outcome.value)).toBe('string');
  });
});
