import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateScrapeText, splitItems } from './scrape-expression-fns.js';
import { loadJavascriptEngine } from './scrape-javascript.js';

const doc = {
  kind: 'Deployment',
  metadata: { name: 'web', labels: { tier: 'front' } },
  spec: { replicas: 2 },
  list: [{ n: 1 }, { n: 2 }],
};

// A scrape run loads the WebAssembly engine on demand; pure tests load it up front.
beforeAll(() => loadJavascriptEngine());

describe('scrape expressions', () => {
  it('evaluates each kind', () => {
    expect(evaluateScrapeText('$.metadata.name', doc)).toBe('web');
    expect(evaluateScrapeText('$.list[?(@.n > 1)].n', doc)).toBe('2');
    expect(evaluateScrapeText("expr: config.kind + '/' + config.metadata.name", doc)).toBe('Deployment/web');
    expect(evaluateScrapeText('expr: config.spec.replicas * 2.0', doc)).toBe('4');
    expect(evaluateScrapeText('{{ .kind | lower }}-{{ .metadata.labels.tier }}', doc)).toBe('deployment-front');
    expect(evaluateScrapeText('Kubernetes::Deployment', doc)).toBe('Kubernetes::Deployment');
  });

  it('gives undefined for a jsonpath without a match', () => {
    expect(evaluateScrapeText('$.missing', doc)).toBeUndefined();
  });

  it('runs javascript (sandboxed, see scrape-javascript.test.ts) and names bad expressions', () => {
    expect(evaluateScrapeText('javascript: config.kind.toLowerCase()', doc)).toBe('deployment');
    expect(() => evaluateScrapeText('expr: config.kind +', doc)).toThrow(/^expr 'config.kind \+': /);
    expect(() => evaluateScrapeText('{{ index . "a" }}', doc)).toThrow(/is not a field path/);
    expect(() => evaluateScrapeText('{{ .kind | title }}', doc)).toThrow(/unknown function 'title'/);
    expect(() => evaluateScrapeText('expr: config.nope.deeper', doc)).toThrow(/^expr /);
  });

  it('splits items by jsonpath (a matched list gives its entries) and by expr', () => {
    expect(splitItems('$.list', doc)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(splitItems('$.list[*]', doc)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(splitItems('expr: config.list.filter(x, x.n > 1)', doc)).toEqual([{ n: 2 }]);
    expect(splitItems(undefined, doc)).toEqual([doc]);
    expect(splitItems('$.none', doc)).toEqual([]);
  });
});
