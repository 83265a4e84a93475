import { TOPOLOGY_SETTINGS_TEXTS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { NEW_TOPOLOGY_YAML, fromDocument, toDocument } from './topology-document';

describe('topology document', () => {
  it('round-trips a row through the YAML document', () => {
    const row = {
      name: 'shop',
      namespace: 'prod',
      labels: { team: 'payments' },
      spec: { components: [{ name: 'db' }] },
    };
    const text = toDocument(row);
    expect(text).toContain('kind: Topology');
    expect(fromDocument(text)).toEqual({ fields: row });
  });
  it('defaults the namespace and drops empty labels', () => {
    expect(fromDocument('metadata: {name: a}\nspec: {components: []}')).toEqual({
      fields: { name: 'a', namespace: 'default', labels: null, spec: { components: [] } },
    });
  });
  it('names what is missing', () => {
    expect(fromDocument(NEW_TOPOLOGY_YAML)).toEqual({ error: TOPOLOGY_SETTINGS_TEXTS.nameRequired });
    expect(fromDocument('metadata: {name: a}\nspec: [1]')).toEqual({ error: TOPOLOGY_SETTINGS_TEXTS.specRequired });
    expect(fromDocument('a: [')).toMatchObject({ error: expect.stringContaining(TOPOLOGY_SETTINGS_TEXTS.invalid) });
  });
});
