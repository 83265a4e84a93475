import { describe, expect, it } from 'vitest';
import { evaluateAnalysisRules, relationshipSelectors } from './scrape-rules-fns.js';

const deployment = { name: 'web', namespace: 'shop', replicas: 1, db: 'orders', labels: { tier: 'front' } };

describe('insight rules', () => {
  it('says per rule whether the item has a finding, with its message and summary', () => {
    const { outcomes, errors } = evaluateAnalysisRules(
      [
        {
          name: 'one-replica',
          filter: 'config.replicas < 2.0',
          type: 'availability',
          severity: 'high',
          message: '{{ .name }} has one replica',
          summary: "expr: 'few replicas in ' + config.namespace",
        },
        { name: 'no-labels', filter: 'size(config.labels) == 0' },
      ],
      deployment,
    );
    expect(errors).toEqual([]);
    expect(outcomes).toEqual([
      {
        analyzer: 'one-replica',
        matched: true,
        analysisType: 'availability',
        severity: 'high',
        message: 'web has one replica',
        summary: 'few replicas in shop',
      },
      { analyzer: 'no-labels', matched: false, analysisType: 'other', severity: 'info', message: null, summary: null },
    ]);
  });

  it('names a rule whose filter fails or is not a boolean', () => {
    const { outcomes, errors } = evaluateAnalysisRules(
      [
        { name: 'number', filter: 'config.replicas' },
        { name: 'missing', filter: 'config.nope.deeper == 1.0' },
      ],
      deployment,
    );
    expect(outcomes).toEqual([]);
    expect(errors).toEqual([
      "analysis 'number': filter 'config.replicas' gave 1, not true or false",
      expect.stringMatching(/^analysis 'missing': expr 'config\.nope\.deeper == 1\.0': /),
    ]);
  });
});

describe('relationship rules', () => {
  it('builds a selector from values and CEL fields, only when the filter passes', () => {
    expect(
      relationshipSelectors(
        {
          filter: 'has(config.db)',
          type: { value: 'App::Database' },
          name: { expr: 'config.db' },
          labels: { env: 'prod' },
        },
        deployment,
      ),
    ).toEqual([{ type: 'App::Database', name: 'orders', labels: { env: 'prod' } }]);
    expect(relationshipSelectors({ filter: "config.namespace == 'other'", name: { value: 'x' } }, deployment)).toEqual(
      [],
    );
  });

  it('takes selectors from expr, and drops selectors that would match everything', () => {
    expect(
      relationshipSelectors(
        { expr: "[{'type': 'App::Queue', 'name': config.name + '-jobs'}, {'namespace': config.namespace}]" },
        deployment,
      ),
    ).toEqual([{ type: 'App::Queue', name: 'web-jobs' }, { namespace: 'shop' }]);
    // A field that evaluates to nothing cannot match: no selector at all.
    expect(
      relationshipSelectors(
        { type: { value: 'App::Database' }, name: { expr: 'config.missing_or_null' } },
        { missing_or_null: null },
      ),
    ).toEqual([]);
    expect(() => relationshipSelectors({ expr: 'config.name' }, deployment)).toThrow(
      'expr gave "web", not a selector object',
    );
  });
});
