import { describe, expect, it } from 'vitest';
import { celCompileProblem, celDuration, celTypeName, evaluateCel, fromCelValue } from './cel-fns.js';

describe('cel-fns', () => {
  it('evaluates expressions over JSON numbers, maps and lists', () => {
    const variables = { code: 200, json: { status: 'up', items: [{ ok: true }, { ok: false }] } };
    expect(evaluateCel('code == 200 && json.status == "up"', variables)).toEqual({ ok: true, value: true });
    expect(evaluateCel('json.items.filter(i, i.ok).size() == 1', variables)).toEqual({ ok: true, value: true });
  });

  it('compares durations such as elapsed and sslAge', () => {
    const variables = { elapsed: celDuration(150), sslAge: celDuration(3 * 86_400_000) };
    expect(evaluateCel('elapsed < duration("1s")', variables)).toEqual({ ok: true, value: true });
    expect(evaluateCel('sslAge > duration("168h")', variables)).toEqual({ ok: true, value: false });
  });

  it('builds mixed maps, as transform expressions do', () => {
    const outcome = evaluateCel('[{"name": "a", "pass": true, "count": 2}]', {});
    expect(outcome.ok && fromCelValue(outcome.value)).toEqual([{ name: 'a', pass: true, count: 2 }]);
  });

  it('reports errors on one line instead of throwing', () => {
    expect(evaluateCel('json.missing == 1', { json: {} })).toEqual({ ok: false, error: 'No such key: missing' });
    expect(evaluateCel('1 +', {})).toMatchObject({ ok: false });
  });

  it('says why an expression does not compile: a syntax error, or a type error whatever the data', () => {
    expect(celCompileProblem('code == 200 && json.items.all(i, i.ready)')).toBeUndefined();
    expect(celCompileProblem("[{'name': 'a', 'pass': code == 200}, {'name': 'b', 'pass': false}]")).toBeUndefined();
    expect(celCompileProblem('code ==')).toBe('Unexpected token: EOF');
    // `code` may be a string in some data, so this is left to the run to judge.
    expect(celCompileProblem("'up: ' + code")).toBeUndefined();
    expect(celCompileProblem("'a' + 1")).toBe('no such overload: string + int');
    expect(celCompileProblem('lookup(code)')).toBe("found no matching overload for 'lookup(dyn)'");
  });

  it('treats undefined variables as null', () => {
    expect(evaluateCel('sslAge == null', { sslAge: undefined })).toEqual({ ok: true, value: true });
  });

  it('converts CEL values to JSON-safe ones', () => {
    expect(fromCelValue(5n)).toBe(5);
    expect(fromCelValue(2n ** 70n)).toBe('1180591620717411303424');
    expect(fromCelValue(celDuration(1500))).toBe('1.5s');
    expect(fromCelValue(celDuration(250))).toBe('250ms');
    expect(fromCelValue(new Map([['a', 1n]]))).toEqual({ a: 1 });
    expect(celTypeName(1n)).toBe('int');
    expect(celTypeName('x')).toBe('string');
  });
});
