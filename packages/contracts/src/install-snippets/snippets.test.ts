import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { agentChartValues, agentInstallSnippets, gitopsSnippets } from './snippets.js';
import { GITOPS_CHARTS, GITOPS_CHART_CATALOG } from './gitops-charts.js';
import { scalarLeaves, setFlag, shellQuote } from './helm-command.js';

const agent = {
  upstreamUrl: 'https://lookout.example',
  agentName: 'eu-west',
  accessToken: 'tok3n-with-$pecial',
  kubernetes: { enabled: true, interval: '5m' as const },
  pushTelemetry: { enabled: false, topologyName: '' },
};

/** The parts of a Kubernetes document the assertions read. */
interface ManifestDocument {
  metadata: { name: string; namespace?: string };
  spec: { interval?: string; values?: unknown };
  stringData?: unknown;
}

const docs = (text: string) => parseAllDocuments(text).map((document) => document.toJS() as ManifestDocument);

describe('agentInstallSnippets', () => {
  it('sets the upstream, the token, the name and the chosen options as the chart values', () => {
    expect(agentChartValues(agent)).toEqual({
      agentName: 'eu-west',
      upstream: { host: 'https://lookout.example', username: 'token', password: 'tok3n-with-$pecial' },
      kubernetes: { enabled: true, interval: '5m' },
      pushTelemetry: { enabled: false },
    });
  });

  it('gives a Helm command that clones the chart and installs it in agent mode, quoting the token', () => {
    const { helm } = agentInstallSnippets(agent);
    expect(helm).toBe(
      [
        'git clone --depth 1 --branch main https://github.com/lookout-console/lookout.git lookout',
        'helm upgrade --install lookout-agent lookout/deploy/helm/lookout \\',
        '  -n lookout --create-namespace \\',
        '  --set agentName=eu-west \\',
        '  --set upstream.host=https://lookout.example \\',
        '  --set upstream.username=token \\',
        "  --set 'upstream.password=tok3n-with-$pecial' \\",
        '  --set kubernetes.enabled=true \\',
        '  --set kubernetes.interval=5m \\',
        '  --set pushTelemetry.enabled=false',
      ].join('\n'),
    );
  });

  it('gives a Flux manifest whose HelmRelease reads the chart from Git and the token from a Secret', () => {
    const [namespace, secret, source, release] = docs(agentInstallSnippets(agent).flux);
    expect(namespace).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'lookout' } });
    expect(secret?.stringData).toEqual({ password: 'tok3n-with-$pecial' });
    expect(source).toMatchObject({
      kind: 'GitRepository',
      spec: { url: 'https://github.com/lookout-console/lookout', ref: { branch: 'main' }, interval: '30m' },
    });
    expect(release).toMatchObject({
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'lookout-agent', namespace: 'lookout' },
      spec: {
        chart: { spec: { chart: './deploy/helm/lookout', sourceRef: { kind: 'GitRepository', name: 'lookout' } } },
        values: { agentName: 'eu-west', upstream: { host: 'https://lookout.example', username: 'token' } },
        valuesFrom: [
          { kind: 'Secret', name: secret?.metadata.name, valuesKey: 'password', targetPath: 'upstream.password' },
        ],
      },
    });
    // The token is only in the Secret, so the HelmRelease can be committed to Git on its own.
    expect(JSON.stringify(release)).not.toContain('tok3n');
  });

  it('passes the telemetry topology when telemetry is on, and no interval when Kubernetes is off', () => {
    const values = agentChartValues({
      ...agent,
      kubernetes: { enabled: false, interval: '30m' },
      pushTelemetry: { enabled: true, topologyName: 'eu west' },
    });
    expect(values.kubernetes).toEqual({ enabled: false });
    expect(values.pushTelemetry).toEqual({ enabled: true, topologyName: 'eu west' });
    expect(
      agentInstallSnippets({ ...agent, pushTelemetry: { enabled: true, topologyName: 'eu west' } }).helm,
    ).toContain("--set 'pushTelemetry.topologyName=eu west'");
  });
});

