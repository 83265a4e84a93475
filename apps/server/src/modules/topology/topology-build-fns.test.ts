import type { TopologyLookup } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { buildTopology, componentFromResult } from './topology-build-fns.js';

const fakeLookup = (answers: Record<string, unknown[]>) => async (lookup: TopologyLookup) => {
  const url = lookup.http?.[0]?.url;
  if (url === 'http://broken') throw new Error('connection refused');
  return answers[url ?? ''] ?? [];
};

describe('buildTopology', () => {
  it('makes the topology the root with static children, properties and selectors', async () => {
    const { root, errors } = await buildTopology(
      'shop',
      {
        type: 'Shop',
        icon: 'shop',
        properties: [{ name: 'region', text: 'eu' }],
        components: [
          {
            name: 'db',
            type: 'Database',
            health: 'healthy',
            checks: [{ selector: { name: 'db-*' } }],
            configs: [{ types: ['Postgres'] }],
            components: [{ name: 'replica', type: 'Database' }],
          },
        ],
      },
      fakeLookup({}),
    );
    expect(errors).toEqual([]);
    expect(root).toMatchObject({
      name: 'shop',
      type: 'Shop',
      icon: 'shop',
      externalId: 'shop',
      properties: [{ name: 'region', text: 'eu' }],
    });
    expect(root.children).toHaveLength(1);
    expect(root.children[0]).toMatchObject({
      name: 'db',
      ownHealth: 'healthy',
      checkSelectors: [{ name: 'db-*' }],
      configSelectors: [{ types: ['Postgres'] }],
    });
    expect(root.children[0]!.children.map((c) => c.name)).toEqual(['replica']);
  });

  it('turns lookup results into components, templated by forEach, under a named group or flat', async () => {
    const { root, errors } = await buildTopology(
      't',
      {
        components: [
          {
            name: 'Pods',
            type: 'Group',
            lookup: { http: [{ url: 'http://pods' }] },
            forEach: {
              properties: [{ name: 'node', text: 'on {{ .node }}' }],
              components: [{ name: '{{ .name }}-sidecar', type: 'Sidecar' }],
              checks: [{ selector: { labelSelector: 'pod={{ .name }}' } }],
            },
          },
          { type: 'Default', lookup: { http: [{ url: 'http://flat' }] } },
        ],
      },
      fakeLookup({
        'http://pods': [{ name: 'p1', node: 'n1', health: 'unhealthy' }, { node: 'no-name' }, 'text'],
        'http://flat': [{ name: 'f1' }, { name: 'f1' }],
      }),
    );
    const pods = root.children.find((c) => c.name === 'Pods')!;
    expect(pods.children).toHaveLength(1);
    expect(pods.children[0]).toMatchObject({
      name: 'p1',
      ownHealth: 'unhealthy',
      properties: [{ name: 'node', text: 'on n1' }],
      checkSelectors: [{ labelSelector: 'pod=p1' }],
    });
    expect(pods.children[0]!.children[0]).toMatchObject({ name: 'p1-sidecar', type: 'Sidecar' });
    expect(root.children.filter((c) => c.name === 'f1')).toEqual([expect.objectContaining({ type: 'Default' })]);
    expect(errors).toEqual([
      'spec.components[0].lookup: result 1 has no name',
      'spec.components[0].lookup: result 2 is not an object with a name',
      "spec.components: more than one component named 'f1' of type Default; the first is kept",
    ]);
  });

  it('takes property values from lookups and reports a failing lookup without stopping', async () => {
    const { root, errors } = await buildTopology(
      't',
      {
        properties: [
          { name: 'count', lookup: { http: [{ url: 'http://n' }] } },
          { name: 'mem', lookup: { http: [{ url: 'http://obj' }] } },
          { name: 'down', text: 'kept', lookup: { http: [{ url: 'http://broken' }] } },
        ],
        components: [{ name: 'group', lookup: { http: [{ url: 'http://broken' }] } }],
      },
      fakeLookup({ 'http://n': [7], 'http://obj': [{ value: '512', unit: 'bytes', max: 1024 }] }),
    );
    expect(root.properties).toEqual([
      { name: 'count', value: 7 },
      { name: 'mem', value: 512, unit: 'bytes', max: 1024 },
      { name: 'down', text: 'kept' },
    ]);
    expect(root.children.map((c) => c.name)).toEqual(['group']);
    expect(errors).toEqual([
      'spec.properties[down]: connection refused',
      'spec.components[0].lookup: connection refused',
    ]);
  });
});

describe('componentFromResult', () => {
  it('links a config or check a lookup found to the component made of it', () => {
    expect(
      componentFromResult({ lookout_kind: 'config', id: 'c1', name: 'orders', type: 'Postgres', health: 'warning' }),
    ).toMatchObject({
      configIds: ['c1'],
      externalId: 'c1',
      ownHealth: 'warning',
    });
    expect(componentFromResult({ lookout_kind: 'check', id: 'k1', name: 'ping', status: 'unhealthy' })).toMatchObject({
      checkIds: ['k1'],
      ownHealth: 'unhealthy',
    });
    expect(componentFromResult({ type: 'x' })).toBeUndefined();
  });
});
