import { CATALOG_LIMITS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { CONFIGS_SELECT, parseCatalogParams } from './catalog-params';
import { configsPageQuery, flattenConfigsPages, nextConfigsOffset, type ConfigsPage } from './configs-paging';

const page = (offset: number, length: number, total?: number): ConfigsPage<number> => ({
  rows: Array.from({ length }, (_, i) => offset + i),
  offset,
  total,
});

describe('item table paging', () => {
  it('asks for one page at an offset, ordered by the server with id last', () => {
    const params = parseCatalogParams(
      new URLSearchParams('configType=Kubernetes::Pod&sortBy=created_at&sortOrder=desc'),
    );
    const query = configsPageQuery(params, true, 400);
    expect(query).toContainEqual(['limit', String(CATALOG_LIMITS.tablePageSize)]);
    expect(query).toContainEqual(['offset', '400']);
    expect(query).toContainEqual(['order', 'created_at.desc,id.asc']);
    expect(query).toContainEqual(['type', 'eq.Kubernetes::Pod']);
    expect(configsPageQuery(params, true, 0, 50)).toContainEqual(['limit', '50']);
  });

  it('selects only the columns the table shows, without per-row embeds', () => {
    const columns = CONFIGS_SELECT.split(',');
    expect(columns).toEqual(expect.arrayContaining(['id', 'name', 'type', 'changes', 'analysis', 'cost_total_30d']));
    expect(CONFIGS_SELECT).not.toContain('(');
    expect(columns).not.toContain('config');
  });

  it('goes on after a full page and stops after a short one', () => {
    expect(nextConfigsOffset([page(0, 200, 1000)], 200)).toBe(200);
    expect(nextConfigsOffset([page(0, 200, 1000), page(200, 200)], 200)).toBe(400);
    expect(nextConfigsOffset([page(0, 200, 1000), page(200, 37)], 200)).toBeUndefined();
    expect(nextConfigsOffset([], 200)).toBeUndefined();
  });

  it('stops at the total counted with the first page, even after a full page', () => {
    expect(nextConfigsOffset([page(0, 200, 400), page(200, 200)], 200)).toBeUndefined();
    // Without a total (no Content-Range) only a short page ends the list.
    expect(nextConfigsOffset([page(0, 200), page(200, 200)], 200)).toBe(400);
  });

  it('joins the loaded pages in order and reports the first page total', () => {
    expect(flattenConfigsPages([page(0, 2, 30_000), page(2, 2)])).toEqual({ rows: [0, 1, 2, 3], total: 30_000 });
    expect(flattenConfigsPages([page(0, 3)])).toEqual({ rows: [0, 1, 2], total: 3 });
    expect(flattenConfigsPages(undefined)).toEqual({ rows: [], total: 0 });
  });
});
