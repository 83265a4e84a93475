import { describe, expect, it } from 'vitest';
import { checkGitopsForm, initialGitopsInput } from './gitops-form-fns';

describe('initialGitopsInput', () => {
  it('opens in the mission-control namespace with the chart example values as YAML', () => {
    expect(initialGitopsInput('flux')).toEqual({ namespace: 'mission-control', valuesText: 'topologyName: flux\n' });
  });

  it('leaves the values empty for a chart that needs none', () => {
    expect(initialGitopsInput('mission-control').valuesText).toBe('');
  });
});

describe('checkGitopsForm', () => {
  it('names each wrong field and holds the snippets back', () => {
    const state = checkGitopsForm('aws', { namespace: 'ops', valuesText: 'region: eu-west-1\nbogus: 1\n' });
    expect(state.valueProblems.map((problem) => problem.message)).toEqual([
      'region: must be a list, not a string',
      'bogus: unknown field',
    ]);
    expect(state.snippets).toBeUndefined();
  });

  it('reports unreadable YAML as a problem of the whole document', () => {
    const state = checkGitopsForm('aws', { namespace: 'ops', valuesText: 'region: [eu-west-1\n' });
    expect(state.valueProblems).toHaveLength(1);
    expect(state.valueProblems[0]!.path).toBe('document');
    expect(state.valueProblems[0]!.message).toMatch(/^The values are not valid YAML: /);
  });

  it('refuses a namespace that is not a Kubernetes name, or none', () => {
    expect(checkGitopsForm('flux', { namespace: 'Ops_1', valuesText: '' }).namespaceProblem).toMatch(
      /^Namespace must be lowercase/,
    );
    expect(checkGitopsForm('flux', { namespace: ' ', valuesText: '' }).namespaceProblem).toBe('Namespace is required');
    expect(checkGitopsForm('flux', { namespace: 'Ops_1', valuesText: '' }).snippets).toBeUndefined();
  });

  it('builds the Flux manifest and the Helm command from valid input, interval 30m', () => {
    const state = checkGitopsForm('kubernetes', { namespace: 'platform', valuesText: 'clusterName: prod\n' });
    expect(state.namespaceProblem).toBeUndefined();
    expect(state.valueProblems).toEqual([]);
    expect(state.snippets?.flux).toContain('kind: HelmRelease');
    expect(state.snippets?.flux).toContain('namespace: platform');
    expect(state.snippets?.flux).toContain('interval: 30m');
    expect(state.snippets?.flux).toContain('clusterName: prod');
    expect(state.snippets?.helm).toContain('-n platform --create-namespace');
    expect(state.snippets?.helm).toContain('clusterName=prod');
  });
});
