import { describe, expect, it } from 'vitest';
import { celCompileProblem, celParseProblem, evaluateCel } from './cel-program.js';
import { fromCel } from './cel-values.js';

describe('cel-program', () => {
  it('evaluates expressions over JSON numbers, maps and lists', () => {
    const variables = { code: 200, json: { status: 'up', items: [{ ok: true }, { ok: false }] } };
    expect(evaluateCel('code == 200 && json.status == "up"', variables)).toEqual({ ok: true, value: true });
    expect(evaluateCel('json.items.filter(i, i.ok).size() == 1', variables)).toEqual({ ok: true, value: true });
  });

  it('builds mixed maps, as transform expressions do', () => {
    const outcome = evaluateCel('[{"name": "a", "pass": true, "count": 2}]', {});
    expect(outcome.ok && fromCel(outcome.value)).toEqual([{ name: 'a', pass: true, count: 2 }]);
  });

  it('reports errors on one line instead of throwing', () => {
    expect(evaluateCel('json.missing == 1', { json: {} })).toEqual({ ok: false, error: 'No such key: missing' });
    expect(evaluateCel('1 +', {})).toMatchObject({ ok: false });
    expect(celParseProblem('check.status ==')).toBeTruthy();
    expect(celParseProblem("check.status == 'healthy'")).toBeUndefined();
  });

  it('treats undefined variables as null', () => {
    expect(evaluateCel('sslAge == null', { sslAge: undefined })).toEqual({ ok: true, value: true });
  });

  it('reads whole numbers as doubles, or as ints where the area asks for them', () => {
    expect(evaluateCel('n + 1', { n: 2 })).toEqual({ ok: false, error: 'no such overload: dyn<double> + int' });
    expect(evaluateCel('n + 1.0', { n: 2 })).toEqual({ ok: true, value: 3 });
    expect(evaluateCel('n + 1', { n: 2 }, 'int')).toEqual({ ok: true, value: 3n });
    expect(evaluateCel('n / 2', { n: 3 }, 'int')).toEqual({ ok: true, value: 1n });
    expect(evaluateCel('n + 1.0', { n: 2.5 }, 'int')).toEqual({ ok: true, value: 3.5 });
    expect(evaluateCel('n + 1', { n: 5n })).toEqual({ ok: true, value: 6n });
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
});
