import { describe, expect, it } from 'vitest';
import { PgrstError } from '../errors/pgrst-error.js';
import type { Operation } from './ast.js';
import {
  parseFilter,
  parseLogic,
  parseOrder,
  parseQueryParams,
  parseRangeInteger,
  parseSelect,
} from './query-params.js';

function operationOf(value: string): { negated: boolean; operation: Operation } {
  return parseFilter('col', value).filter.expr;
}

function errorOf(run: () => unknown): { code: string; message: string; details: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof PgrstError) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected a parse error');
}

describe('select', () => {
  it('parses columns, aliases, casts and JSON paths', () => {
    expect(parseSelect('id,full:name::text,data->a->>0,data->>"a b"')).toEqual([
      { type: 'field', field: { name: 'id', jsonPath: [] } },
      { type: 'field', field: { name: 'name', jsonPath: [] }, alias: 'full', cast: 'text' },
      {
        type: 'field',
        field: {
          name: 'data',
          jsonPath: [
            { arrow: '->', operand: { kind: 'key', value: 'a' } },
            { arrow: '->>', operand: { kind: 'index', value: 0 } },
          ],
        },
      },
      { type: 'field', field: { name: 'data', jsonPath: [{ arrow: '->>', operand: { kind: 'key', value: 'a b' } }] } },
    ]);
  });

  it('parses embeds with alias, hint, join type, spread and nesting', () => {
    expect(
      parseSelect(
        '*,commander:commander_id(id),canaries!checks_canary_id_fkey!inner(name,agents!left(*)),...team(name)',
      ),
    ).toEqual([
      { type: 'field', field: { name: '*', jsonPath: [] } },
      {
        type: 'relation',
        relation: 'commander_id',
        alias: 'commander',
        children: [{ type: 'field', field: { name: 'id', jsonPath: [] } }],
      },
      {
        type: 'relation',
        relation: 'canaries',
        hint: 'checks_canary_id_fkey',
        joinType: 'inner',
        children: [
          { type: 'field', field: { name: 'name', jsonPath: [] } },
          {
            type: 'relation',
            relation: 'agents',
            joinType: 'left',
            children: [{ type: 'field', field: { name: '*', jsonPath: [] } }],
          },
        ],
      },
      { type: 'spread', relation: 'team', children: [{ type: 'field', field: { name: 'name', jsonPath: [] } }] },
    ]);
  });

  it('accepts names with spaces and dashes, and an empty embed', () => {
    expect(parseSelect('my-col, other col ,rel()')).toEqual([
      { type: 'field', field: { name: 'my-col', jsonPath: [] } },
      { type: 'field', field: { name: 'other col', jsonPath: [] } },
      { type: 'relation', relation: 'rel', children: [] },
    ]);
  });

  it('reports malformed selects like PostgREST', () => {
    expect(errorOf(() => parseSelect('id,clients(name[])'))).toEqual({
      code: 'PGRST100',
      message: '"failed to parse select parameter (id,clients(name[]))" (line 1, column 16)',
      details: `unexpected '[' expecting letter, digit, "-", "->>", "->", "::", ".", ")", "," or end of input`,
    });
    expect(errorOf(() => parseSelect('data->>-78xy')).details).toBe(
      `unexpected 'x' expecting digit, "->", "::", ".", "," or end of input`,
    );
  });
});

