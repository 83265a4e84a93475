import { z } from 'zod';
import {
  describeValueType,
  documentErrorMap,
  issuesToFieldProblems,
  type FieldProblem,
} from '../document-validation.js';
import { KUBERNETES_NAME_MAX_LENGTH, KUBERNETES_NAME_PATTERN } from './constants.js';

/**
 * The charts the integrations' 'Add via GitOps' forms install (spec 2 section 2.7): the
 * Flanksource Mission Control registry's bundles, published to the Flanksource Helm
 * repository. Each has a modest values schema of its main values (ADR 0040): the form's values
 * are an override that Helm merges over the chart's own defaults, so only what the user must
 * supply is required, and unknown top-level keys are refused to catch misspellings.
 */

export const GITOPS_HELM_REPOSITORY_NAME = 'flanksource';
export const GITOPS_HELM_REPOSITORY_URL = 'https://flanksource.github.io/charts';

export const GITOPS_CHARTS = ['aws', 'azure', 'prometheus', 'flux', 'kubernetes', 'mission-control'] as const;
export type GitopsChart = (typeof GITOPS_CHARTS)[number];

export interface GitopsChartDescriptor {
  chart: GitopsChart;
  /** The option's title in the Add Integration modal. */
  title: string;
  /** The chart's name in {@link GITOPS_HELM_REPOSITORY_URL}. */
  chartName: string;
  repositoryName: string;
  repositoryUrl: string;
  /** The release name the snippets use. */
  releaseName: string;
  /** An icon name for the web's icon set. */
  icon: string;
  /** Values the editor starts with: the required fields, for the user to fill in. */
  exampleValues: Record<string, unknown>;
}

const text = (max: number) => z.string().max(max, { error: `must be at most ${max} characters` });
const required = (max: number) => text(max).min(1, { error: 'is required' });
const labels = z.record(z.string(), z.string());
const stringList = z.array(z.string());
/** A value written inline or taken from a Secret or ConfigMap key (the charts' secret-or-value form). */
const keyRef = z.looseObject({ name: text(253), key: text(253) });
const secretOrValue = z.looseObject({
  name: text(253).optional(),
  value: text(4000).optional(),
  valueFrom: z
    .looseObject({
      serviceAccount: text(253).optional(),
      helmRef: keyRef.optional(),
      configMapKeyRef: keyRef.optional(),
      secretKeyRef: keyRef.optional(),
    })
    .optional(),
});
const common = {
  nameOverride: text(63).optional(),
  fullnameOverride: text(63).optional(),
  labels: labels.optional(),
  global: z.looseObject({}).optional(),
};
const connectionUrl = text(2000).regex(/^(connection:\/\/.*)?$/, {
  error: "must be a connection reference such as 'connection://aws/prod', or empty",
});
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });

const awsValues = z.strictObject({
  ...common,
  scraper: z.looseObject({ name: required(253) }).optional(),
  connection: connectionUrl.optional(),
  accessKey: z.union([z.null(), secretOrValue]).optional(),
  secretKey: z.union([z.null(), secretOrValue]).optional(),
  /** The regions to scrape, e.g. eu-west-1. */
  region: z.array(required(64)).min(1, { error: 'must name at least one region' }),
  endpoint: text(2000).optional(),
  assumeRole: text(2048).optional(),
  skipTLSVerify: z.boolean().optional(),
  cloudtrail: z.looseObject({ maxAge: text(32).optional(), exclude: stringList.optional() }).optional(),
  compliance: z.boolean().optional(),
  costReporting: z
    .strictObject({
      enabled: z.boolean(),
      database: text(255),
      region: text(64),
      s3BucketPath: text(2000),
      table: text(255),
    })
    .optional(),
  includeResources: stringList.optional(),
  excludeResources: stringList.optional(),
  retention: z.looseObject({}).optional(),
  transform: z.looseObject({}).optional(),
});

const azureValues = z.strictObject({
  ...common,
  scraper: z.looseObject({ name: required(253) }).optional(),
  subscriptionID: required(64),
  organisation: text(255).optional(),
  tenantID: required(64),
  connection: connectionUrl.optional(),
  clientID: secretOrValue.optional(),
  clientSecret: secretOrValue.optional(),
  transform: z.looseObject({}).optional(),
  exclusions: z.looseObject({ activityLogs: stringList.optional() }).optional(),
});

const prometheusValues = z.strictObject({
  ...common,
  topologyName: required(253),
  prometheusNamespace: text(63).optional(),
  prometheusURL: httpUrl,
});

const fluxValues = z.strictObject({
  ...common,
  topologyName: required(253).optional(),
  playbooks: z
    .looseObject({
      enabled: z.boolean().optional(),
      git: z.looseObject({ connection: text(2000).optional() }).optional(),
      resume: z.boolean().optional(),
      suspend: z.boolean().optional(),
      reconcile: z.boolean().optional(),
      updateHelmValues: z.boolean().optional(),
      updateHelmChartVersion: z.boolean().optional(),
      updateResourceResources: z.boolean().optional(),
      updateResourceImage: z.boolean().optional(),
      updateResourceReplicas: z.boolean().optional(),
    })
    .optional(),
});

