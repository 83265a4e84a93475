import { describe, expect, it } from 'vitest';
import {
  GITOPS_CHARTS,
  GITOPS_CHART_CATALOG,
  gitopsValuesJsonSchema,
  isGitopsChart,
  namespaceProblem,
  validateValues,
} from './gitops-charts.js';
import { GITOPS_FLUX_WARNING } from './constants.js';

const reasons = (chart: Parameters<typeof validateValues>[0], values: unknown) =>
  validateValues(chart, values).map((problem) => problem.message);

describe('GitOps chart catalog', () => {
  it('offers the six charts of spec 2 section 2.7 in order, from the Flanksource repository', () => {
    expect(GITOPS_CHARTS.map((chart) => GITOPS_CHART_CATALOG[chart].title)).toEqual([
      'AWS',
      'Azure',
      'Prometheus',
      'Flux',
      'Kubernetes',
      'Mission Control',
    ]);
    expect(GITOPS_CHART_CATALOG.kubernetes).toMatchObject({
      chartName: 'mission-control-kubernetes',
      repositoryUrl: 'https://flanksource.github.io/charts',
      releaseName: 'mission-control-kubernetes',
      icon: 'kubernetes',
    });
    expect(GITOPS_CHART_CATALOG['mission-control'].chartName).toBe('mission-control-watchtower');
    expect(isGitopsChart('aws')).toBe(true);
    expect(isGitopsChart('gcp')).toBe(false);
    expect(GITOPS_FLUX_WARNING).toBe('You will need to have Kubernetes chart installed in flux to use this option.');
  });

  it('starts each editor with values whose only problems are the fields the user must fill in', () => {
    expect(reasons('aws', GITOPS_CHART_CATALOG.aws.exampleValues)).toEqual([]);
    expect(reasons('prometheus', GITOPS_CHART_CATALOG.prometheus.exampleValues)).toEqual([]);
    expect(reasons('flux', GITOPS_CHART_CATALOG.flux.exampleValues)).toEqual([]);
    expect(reasons('mission-control', GITOPS_CHART_CATALOG['mission-control'].exampleValues)).toEqual([]);
    expect(reasons('kubernetes', GITOPS_CHART_CATALOG.kubernetes.exampleValues)).toEqual(['clusterName: is required']);
    expect(reasons('azure', GITOPS_CHART_CATALOG.azure.exampleValues)).toEqual([
      'subscriptionID: is required',
      'tenantID: is required',
    ]);
  });
});

describe('validateValues', () => {
  it('accepts a complete override', () => {
    expect(
      reasons('aws', {
        region: ['eu-west-1'],
        connection: 'connection://aws/prod',
        costReporting: { enabled: true, database: 'athena', region: 'us-east-1', s3BucketPath: 's3://b', table: 'cur' },
        labels: { team: 'platform' },
      }),
    ).toEqual([]);
    expect(reasons('kubernetes', { clusterName: 'prod', prometheus: { url: 'http://prometheus:9090' } })).toEqual([]);
  });

  it('names each wrong field in product language', () => {
    expect(reasons('aws', { region: [], connection: 'aws/prod', regoin: ['x'] })).toEqual([
      "connection: must be a connection reference such as 'connection://aws/prod', or empty",
      'region: must name at least one region',
      'regoin: unknown field',
    ]);
    expect(reasons('prometheus', { topologyName: 'p', prometheusURL: 'prometheus:9090' })).toEqual([
      'prometheusURL: must be an http or https URL',
    ]);
    expect(reasons('flux', { playbooks: { enabled: 'yes' } })).toEqual([
      'playbooks.enabled: must be true or false, not a string',
    ]);
    expect(reasons('aws', { region: ['eu-west-1'], costReporting: { enabled: true } })).toEqual([
      'costReporting.database: is required',
      'costReporting.region: is required',
      'costReporting.s3BucketPath: is required',
      'costReporting.table: is required',
    ]);
  });

  it('answers one problem for values that are not a map', () => {
    expect(reasons('aws', ['a'])).toEqual(['document: must be a map of values, not a list']);
    expect(reasons('aws', 'region: x')).toEqual(['document: must be a map of values, not a string']);
  });

  it('reads an empty editor as no override, so only the required fields are missing', () => {
    expect(reasons('kubernetes', null)).toEqual(['clusterName: is required']);
    expect(reasons('flux', undefined)).toEqual([]);
  });

  it('checks the namespace as a Kubernetes name', () => {
    expect(namespaceProblem('mission-control')).toBeUndefined();
    expect(namespaceProblem(' ')).toBe('is required');
    expect(namespaceProblem('Mission_Control')).toBe(
      'must be lowercase letters, digits and dashes, starting and ending with a letter or digit',
    );
    expect(namespaceProblem('a'.repeat(64))).toBe('must be at most 63 characters');
  });

  it('publishes each schema as draft-07 JSON Schema with its required fields', () => {
    const kubernetes = gitopsValuesJsonSchema('kubernetes') as {
      $schema: string;
      required: string[];
      additionalProperties: boolean;
    };
    expect(kubernetes.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(kubernetes.required).toEqual(['clusterName']);
    expect(kubernetes.additionalProperties).toBe(false);
    expect((gitopsValuesJsonSchema('azure') as { required: string[] }).required).toEqual([
      'subscriptionID',
      'tenantID',
    ]);
    expect(gitopsValuesJsonSchema('aws')).toBe(gitopsValuesJsonSchema('aws'));
  });
});