describe('filters', () => {
  it.each([
    ['eq.1', { kind: 'quant', op: 'eq', value: '1' }],
    ['neq.1', { kind: 'simple', op: 'neq', value: '1' }],
    ['gt.1', { kind: 'quant', op: 'gt', value: '1' }],
    ['gte.1', { kind: 'quant', op: 'gte', value: '1' }],
    ['lt.1', { kind: 'quant', op: 'lt', value: '1' }],
    ['lte.1', { kind: 'quant', op: 'lte', value: '1' }],
    ['like.*a*', { kind: 'quant', op: 'like', value: '*a*' }],
    ['ilike.*a*', { kind: 'quant', op: 'ilike', value: '*a*' }],
    ['match.^a', { kind: 'quant', op: 'match', value: '^a' }],
    ['imatch.^a', { kind: 'quant', op: 'imatch', value: '^a' }],
    ['cs.{1,2}', { kind: 'simple', op: 'cs', value: '{1,2}' }],
    ['cd.{1,2}', { kind: 'simple', op: 'cd', value: '{1,2}' }],
    ['ov.[1,5)', { kind: 'simple', op: 'ov', value: '[1,5)' }],
    ['sl.(1,2)', { kind: 'simple', op: 'sl', value: '(1,2)' }],
    ['sr.(1,2)', { kind: 'simple', op: 'sr', value: '(1,2)' }],
    ['nxl.(1,2)', { kind: 'simple', op: 'nxl', value: '(1,2)' }],
    ['nxr.(1,2)', { kind: 'simple', op: 'nxr', value: '(1,2)' }],
    ['adj.(1,2)', { kind: 'simple', op: 'adj', value: '(1,2)' }],
    ['isdistinct.x', { kind: 'isdistinct', value: 'x' }],
    ['fts.cat', { kind: 'fts', op: 'fts', value: 'cat' }],
    ['plfts(english).fat cats', { kind: 'fts', op: 'plfts', language: 'english', value: 'fat cats' }],
    ['phfts.a b', { kind: 'fts', op: 'phfts', value: 'a b' }],
    ['wfts(simple)."a" -b', { kind: 'fts', op: 'wfts', language: 'simple', value: '"a" -b' }],
    ['eq(any).{a,b}', { kind: 'quant', op: 'eq', quantifier: 'any', value: '{a,b}' }],
    ['like(all).{a*,*b}', { kind: 'quant', op: 'like', quantifier: 'all', value: '{a*,*b}' }],
    ['is.null', { kind: 'is', value: 'null' }],
    ['is.NOT_NULL', { kind: 'is', value: 'not_null' }],
    ['is.True', { kind: 'is', value: 'true' }],
    ['is.false', { kind: 'is', value: 'false' }],
    ['is.unknown', { kind: 'is', value: 'unknown' }],
    ['in.(1,2)', { kind: 'in', values: ['1', '2'] }],
    ['in.("a,b","c\\"d",e)', { kind: 'in', values: ['a,b', 'c"d', 'e'] }],
    ['in.()', { kind: 'in', values: [''] }],
    ['eq.a.b.c', { kind: 'quant', op: 'eq', value: 'a.b.c' }],
  ] as const)('parses %s', (value, operation) => {
    expect(operationOf(value)).toEqual({ negated: false, operation });
  });

  it('parses not. and embed paths with JSON paths', () => {
    expect(parseFilter('hypotheses.evidences.component_id', 'not.eq.X')).toEqual({
      path: ['hypotheses', 'evidences'],
      filter: {
        field: { name: 'component_id', jsonPath: [] },
        expr: { negated: true, operation: { kind: 'quant', op: 'eq', value: 'X' } },
      },
    });
    expect(parseFilter('labels->>key', 'is.null').filter.field).toEqual({
      name: 'labels',
      jsonPath: [{ arrow: '->>', operand: { kind: 'key', value: 'key' } }],
    });
  });

  it('reports unknown operators and bad values like PostgREST', () => {
    expect(errorOf(() => parseFilter('id', 'noop.0'))).toEqual({
      code: 'PGRST100',
      message: '"failed to parse filter (noop.0)" (line 1, column 1)',
      details: 'unexpected "o" expecting "not" or operator (eq, gt, ...)',
    });
    expect(errorOf(() => parseFilter('id', 'eq().1'))).toMatchObject({
      message: '"failed to parse filter (eq().1)" (line 1, column 4)',
      details: 'unexpected ")" expecting operator (eq, gt, ...)',
    });
    expect(errorOf(() => parseFilter('id', 'in.1,2')).details).toBe('unexpected "1" expecting "("');
    expect(errorOf(() => parseFilter('id', 'is.maybe')).code).toBe('PGRST100');
    expect(errorOf(() => parseFilter('id', '')).message).toBe('"failed to parse filter ()" (line 1, column 1)');
  });
});

describe('logic trees', () => {
  it('parses nested and negated trees with quoted and array values', () => {
    expect(parseLogic('not.or', '(a.eq.1,and(b.in.(1,2),c.not.is.null),d.cs.{x,y},e.eq."p,q")')).toEqual({
      path: [],
      tree: {
        type: 'logic',
        negated: true,
        op: 'or',
        children: [
          {
            type: 'filter',
            filter: {
              field: { name: 'a', jsonPath: [] },
              expr: { negated: false, operation: { kind: 'quant', op: 'eq', value: '1' } },
            },
          },
          {
            type: 'logic',
            negated: false,
            op: 'and',
            children: [
              {
                type: 'filter',
                filter: {
                  field: { name: 'b', jsonPath: [] },
                  expr: { negated: false, operation: { kind: 'in', values: ['1', '2'] } },
                },
              },
              {
                type: 'filter',
                filter: {
                  field: { name: 'c', jsonPath: [] },
                  expr: { negated: true, operation: { kind: 'is', value: 'null' } },
                },
              },
            ],
          },
          {
            type: 'filter',
            filter: {
              field: { name: 'd', jsonPath: [] },
              expr: { negated: false, operation: { kind: 'simple', op: 'cs', value: '{x,y}' } },
            },
          },
          {
            type: 'filter',
            filter: {
              field: { name: 'e', jsonPath: [] },
              expr: { negated: false, operation: { kind: 'quant', op: 'eq', value: 'p,q' } },
            },
          },
        ],
      },
    });
    expect(parseLogic('configs.and', '(a.eq.1)').path).toEqual(['configs']);
  });

  it('reports errors like PostgREST', () => {
    expect(errorOf(() => parseLogic('or', '()')).details).toBe(
      'unexpected ")" expecting field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)',
    );
    expect(errorOf(() => parseLogic('or', '(id.eq.1,not.xor(id.eq.2,id.eq.3))'))).toMatchObject({
      message: '"failed to parse logic tree ((id.eq.1,not.xor(id.eq.2,id.eq.3)))" (line 1, column 16)',
      details: 'unexpected "x" expecting logic operator (and, or)',
    });
  });
});

