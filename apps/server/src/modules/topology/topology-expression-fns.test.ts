import { describe, expect, it } from 'vitest';
import {
  evaluateCel,
  evaluateTemplate,
  renderDeep,
  renderTemplate,
  toHealth,
  TopologyExpressionError,
} from './topology-expression-fns.js';
import { celParseProblem } from '../../cel/cel-program.js';

describe('topology expressions', () => {
  it('evaluates CEL over summaries with whole numbers as ints', () => {
    const summary = { checks: { unhealthy: 2 } };
    expect(evaluateCel("summary.checks.unhealthy > 1 ? 'unhealthy' : 'healthy'", { summary })).toBe('unhealthy');
    expect(evaluateCel('json.items.map(i, i.name)', { json: { items: [{ name: 'a' }, { name: 'b' }] } })).toEqual([
      'a',
      'b',
    ]);
  });
  it('names a broken expression', () => {
    expect(celParseProblem('summary.(')).toBeDefined();
    expect(celParseProblem('1 + 1')).toBeUndefined();
    expect(() => evaluateCel('nope.(', {})).toThrow("expr 'nope.('");
  });
  it('fills templates and leaves display blocks for their own results', () => {
    expect(renderTemplate('{{ .name }}-{{.labels.app}}-{{ .missing }}', { name: 'x', labels: { app: 'y' } })).toBe(
      'x-y-',
    );
    expect(renderDeep({ a: ['{{ .name }}'], display: { expr: '{{ .name }}' } }, { name: 'n' })).toEqual({
      a: ['n'],
      display: { expr: '{{ .name }}' },
    });
    expect(evaluateTemplate({ expr: 'name + "/" + self.type' }, { name: 'a', type: 'b' })).toBe('a/b');
  });
  it("shares the scrapers' template language: pipes, and an error naming a placeholder that is no field path", () => {
    expect(evaluateTemplate({ template: '{{ .name | upper }}' }, { name: 'api' })).toBe('API');
    expect(() => renderDeep({ id: '{{ name }}' }, { name: 'n' })).toThrow(TopologyExpressionError);
    expect(() => renderTemplate('{{ name }}', {})).toThrow("template '{{ name }}': 'name' is not a field path");
  });
  it('accepts only healths from a health expression', () => {
    expect(toHealth('warning', 'x')).toBe('warning');
    expect(() => toHealth('red', 'x')).toThrow("healthExpr 'x' must give one of");
  });
});