const kubernetesValues = z.strictObject({
  ...common,
  /** Names the cluster's catalog items and topology. */
  clusterName: required(253),
  kubeconfig: z.looseObject({}).optional(),
  kubernetesConnection: z.looseObject({ connection: text(2000).optional() }).optional(),
  prometheus: z
    .looseObject({
      createConnection: z.boolean().optional(),
      connection: text(253).optional(),
      url: z.union([httpUrl, z.looseObject({})]).optional(),
      labels: text(2000).optional(),
      auth: z.looseObject({}).optional(),
    })
    .optional(),
  metrics: z.looseObject({ enabled: z.boolean().optional(), type: text(64).optional() }).optional(),
  topology: z.looseObject({ enabled: z.boolean().optional(), name: text(253).optional() }).optional(),
  scraper: z.looseObject({ name: text(253).optional(), schedule: text(64).optional() }).optional(),
  playbooks: z.looseObject({}).optional(),
});

const missionControlValues = z.strictObject({
  ...common,
  global: z.looseObject({ prometheus: z.looseObject({ connection: text(253).optional() }).optional() }).optional(),
  prometheusURL: z.union([z.literal(''), httpUrl]).optional(),
  connectionName: required(253).optional(),
  createConnection: z.boolean().optional(),
  isAgent: z.boolean().optional(),
  playbooks: z.boolean().optional(),
  pushLocation: z.looseObject({ url: z.union([z.literal(''), httpUrl]).optional() }).optional(),
  topology: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  topologyName: text(253).optional(),
  views: z.looseObject({ enabled: z.boolean().optional() }).optional(),
});

const VALUES_SCHEMAS = {
  aws: awsValues,
  azure: azureValues,
  prometheus: prometheusValues,
  flux: fluxValues,
  kubernetes: kubernetesValues,
  'mission-control': missionControlValues,
} satisfies Record<GitopsChart, z.ZodType>;

const descriptor = (
  chart: GitopsChart,
  title: string,
  chartName: string,
  exampleValues: Record<string, unknown>,
): GitopsChartDescriptor => ({
  chart,
  title,
  chartName,
  repositoryName: GITOPS_HELM_REPOSITORY_NAME,
  repositoryUrl: GITOPS_HELM_REPOSITORY_URL,
  releaseName: chartName,
  icon: chart,
  exampleValues,
});

/** The 'Add via GitOps' options, in the modal's order. */
export const GITOPS_CHART_CATALOG: Readonly<Record<GitopsChart, GitopsChartDescriptor>> = {
  aws: descriptor('aws', 'AWS', 'mission-control-aws', { region: ['eu-west-1'], connection: '' }),
  azure: descriptor('azure', 'Azure', 'mission-control-azure', { subscriptionID: '', tenantID: '' }),
  prometheus: descriptor('prometheus', 'Prometheus', 'mission-control-prometheus', {
    topologyName: 'prometheus',
    prometheusURL: 'http://prometheus.monitoring.svc:9090',
  }),
  flux: descriptor('flux', 'Flux', 'mission-control-flux', { topologyName: 'flux' }),
  kubernetes: descriptor('kubernetes', 'Kubernetes', 'mission-control-kubernetes', { clusterName: '' }),
  'mission-control': descriptor('mission-control', 'Mission Control', 'mission-control-watchtower', {}),
};

export function isGitopsChart(value: string): value is GitopsChart {
  return (GITOPS_CHARTS as readonly string[]).includes(value);
}

const jsonSchemas = new Map<GitopsChart, Record<string, unknown>>();

/** The chart's values schema as JSON Schema draft-07, for a values editor's hints. */
export function gitopsValuesJsonSchema(chart: GitopsChart): Record<string, unknown> {
  let schema = jsonSchemas.get(chart);
  if (!schema) {
    schema = {
      ...z.toJSONSchema(VALUES_SCHEMAS[chart], { target: 'draft-07', unrepresentable: 'any' }),
      title: `${GITOPS_CHART_CATALOG[chart].title} values (${GITOPS_CHART_CATALOG[chart].chartName})`,
    };
    jsonSchemas.set(chart, schema);
  }
  return schema;
}

/**
 * The problems of a values override for `chart`, each naming its field (`region[0]: is
 * required`); none when Helm can install the chart with it. `values` is what the editor's YAML
 * parsed to: nothing (an empty editor) is no override, anything but a map is one problem at
 * `document`.
 */
export function validateValues(chart: GitopsChart, values: unknown): FieldProblem[] {
  const override = values ?? {};
  if (typeof override !== 'object' || Array.isArray(override)) {
    const reason = `must be a map of values, not ${describeValueType(override)}`;
    return [{ path: 'document', reason, message: `document: ${reason}` }];
  }
  const result = VALUES_SCHEMAS[chart].safeParse(override, { error: documentErrorMap });
  return result.success ? [] : issuesToFieldProblems(result.error.issues);
}

/** Why `namespace` cannot be the release's namespace, or undefined when it can. */
export function namespaceProblem(namespace: string): string | undefined {
  if (namespace.trim() === '') return 'is required';
  if (namespace.length > KUBERNETES_NAME_MAX_LENGTH) return `must be at most ${KUBERNETES_NAME_MAX_LENGTH} characters`;
  if (!KUBERNETES_NAME_PATTERN.test(namespace)) {
    return 'must be lowercase letters, digits and dashes, starting and ending with a letter or digit';
  }
  return undefined;
}
