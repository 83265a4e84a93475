import { describe, expect, it } from 'vitest';
import { prometheusSummary, prometheusVariables } from './prometheus-fns.js';

describe('prometheus-fns', () => {
  it('exposes a vector as value, firstResult and results', () => {
    const variables = prometheusVariables({
      resultType: 'vector',
      result: [
        { metric: { __name__: 'up', job: 'api' }, value: [1, '1'] },
        { metric: { __name__: 'up', job: 'db' }, value: [1, '0'] },
      ],
    });
    expect(variables).toEqual({
      value: 1,
      firstResult: { __name__: 'up', job: 'api', value: 1 },
      results: [
        { __name__: 'up', job: 'api', value: 1 },
        { __name__: 'up', job: 'db', value: 0 },
      ],
    });
    expect(variables && prometheusSummary(variables)).toBe('query returned 2 series, first: up{job="api"} = 1');
  });

  it('reads scalars, the latest sample of a matrix, and empty answers', () => {
    const scalar = prometheusVariables({ resultType: 'scalar', result: [1, '42'] });
    expect(scalar?.value).toBe(42);
    expect(scalar && prometheusSummary(scalar)).toBe('query returned 1 series, first: 42');
    expect(
      prometheusVariables({
        resultType: 'matrix',
        result: [
          {
            metric: {},
            values: [
              [1, '1'],
              [2, '3'],
            ],
          },
        ],
      })?.value,
    ).toBe(3);
    const empty = prometheusVariables({ resultType: 'vector', result: [] });
    expect(empty).toEqual({ value: 0, firstResult: {}, results: [] });
    expect(empty && prometheusSummary(empty)).toBe('query returned no series');
    expect(prometheusVariables({ resultType: 'string', result: [1, 'x'] })).toBeUndefined();
  });
});
