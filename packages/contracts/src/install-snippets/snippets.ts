import { stringify } from 'yaml';
import { AGENT_PUSH_USERNAME } from '../agent-push.js';
import {
  AGENT_INSTALL_NAMESPACE,
  AGENT_RELEASE_NAME,
  GITOPS_DEFAULT_INTERVAL,
  GITOPS_DEFAULT_NAMESPACE,
  type AgentScrapeInterval,
} from './constants.js';
import { GITOPS_CHART_CATALOG, type GitopsChart } from './gitops-charts.js';
import { continuedLines, scalarLeaves, setFlag, shellQuote } from './helm-command.js';
import {
  LOOKOUT_CHART_NAME,
  LOOKOUT_CHART_PATH,
  LOOKOUT_GIT_BRANCH,
  LOOKOUT_GIT_REPOSITORY_URL,
  type LookoutChartValuesOverride,
} from './lookout-chart.js';

/** The two tabs of an install dialog: a Flux manifest and a Helm CLI command. */
export interface InstallSnippets {
  helm: string;
  flux: string;
}

export interface AgentInstallInput {
  /** The upstream Lookout's address as the agent reaches it, e.g. `https://lookout.example`. */
  upstreamUrl: string;
  agentName: string;
  /** The token `POST /api/agent/generate` returned; shown once. */
  accessToken: string;
  kubernetes: { enabled: boolean; interval: AgentScrapeInterval };
  pushTelemetry: { enabled: boolean; topologyName: string };
}

export interface GitopsSnippetInput {
  chart: GitopsChart;
  namespace?: string;
  interval?: string;
  /** The values override from the form's editor (already validated with `validateValues`). */
  values?: Record<string, unknown>;
}

const FLUX_SOURCE_API = 'source.toolkit.fluxcd.io/v1';
const FLUX_HELM_API = 'helm.toolkit.fluxcd.io/v2';

const yamlDocuments = (documents: object[]): string =>
  documents.map((document) => stringify(document, { lineWidth: 0 })).join('---\n');

const namespaceDocument = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

/** The chart values an agent is installed with: the Lookout chart's keys, only those the user chose. */
export function agentChartValues(input: AgentInstallInput): LookoutChartValuesOverride {
  return {
    agentName: input.agentName,
    upstream: { host: input.upstreamUrl, username: AGENT_PUSH_USERNAME, password: input.accessToken },
    kubernetes: input.kubernetes.enabled ? { enabled: true, interval: input.kubernetes.interval } : { enabled: false },
    pushTelemetry: input.pushTelemetry.enabled
      ? { enabled: true, topologyName: input.pushTelemetry.topologyName }
      : { enabled: false },
  };
}

/**
 * The agent's 'Installation Instructions': Lookout's own chart (`deploy/helm/lookout`) in agent
 * mode. The Helm command installs from a clone of the repository; the Flux manifest reads the
 * chart from the Git repository and takes the token from a Secret, so the HelmRelease can be
 * committed without it.
 */
export function agentInstallSnippets(input: AgentInstallInput): InstallSnippets {
  const values = agentChartValues(input);
  const leaves = scalarLeaves(values as Record<string, unknown>) ?? [];
  const helm = [
    `git clone --depth 1 --branch ${LOOKOUT_GIT_BRANCH} ${LOOKOUT_GIT_REPOSITORY_URL}.git lookout`,
    continuedLines([
      `helm upgrade --install ${AGENT_RELEASE_NAME} lookout/${LOOKOUT_CHART_PATH}`,
      `-n ${AGENT_INSTALL_NAMESPACE} --create-namespace`,
      ...leaves.map(([path, value]) => setFlag(path, value)),
    ]),
  ].join('\n');

  const tokenSecret = `${AGENT_RELEASE_NAME}-token`;
  const { password, ...upstreamWithoutToken } = values.upstream ?? {};
  const flux = yamlDocuments([
    namespaceDocument(AGENT_INSTALL_NAMESPACE),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: tokenSecret, namespace: AGENT_INSTALL_NAMESPACE },
      type: 'Opaque',
      stringData: { password },
    },
    {
      apiVersion: FLUX_SOURCE_API,
      kind: 'GitRepository',
      metadata: { name: LOOKOUT_CHART_NAME, namespace: AGENT_INSTALL_NAMESPACE },
      spec: { interval: GITOPS_DEFAULT_INTERVAL, url: LOOKOUT_GIT_REPOSITORY_URL, ref: { branch: LOOKOUT_GIT_BRANCH } },
    },
    {
      apiVersion: FLUX_HELM_API,
      kind: 'HelmRelease',
      metadata: { name: AGENT_RELEASE_NAME, namespace: AGENT_INSTALL_NAMESPACE },
      spec: {
        interval: GITOPS_DEFAULT_INTERVAL,
        chart: {
          spec: {
            chart: `./${LOOKOUT_CHART_PATH}`,
            sourceRef: { kind: 'GitRepository', name: LOOKOUT_CHART_NAME },
          },
        },
        values: { ...values, upstream: upstreamWithoutToken },
        valuesFrom: [{ kind: 'Secret', name: tokenSecret, valuesKey: 'password', targetPath: 'upstream.password' }],
      },
    },
  ]);
  return { helm, flux };
}

/**
 * An 'Add via GitOps' chart's snippets: a HelmRepository and HelmRelease for Flux, and
 * `helm repo add … && helm upgrade --install …` for the CLI, with the values as `--set` flags
 * when they are plain, else as YAML on standard input.
 */
export function gitopsSnippets(input: GitopsSnippetInput): InstallSnippets {
  const chart = GITOPS_CHART_CATALOG[input.chart];
  const namespace = input.namespace?.trim() || GITOPS_DEFAULT_NAMESPACE;
  const interval = input.interval?.trim() || GITOPS_DEFAULT_INTERVAL;
  const values = input.values ?? {};
  const hasValues = Object.keys(values).length > 0;

  const flux = yamlDocuments([
    namespaceDocument(namespace),
    {
      apiVersion: FLUX_SOURCE_API,
      kind: 'HelmRepository',
      metadata: { name: chart.repositoryName, namespace },
      spec: { interval, url: chart.repositoryUrl },
    },
    {
      apiVersion: FLUX_HELM_API,
      kind: 'HelmRelease',
      metadata: { name: chart.releaseName, namespace },
      spec: {
        interval,
        chart: { spec: { chart: chart.chartName, sourceRef: { kind: 'HelmRepository', name: chart.repositoryName } } },
        ...(hasValues ? { values } : {}),
      },
    },
  ]);

  const leaves = scalarLeaves(values);
  const install = [
    `helm upgrade --install ${shellQuote(chart.releaseName)} ${chart.repositoryName}/${chart.chartName}`,
    `-n ${shellQuote(namespace)} --create-namespace`,
  ];
  const repo = `helm repo add ${chart.repositoryName} ${chart.repositoryUrl} && helm repo update ${chart.repositoryName}`;
  if (!hasValues || leaves) {
    const flags = (leaves ?? []).map(([path, value]) => setFlag(path, value));
    return { flux, helm: `${repo}\n${continuedLines([...install, ...flags])}` };
  }
  // Lists and nested maps read better, and survive quoting, as a values file.
  const valuesYaml = stringify(values, { lineWidth: 0 });
  let delimiter = 'VALUES';
  while (valuesYaml.split('\n').includes(delimiter)) delimiter += '_END';
  return { flux, helm: `${repo}\n${continuedLines([...install, `-f - <<'${delimiter}'`])}\n${valuesYaml}${delimiter}` };
}
