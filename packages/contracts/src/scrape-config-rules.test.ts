import { describe, expect, it } from 'vitest';
import { parseScrapeConfigSpec } from './scrape-config.js';

const messages = (spec: unknown) => {
  const result = parseScrapeConfigSpec(spec);
  return result.ok ? [] : result.errors.map((error) => error.message);
};

const file = (extra: object) => ({ file: [{ type: 'T', id: '$.id', paths: ['x'], ...extra }] });

describe('scraper rules and the kubernetes types', () => {
  it('accepts analysis and relationship rules, kubernetes and kubernetesFile entries', () => {
    expect(
      messages({
        ...file({
          analysis: [
            {
              name: 'one-replica',
              filter: 'config.replicas < 2.0',
              type: 'availability',
              severity: 'high',
              message: '{{ .name }}',
            },
          ],
          transform: {
            relationship: [
              { filter: 'has(config.db)', type: { value: 'App::Database' }, name: { expr: 'config.db' } },
              { expr: '[]', parent: true },
            ],
          },
        }),
        kubernetes: [
          {
            clusterName: 'prod',
            connection: 'connection://default/prod',
            namespace: 'shop',
            exclusions: { namespace: ['kube-*'] },
            event: { severityKeywords: { error: ['Failed*'] } },
          },
        ],
        kubernetesFile: [{ files: [{ path: ['manifests/*.yaml'] }] }],
      }),
    ).toEqual([]);
  });

  it('names what is wrong in a rule', () => {
    expect(
      messages(file({ analysis: [{ name: 'x', filter: 'size(config.items', type: 'uptime', severity: 'urgent' }] })),
    ).toEqual([
      "spec.file[0].analysis[0].filter: CEL expression has an unclosed '('",
      'spec.file[0].analysis[0].type: must be one of cost, availability, performance, security, integration, compliance, technical_debt, reliability, recommendation, other',
      'spec.file[0].analysis[0].severity: must be one of info, warning, low, medium, high, blocker, critical',
    ]);
    expect(messages(file({ analysis: [{ filter: 'true' }] }))).toEqual(['spec.file[0].analysis[0].name: is required']);
    expect(messages(file({ transform: { relationship: [{ filter: 'true' }] } }))).toEqual([
      'spec.file[0].transform.relationship[0].expr: needs expr or a selector field (id, external_id, name, namespace, type, labels)',
    ]);
    expect(messages(file({ transform: { relationship: [{ name: { value: 'a', expr: 'b' } }] } }))).toEqual([
      'spec.file[0].transform.relationship[0].name: needs exactly one of value or expr',
    ]);
  });

  it('accepts javascript expressions and names a malformed one', () => {
    expect(messages(file({ name: 'javascript: config.name.toUpperCase()' }))).toEqual([]);
    expect(messages(file({ name: 'js: config.name.toUpperCase(' }))).toEqual([
      "spec.file[0].name: javascript expression has an unclosed '('",
    ]);
  });

  it('needs the kubernetes cluster name and the kubernetesFile files', () => {
    expect(messages({ kubernetes: [{ namespace: 'x' }] })).toEqual(['spec.kubernetes[0].clusterName: is required']);
    expect(messages({ kubernetesFile: [{ selector: { kind: 'Pod' } }] })).toEqual([
      'spec.kubernetesFile[0].files: is required',
    ]);
    expect(messages({ kubernetesFile: [{ files: [] }] })).toEqual([
      'spec.kubernetesFile[0].files: must list at least one file',
    ]);
  });
});
