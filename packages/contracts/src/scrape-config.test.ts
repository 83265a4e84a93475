import { describe, expect, it } from 'vitest';
import {
  classifyScrapeExpression,
  parseScrapeConfigDocument,
  parseScrapeConfigSpec,
  scrapeExpressionProblem,
} from './scrape-config.js';

const document = (spec: Record<string, unknown>) => ({
  apiVersion: 'configs.flanksource.com/v1',
  kind: 'ScrapeConfig',
  metadata: { name: 'local-files' },
  spec,
});

const messages = (input: unknown) => {
  const result = parseScrapeConfigDocument(input);
  return result.ok ? [] : result.errors.map((error) => error.message);
};

describe('scrape expressions', () => {
  it('classifies each kind the spec lists', () => {
    expect(classifyScrapeExpression('$.metadata.uid')).toEqual({ kind: 'jsonpath', body: '$.metadata.uid' });
    expect(classifyScrapeExpression('{{ .kind }}/{{ .name }}').kind).toBe('template');
    expect(classifyScrapeExpression("expr: config.kind + '/' + config.name")).toEqual({
      kind: 'expr',
      body: "config.kind + '/' + config.name",
    });
    expect(classifyScrapeExpression('javascript: config.kind.toLowerCase()').kind).toBe('javascript');
    expect(classifyScrapeExpression('js: 1 + 1').kind).toBe('javascript');
    expect(classifyScrapeExpression('File::Config')).toEqual({ kind: 'none', body: 'File::Config' });
  });

  it('accepts valid expressions of every kind', () => {
    for (const value of [
      '$.metadata.uid',
      "$['a b'][0].name",
      '$.items[*].id',
      '$..name',
      '{{ .metadata.name }}-{{ .kind }}',
      'expr: config.spec.replicas > 1 ? "big" : "small"',
      'javascript: (function(){ return config.kind })()',
      'Kubernetes::Pod',
    ]) {
      expect(scrapeExpressionProblem(value), value).toBeUndefined();
    }
  });

  it('says which kind is malformed and how', () => {
    expect(scrapeExpressionProblem('$.a..')).toMatch(/^jsonpath expression is not a valid jsonpath near/);
    expect(scrapeExpressionProblem('$.items[')).toMatch(/^jsonpath expression/);
    expect(scrapeExpressionProblem('{{ .name }')).toBe("template expression has '{{' without a closing '}}'");
    expect(scrapeExpressionProblem('{{ }}')).toBe('template expression has an empty {{ }}');
    expect(scrapeExpressionProblem('expr: size(config.items')).toBe("expr expression has an unclosed '('");
    expect(scrapeExpressionProblem('javascript:')).toBe(
      'javascript expression has an empty expression after its prefix',
    );
    expect(scrapeExpressionProblem('js: "abc')).toBe('javascript expression has an unclosed " string');
  });
});

describe('ScrapeConfig documents', () => {
  it('accepts a document with every part (schedule, retention, full, several types)', () => {
    const result = parseScrapeConfigDocument(
      document({
        schedule: '@every 5m',
        full: true,
        retention: {
          changes: [{ name: 'diff', age: '30d', count: 100 }],
          types: [{ name: 'File::Config', deletedAge: '7d' }],
          staleItemAge: '2h',
        },
        file: [
          {
            type: 'File::Config',
            id: '$.id',
            name: '{{ .name }}',
            class: "expr: 'File'",
            paths: ['/etc/app/*.yaml'],
            labels: { team: 'ops' },
            transform: { script: { javascript: 'config' } },
          },
        ],
        http: [{ type: 'Api::Item', url: 'http://127.0.0.1/items', items: '$.items' }],
        sql: [{ type: 'Db::Row', connection: 'connection://default/pg', query: 'SELECT 1 AS id', id: '$.id' }],
        exec: [{ type: 'Script::Item', script: 'echo []' }],
        kubernetes: [{ clusterName: 'local', exclusions: { name: ['x'] } }],
        kubernetesFile: [{ selector: { kind: 'Pod' }, files: [{ path: ['/etc/x.yaml'] }] }],
        aws: [{ regions: ['eu-west-1'] }],
        trivy: [{ version: '0.50' }],
      }),
    );
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.document.metadata.namespace).toBe('default');
  });

  it('names the field that is wrong', () => {
    expect(messages(document({ file: [{ type: 'F', id: '$.a[', paths: ['x'] }] }))).toEqual([
      expect.stringMatching(/^spec\.file\[0\]\.id: jsonpath expression/),
    ]);
    expect(messages(document({ file: [{ type: 'F', paths: [] }] }))).toEqual([
      'spec.file[0].paths: must list at least one path or glob',
    ]);
    expect(messages(document({ file: [{ type: 'F', pths: ['x'] }] }))).toEqual([
      'spec.file[0].paths: is required',
      'spec.file[0].pths: unknown field',
    ]);
    expect(messages(document({ sql: [{ type: 'T', connection: 'c' }] }))).toEqual(['spec.sql[0].query: is required']);
    expect(messages(document({ http: [{ type: 'T' }] }))).toEqual(['spec.http[0].url: needs url or connection']);
    expect(messages(document({ schedule: 'often', exec: [{ type: 'T', script: 'x' }] }))).toEqual([
      "spec.schedule: must be a cron expression such as '*/5 * * * *', '@hourly' or '@every 1m'",
    ]);
    expect(
      messages(document({ retention: { changes: [{ name: 'diff' }] }, exec: [{ type: 'T', script: 'x' }] })),
    ).toEqual(['spec.retention.changes[0].age: needs age or count']);
    expect(messages(document({ retention: { staleItemAge: 'soon' }, exec: [{ type: 'T', script: 'x' }] }))).toEqual([
      "spec.retention.staleItemAge: must be a duration such as '30m', '24h' or '7d'",
    ]);
    expect(messages(document({ aws: [{ name: '{{ .x' }] }))).toEqual([
      "spec.aws[0].name: template expression has '{{' without a closing '}}'",
    ]);
    expect(messages(document({ s3: [{}] }))[0]).toMatch(/^spec\.s3: unknown field; scraper types are file, http/);
    expect(messages(document({}))).toEqual([expect.stringMatching(/^spec: must have at least one scraper/)]);
    expect(messages({ ...document({ exec: [{ type: 'T', script: 'x' }] }), kind: 'Canary' })).toEqual([
      'kind: must be ScrapeConfig',
    ]);
    expect(messages(document({ file: [{ type: 'F', paths: ['x'], transform: { script: { expr: 'a(' } } }] }))).toEqual([
      "spec.file[0].transform.script.expr: expr has an unclosed '('",
    ]);
  });

  it('validates a spec column alone with spec-rooted paths', () => {
    const result = parseScrapeConfigSpec({ file: [{ paths: ['x'] }] });
    expect(result.ok ? [] : result.errors.map((e) => e.message)).toEqual(['spec.file[0].type: is required']);
    expect(parseScrapeConfigSpec({ exec: [{ type: 'T', script: 'echo []' }] }).ok).toBe(true);
  });
});
