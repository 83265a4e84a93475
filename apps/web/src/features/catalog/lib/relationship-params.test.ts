import { describe, expect, it } from 'vitest';
import type { RelatedConfig } from './relationship-graph-fns';
import {
  filterRelated,
  groupByType,
  readRelationshipParams,
  relatedConfigsQuery,
  writeRelationshipParams,
} from './relationship-params';

const row = (id: string, patch: Partial<RelatedConfig> = {}): RelatedConfig => ({
  id,
  name: id,
  type: 'T',
  status: 'Running',
  health: 'healthy',
  tags: null,
  deleted_at: null,
  related_ids: [],
  depth: 1,
  direction: 'outgoing',
  ...patch,
});

describe('relationship params', () => {
  it('defaults to outgoing, hard links only, the table', () => {
    const params = readRelationshipParams(new URLSearchParams());
    expect(params).toMatchObject({
      outgoing: true,
      incoming: false,
      soft: false,
      view: 'table',
      direction: 'TB',
      edgeStyle: 'curved',
    });
    expect(relatedConfigsQuery('c1', params, true)).toEqual({
      config_id: 'c1',
      type_filter: 'outgoing',
      include_deleted_configs: 'false',
      max_depth: '10',
      incoming_relation: 'hard',
      outgoing_relation: 'hard',
    });
  });

  it('round-trips the toggles and filters through the address', () => {
    const search = writeRelationshipParams(new URLSearchParams('tab=x'), {
      incoming: true,
      soft: true,
      view: 'graph',
      direction: 'LR',
      edgeStyle: 'step',
      configTypes: ['A', 'B'],
      tag: ['env=prod'],
    });
    expect(search.toString()).toBe(
      'tab=x&incoming=true&relation=soft&view=graph&layout=LR&edges=step&configTypes=A%2CB&tag=env%3Dprod',
    );
    const params = readRelationshipParams(search);
    expect(relatedConfigsQuery('c1', params, false)).toMatchObject({
      type_filter: 'all',
      include_deleted_configs: 'true',
      incoming_relation: 'both',
    });
    expect(writeRelationshipParams(search, { view: 'table', configTypes: [] }).has('view')).toBe(false);
  });

  it('filters rows and always keeps the item itself', () => {
    const rows = [
      row('root', { depth: 0, direction: 'self', type: 'X' }),
      row('a', { type: 'Pod', tags: { env: 'prod' } }),
      row('b', { type: 'Pod', health: null, direction: 'incoming' }),
      row('c', { type: 'Svc', status: 'Stopped' }),
    ];
    const params = readRelationshipParams(new URLSearchParams('configTypes=Pod'));
    const ids = (kept: RelatedConfig[]) => kept.map((r) => r.id);
    expect(ids(filterRelated(rows, 'root', params, () => undefined))).toEqual(['root', 'a', 'b']);
    expect(ids(filterRelated(rows, 'root', { ...params, health: ['unknown'] }, () => undefined))).toEqual([
      'root',
      'b',
    ]);
    expect(ids(filterRelated(rows, 'root', { ...params, tag: ['env=prod'] }, () => undefined))).toEqual(['root', 'a']);
    expect(ids(filterRelated(rows, 'root', { ...params, relationship: ['incoming'] }, () => undefined))).toEqual([
      'root',
      'b',
    ]);
    expect(
      ids(
        filterRelated(rows, 'root', { ...params, labels: ['app=shop'] }, (id): Record<string, string> =>
          id === 'b' ? { app: 'shop' } : {},
        ),
      ),
    ).toEqual(['root', 'b']);
  });

  it('groups the table by type', () => {
    expect(
      groupByType([row('b', { type: 'Pod' }), row('a', { type: 'Pod' }), row('c', { type: 'Deployment' })]),
    ).toEqual([
      { type: 'Deployment', rows: [expect.objectContaining({ id: 'c' })] },
      { type: 'Pod', rows: [expect.objectContaining({ id: 'a' }), expect.objectContaining({ id: 'b' })] },
    ]);
  });
});