describe('gitopsSnippets', () => {
  it('uses the defaults mission-control and 30m, and a HelmRepository and HelmRelease for each chart', () => {
    for (const chart of GITOPS_CHARTS) {
      const { flux, helm } = gitopsSnippets({ chart });
      const [namespace, repository, release] = docs(flux);
      const { chartName, releaseName } = GITOPS_CHART_CATALOG[chart];
      expect(namespace?.metadata.name).toBe('mission-control');
      expect(repository).toEqual({
        apiVersion: 'source.toolkit.fluxcd.io/v1',
        kind: 'HelmRepository',
        metadata: { name: 'flanksource', namespace: 'mission-control' },
        spec: { interval: '30m', url: 'https://flanksource.github.io/charts' },
      });
      expect(release?.spec).toEqual({
        interval: '30m',
        chart: { spec: { chart: chartName, sourceRef: { kind: 'HelmRepository', name: 'flanksource' } } },
      });
      expect(helm).toBe(
        `helm repo add flanksource https://flanksource.github.io/charts && helm repo update flanksource\n` +
          `helm upgrade --install ${releaseName} flanksource/${chartName} \\\n  -n mission-control --create-namespace`,
      );
    }
  });

  it('puts plain values in --set flags and the HelmRelease, in the namespace and interval given', () => {
    const { flux, helm } = gitopsSnippets({
      chart: 'kubernetes',
      namespace: 'platform',
      interval: '1h',
      values: { clusterName: 'prod', prometheus: { createConnection: false, labels: ',cluster="prod"' } },
    });
    const [, repository, release] = docs(flux);
    expect(repository?.metadata.namespace).toBe('platform');
    expect(release?.spec.interval).toBe('1h');
    expect(release?.spec.values).toEqual({
      clusterName: 'prod',
      prometheus: { createConnection: false, labels: ',cluster="prod"' },
    });
    expect(helm.split(' \\\n  ')).toEqual([
      'helm repo add flanksource https://flanksource.github.io/charts && helm repo update flanksource\nhelm upgrade --install mission-control-kubernetes flanksource/mission-control-kubernetes',
      '-n platform --create-namespace',
      '--set clusterName=prod',
      '--set prometheus.createConnection=false',
      `--set 'prometheus.labels=\\,cluster="prod"'`,
    ]);
  });

  it('sends values with lists as YAML on standard input', () => {
    const { helm } = gitopsSnippets({ chart: 'aws', values: { region: ['eu-west-1', 'us-east-1'] } });
    expect(helm).toBe(
      [
        'helm repo add flanksource https://flanksource.github.io/charts && helm repo update flanksource',
        'helm upgrade --install mission-control-aws flanksource/mission-control-aws \\',
        '  -n mission-control --create-namespace \\',
        "  -f - <<'VALUES'",
        'region:',
        '  - eu-west-1',
        '  - us-east-1',
        'VALUES',
      ].join('\n'),
    );
  });

  it('treats a blank namespace or interval as the default', () => {
    const [, repository] = docs(gitopsSnippets({ chart: 'flux', namespace: '  ', interval: '' }).flux);
    expect(repository?.metadata.namespace).toBe('mission-control');
    expect(repository?.spec.interval).toBe('30m');
  });
});

describe('helm command helpers', () => {
  it('quotes shell words only when needed, escaping single quotes', () => {
    expect(shellQuote('eu-west-1')).toBe('eu-west-1');
    expect(shellQuote('')).toBe("''");
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });

  it('keeps strings that look like numbers or booleans strings', () => {
    expect(setFlag('upstream.password', '12345')).toBe('--set-string upstream.password=12345');
    expect(setFlag('x', 'true')).toBe('--set-string x=true');
    expect(setFlag('x', true)).toBe('--set x=true');
    expect(setFlag('replicas', 2)).toBe('--set replicas=2');
  });

  it('escapes dots in keys and refuses lists, nulls and empty maps', () => {
    expect(scalarLeaves({ labels: { 'app.kubernetes.io/name': 'x' } })).toEqual([
      ['labels.app\\.kubernetes\\.io/name', 'x'],
    ]);
    expect(scalarLeaves({ region: [] })).toBeUndefined();
    expect(scalarLeaves({ accessKey: null })).toBeUndefined();
    expect(scalarLeaves({ kubeconfig: {} })).toBeUndefined();
  });
});