describe('order', () => {
  it('parses directions, nulls, JSON paths and related orders', () => {
    expect(parseOrder('order', 'a.desc.nullslast,b,data->>k.asc,clients(name).desc.nullsfirst').terms).toEqual([
      { field: { name: 'a', jsonPath: [] }, direction: 'desc', nulls: 'last' },
      { field: { name: 'b', jsonPath: [] } },
      { field: { name: 'data', jsonPath: [{ arrow: '->>', operand: { kind: 'key', value: 'k' } }] }, direction: 'asc' },
      { relation: 'clients', field: { name: 'name', jsonPath: [] }, direction: 'desc', nulls: 'first' },
    ]);
  });

  it.each([
    ['id.ac', 4, 'unexpected "c" expecting "asc", "desc", "nullsfirst" or "nullslast"'],
    ['id.descc', 8, `unexpected 'c' expecting delimiter (.), "," or end of input`],
    ['id.asc.nlsfst', 8, 'unexpected "l" expecting "nullsfirst" or "nullslast"'],
    ['id.nullslasttt', 13, `unexpected 't' expecting "," or end of input`],
  ])('reports %s like PostgREST', (value, column, details) => {
    expect(errorOf(() => parseOrder('order', value))).toEqual({
      code: 'PGRST100',
      message: `"failed to parse order (${value})" (line 1, column ${column})`,
      details,
    });
  });
});

describe('query strings', () => {
  it('classifies parameters as PostgREST does', () => {
    const params = parseQueryParams(
      'select=id,configs(name)&id=eq.1&configs.order=name&configs.limit=5&limit=10&offset=20&order=id.desc&or=(a.eq.1,b.eq.2)&columns=a,b&on_conflict=id&flag',
    );
    expect(params.filters).toHaveLength(1);
    expect(params.order.map((entry) => entry.path)).toEqual([['configs'], []]);
    expect(params.ranges.get('')).toEqual({ offset: 20n, limit: 10n });
    expect(params.ranges.get('configs')).toEqual({ offset: 0n, limit: 5n });
    expect(params.logic).toHaveLength(1);
    expect(params.columns).toEqual(['a', 'b']);
    expect(params.onConflict).toEqual(['id']);
  });

  it('decodes percent escapes and plus signs, and splits on ; like http-types', () => {
    const params = parseQueryParams('name=eq.a+b%2Cc;x=eq.%22q%22');
    expect(params.filters.map((entry) => entry.filter.expr.operation)).toEqual([
      { kind: 'quant', op: 'eq', value: 'a b,c' },
      { kind: 'quant', op: 'eq', value: '"q"' },
    ]);
  });

  it('turns operator-less values into RPC arguments for GET calls', () => {
    const params = parseQueryParams('id=5&name=eq.x&tags=a&tags=b', { isRpcRead: true });
    expect(params.rpcParams).toEqual([
      { name: 'id', value: '5' },
      { name: 'tags', value: 'a' },
      { name: 'tags', value: 'b' },
    ]);
    expect(params.filters).toHaveLength(1);
  });

  it('sorts the canonical query string', () => {
    expect(parseQueryParams('b=eq.2&a=eq.1&select=*').canonical).toBe('a=eq.1&b=eq.2&select=%2A');
  });
});

describe('limit and offset values', () => {
  it('are read as Haskell reads an Integer, as PostgREST does', () => {
    expect(parseRangeInteger('25')).toBe(25n);
    expect(parseRangeInteger(' 7 ')).toBe(7n);
    expect(parseRangeInteger('-3')).toBe(-3n);
    expect(parseRangeInteger('- 3')).toBe(-3n);
    expect(parseRangeInteger('((4))')).toBe(4n);
    expect(parseRangeInteger('(-4)')).toBe(-4n);
    expect(parseRangeInteger('0x1F')).toBe(31n);
    expect(parseRangeInteger('0O17')).toBe(15n);
    expect(parseRangeInteger('007')).toBe(7n);
  });

  it('keep integers beyond 2^53 exactly', () => {
    expect(parseRangeInteger('9007199254740993')).toBe(9007199254740993n);
    expect(parseRangeInteger('99999999999999999999')).toBe(99999999999999999999n);
  });

  it('are nothing when they are no integer', () => {
    for (const value of [
      '',
      'abc',
      '1.5',
      '1e30',
      '1e3',
      '+1',
      '5.',
      '1 2',
      '0x',
      '0b1',
      '-(5)',
      '(5',
      '5)',
      '1_000',
      '٣',
    ]) {
      expect(parseRangeInteger(value), value).toBeUndefined();
    }
  });

  it('are ignored by the query string parser when they are nothing', () => {
    expect(parseQueryParams('limit=abc&offset=1.5').ranges.get('')).toEqual({ offset: 0n });
    expect(parseQueryParams('rel.limit=2&rel.offset=-1').ranges.get('rel')).toEqual({ offset: -1n, limit: 2n });
  });
});
