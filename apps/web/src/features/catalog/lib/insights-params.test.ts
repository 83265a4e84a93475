import { CATALOG_INSIGHTS_PARAMS } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import {
  applyInsightsParams,
  componentInsightsPage,
  cutMessage,
  insightsQuery,
  parseInsightsParams,
  type ComponentInsightRow,
} from './insights-params';

describe('insights params', () => {
  it('reads the defaults: 50 a page from page 0, first observed newest first', () => {
    expect(parseInsightsParams(new URLSearchParams())).toMatchObject({
      pageSize: 50,
      pageIndex: 0,
      sortBy: 'first_observed',
      sortOrder: 'desc',
      status: '',
    });
  });

  it('reads every parameter the spec lists and writes the query of config_analysis_items', () => {
    const search = new URLSearchParams({
      status: 'open',
      severity: 'High',
      type: 'security',
      configType: 'Kubernetes::Pod',
      analyzer: 'privileged',
      component: '',
      pageSize: '25',
      pageIndex: '2',
      sortBy: 'analyzer',
      sortOrder: 'asc',
    });
    expect([...search.keys()]).toEqual([...CATALOG_INSIGHTS_PARAMS]);
    const query = new URLSearchParams(insightsQuery(parseInsightsParams(search), 'cfg'));
    expect(query.get('select')).toContain('config:configs(id,name,config_class,type)');
    expect(query.get('limit')).toBe('25');
    expect(query.get('offset')).toBe('50');
    expect(query.get('status')).toBe('eq.open');
    expect(query.get('analysis_type')).toBe('eq.security');
    expect(query.get('severity')).toBe('eq.high');
    expect(query.get('analyzer')).toBe('eq.privileged');
    expect(query.get('config_id')).toBe('eq.cfg');
    expect(query.get('config_type')).toBe('eq.Kubernetes::Pod');
    expect(query.get('order')).toBe('analyzer.asc,id.asc');
  });

  it('falls back on malformed values and goes back to page 0 on a filter change', () => {
    expect(parseInsightsParams(new URLSearchParams('pageSize=3&pageIndex=-1&sortBy=x'))).toMatchObject({
      pageSize: 50,
      pageIndex: 0,
      sortBy: 'first_observed',
    });
    const next = applyInsightsParams(new URLSearchParams('pageIndex=3'), { severity: 'high' });
    expect(next.toString()).toBe('severity=high');
    expect(applyInsightsParams(next, { pageIndex: 1, pageSize: 50 }).toString()).toBe('severity=high&pageIndex=1');
  });

  it("filters, sorts and pages a component's insights in the browser", () => {
    const row = (id: string, severity: string, first: string): ComponentInsightRow => ({
      id,
      analysis_type: 'security',
      analyzer: 'a',
      severity,
      status: 'open',
      message: null,
      first_observed: first,
      last_observed: first,
      config_id: 'c1',
      config_name: 'pod',
      config_type: 'Kubernetes::Pod',
      config_class: 'Kubernetes',
    });
    const rows = [row('1', 'high', '2026-01-01'), row('2', 'low', '2026-01-03'), row('3', 'high', '2026-01-02')];
    const params = { ...parseInsightsParams(new URLSearchParams('severity=High')), pageSize: 1 };
    const page = componentInsightsPage(rows, params);
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => r.id)).toEqual(['3']);
    expect(page.rows[0]!.config).toEqual({
      id: 'c1',
      name: 'pod',
      type: 'Kubernetes::Pod',
      config_class: 'Kubernetes',
    });
  });

  it('cuts messages at 500 characters', () => {
    expect(cutMessage('x'.repeat(500))).toHaveLength(500);
    expect(cutMessage('x'.repeat(501))).toBe(`${'x'.repeat(500)}…`);
    expect(cutMessage(null)).toBe('');
  });
});
