import { TOPOLOGY_SETTINGS_TEXTS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { NEW_TOPOLOGY_YAML, topologyFromYaml, topologyToYaml } from './topology-document';

describe('topology document', () => {
  it('round-trips a row through the YAML document', () => {
    const row = {
      name: 'shop',
      namespace: 'prod',
      labels: { team: 'payments' },
      spec: { components: [{ name: 'db' }] },
    };
    const text = topologyToYaml(row);
    expect(text).toContain('kind: Topology');
    expect(topologyFromYaml(text)).toEqual({ fields: row });
  });
  it('defaults the namespace and drops empty labels', () => {
    expect(topologyFromYaml('metadata: {name: a}\nspec: {components: []}')).toEqual({
      fields: { name: 'a', namespace: 'default', labels: null, spec: { components: [] } },
    });
  });
  it('names what is missing', () => {
    expect(topologyFromYaml(NEW_TOPOLOGY_YAML)).toEqual({ error: TOPOLOGY_SETTINGS_TEXTS.nameRequired });
    expect(topologyFromYaml('metadata: {name: a}\nspec: [1]')).toEqual({ error: TOPOLOGY_SETTINGS_TEXTS.specRequired });
    expect(topologyFromYaml('a: [')).toMatchObject({ error: expect.stringContaining(TOPOLOGY_SETTINGS_TEXTS.invalid) });
  });
});
