import { describe, expect, it } from 'vitest';
import {
  CHECK_TABLE,
  CONFIG_TABLE,
  globToLike,
  parseRequirements,
  selectorConditions,
  selectorId,
} from './topology-selector-fns.js';

describe('parseRequirements', () => {
  it('reads equality, inequality and existence', () => {
    expect(parseRequirements('app=db, tier!=gold,team,!legacy', 'labelSelector')).toEqual([
      { key: 'app', op: '=', value: 'db' },
      { key: 'tier', op: '!=', value: 'gold' },
      { key: 'team', op: 'exists' },
      { key: 'legacy', op: '!exists' },
    ]);
  });
  it('names the part it cannot read', () => {
    expect(() => parseRequirements('a=b,=x', 'labelSelector')).toThrow("labelSelector: cannot read '=x'");
  });
});

describe('selectorConditions', () => {
  it('builds parameterised conditions', () => {
    const { sql, params } = selectorConditions(
      { name: 'api-*', types: ['http'], labelSelector: 'app=db' },
      CHECK_TABLE,
      2,
    );
    expect(sql).toBe('k.deleted_at IS NULL AND k.name LIKE $3 AND k.type = ANY($4::text[]) AND k.labels ->> $5 = $6');
    expect(params).toEqual(['api-%', ['http'], 'app', 'db']);
  });
  it('refuses tags on checks and unknown fields', () => {
    expect(() => selectorConditions({ tagSelector: 'a=b' }, CHECK_TABLE)).toThrow('only config items have tags');
    expect(() => selectorConditions({ fieldSelector: 'colour=red' }, CONFIG_TABLE)).toThrow("'colour' is not one of");
  });
  it('reads config namespaces from tags and includes deleted rows on request', () => {
    const { sql } = selectorConditions({ namespace: 'prod', includeDeleted: true, class: 'Database' }, CONFIG_TABLE);
    expect(sql).toBe("ci.tags ->> 'namespace' = $1 AND ci.config_class = $2");
  });
});

describe('globToLike and selectorId', () => {
  it('escapes LIKE characters and keeps ids stable', () => {
    expect(globToLike('a_b%*')).toBe('a\\_b\\%%');
    expect(selectorId({ name: 'a', types: ['x'] })).toBe(selectorId({ types: ['x'], name: 'a' }));
    expect(selectorId({ name: 'a' })).not.toBe(selectorId({ name: 'b' }));
  });
});
