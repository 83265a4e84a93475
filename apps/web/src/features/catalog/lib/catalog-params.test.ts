import { describe, expect, it } from 'vitest';
import { applyCatalogParams, configsQuery, parseCatalogParams, showsTable, summaryBody } from './catalog-params';

describe('catalog params', () => {
  it('reads defaults: sorted by type ascending, summary view', () => {
    const params = parseCatalogParams(new URLSearchParams());
    expect(params).toMatchObject({ sortBy: 'type', sortOrder: 'asc', configType: '', search: '' });
    expect(showsTable(params)).toBe(false);
  });

  it('writes changes to the address and drops defaults', () => {
    const next = applyCatalogParams(new URLSearchParams('sortBy=name'), {
      configType: 'Kubernetes::Pod',
      health: { unhealthy: 1, unknown: -1 },
      sortBy: 'type',
    });
    expect(next.toString()).toBe('configType=Kubernetes%3A%3APod&health=unhealthy%3A1%2Cunknown%3A-1');
    expect(showsTable(parseCatalogParams(next))).toBe(true);
  });

  it('builds the configs query as the console sends it', () => {
    const params = parseCatalogParams(
      new URLSearchParams('configType=Kubernetes::Pod&health=unhealthy:1,unknown:-1&labels=app=web&sortBy=type'),
    );
    const query = configsQuery(params, true);
    expect(query).toContainEqual(['type', 'eq.Kubernetes::Pod']);
    expect(query).toContainEqual(['health.filter', 'unhealthy,!unknown']);
    expect(query).toContainEqual(['labels->>app', 'eq.web']);
    expect(query).toContainEqual(['order', 'type.asc,name.asc,id.asc']);
    expect(query).toContainEqual(['deleted_at', 'is.null']);
    const searched = configsQuery(
      parseCatalogParams(new URLSearchParams('search=web&sortBy=name&sortOrder=desc')),
      false,
    );
    expect(searched).toContainEqual([
      'or',
      '(name.ilike.*web*,type.ilike.*web*,description.ilike.*web*,namespace.ilike.*web*)',
    ]);
    expect(searched).toContainEqual(['order', 'name.desc,id.asc']);
    expect(searched.find(([key]) => key === 'deleted_at')).toBeUndefined();
  });

  it('builds the summary body', () => {
    const params = parseCatalogParams(new URLSearchParams('groupBy=team,type&labels=app=web&status=Running:1'));
    expect(summaryBody(params, true)).toEqual({
      groupBy: ['team'],
      deleted: false,
      filter: { app: 'web' },
      status: 'Running',
      changes: { since: '30d' },
      analysis: { since: '30d' },
      cost: '30d',
    });
  });
});
