import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PgrstError } from '../errors/pgrst-error.js';
import type { Field, JsonOperation, LogicTree, OpExpr, Operation, OrderTerm, SelectItem } from './ast.js';
import { printField, printLogicTree, printOpExpr, printOrder, printSelect } from './printer.js';
import { parseFilter, parseLogic, parseOrder, parseQueryParams, parseSelect } from './query-params.js';

/*
 * Property tests: whatever the input, the parser answers an AST or a PgrstError (never
 * another exception), and printing a valid AST then parsing it gives the same AST back.
 */

const RUNS = 1500;
/** Tree-shaped inputs are costlier to generate; fewer runs keep the suite fast. */
const TREE_RUNS = 500;
const GRAMMAR_CHARS = [
  '(',
  ')',
  ',',
  '.',
  ':',
  '!',
  '"',
  '\\',
  '*',
  '-',
  '>',
  '{',
  '}',
  '&',
  '=',
  '%',
  '+',
  ';',
  ' ',
  'a',
  'b',
  'x',
  '0',
  '1',
  'é',
];
const grammarish = fc
  .array(
    fc.constantFrom(
      ...GRAMMAR_CHARS,
      'eq.',
      'not.',
      'in.(',
      'or(',
      'and(',
      '->>',
      '::',
      '...',
      '!inner',
      'is.null',
      'select=',
      'order=',
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));
const anyText = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 40 }), grammarish);

function expectParsedOrPgrstError(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PgrstError);
    expect((error as PgrstError).status).toBe(400);
  }
}

describe('the parser never throws anything but PgrstError', () => {
  it('for arbitrary query strings', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (query, isRpcRead) => {
        expectParsedOrPgrstError(() => parseQueryParams(query, { isRpcRead }));
      }),
      { numRuns: RUNS },
    );
  });

  it('for arbitrary parameter values of every kind', () => {
    fc.assert(
      fc.property(anyText, anyText, (key, value) => {
        expectParsedOrPgrstError(() => parseSelect(value));
        expectParsedOrPgrstError(() => parseFilter(key, value));
        expectParsedOrPgrstError(() => parseOrder(key, value));
        expectParsedOrPgrstError(() => parseLogic(key.includes('.') ? key : 'or', value));
        expectParsedOrPgrstError(() =>
          parseQueryParams(
            `select=${encodeURIComponent(value)}&${encodeURIComponent(key)}=${encodeURIComponent(value)}&or=${encodeURIComponent(value)}`,
          ),
        );
      }),
      { numRuns: 800 },
    );
  });
});

const RESERVED = new Set([
  'not',
  'and',
  'or',
  'in',
  'is',
  'count',
  'select',
  'order',
  'limit',
  'offset',
  'columns',
  'on_conflict',
]);
const plainName = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}(-[a-z0-9]{1,3})?$/).filter((name) => !RESERVED.has(name));
const quotedName = fc.string({ minLength: 1, maxLength: 8 }).filter((name) => !name.includes('\u0000') && name !== '*');
const name = fc.oneof({ weight: 4, arbitrary: plainName }, { weight: 1, arbitrary: quotedName });

const jsonOperation: fc.Arbitrary<JsonOperation> = fc.record({
  arrow: fc.constantFrom('->' as const, '->>' as const),
  operand: fc.oneof(
    fc.record({ kind: fc.constant('key' as const), value: name }),
    fc.record({ kind: fc.constant('index' as const), value: fc.integer({ min: -5, max: 50 }) }),
  ),
});

const field: fc.Arbitrary<Field> = fc.record({ name, jsonPath: fc.array(jsonOperation, { maxLength: 3 }) });
/** In a select, an index cannot end a field before `)`, so end paths with a key there. */
const selectField: fc.Arbitrary<Field> = field.map((f) => {
  const last = f.jsonPath[f.jsonPath.length - 1];
  if (last?.operand.kind === 'index')
    return { ...f, jsonPath: [...f.jsonPath, { arrow: '->', operand: { kind: 'key', value: 'k' } }] };
  return f;
});

const selectItems: fc.Arbitrary<SelectItem[]> = fc
  .letrec<{ items: SelectItem[]; item: SelectItem }>((tie) => ({
    items: fc.array(tie('item'), { maxLength: 4 }),
    item: fc.oneof(
      { depthSize: 'xsmall', withCrossShrink: true },
      fc.record(
        {
          type: fc.constant('field' as const),
          field: selectField,
          alias: name,
          cast: fc.stringMatching(/^[a-z]{1,8}$/),
        },
        { requiredKeys: ['type', 'field'] },
      ),
      fc.record(
        {
          type: fc.constant('relation' as const),
          relation: name,
          alias: name,
          hint: name,
          joinType: fc.constantFrom('inner' as const, 'left' as const),
          children: tie('items'),
        },
        { requiredKeys: ['type', 'relation', 'children'] },
      ),
      fc.record(
        {
          type: fc.constant('spread' as const),
          relation: name,
          hint: name,
          joinType: fc.constantFrom('inner' as const, 'left' as const),
          children: tie('items'),
        },
        { requiredKeys: ['type', 'relation', 'children'] },
      ),
    ),
  }))
  .items.filter((items) => items.length > 0);

const value = fc.string({ maxLength: 12 }).filter((text) => !text.includes('\u0000'));
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('simple' as const),
    op: fc.constantFrom('neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj' as const),
    value,
  }),
  fc.record(
    {
      kind: fc.constant('quant' as const),
      op: fc.constantFrom('eq', 'gte', 'gt', 'lte', 'lt', 'like', 'ilike', 'match', 'imatch' as const),
      quantifier: fc.constantFrom('any' as const, 'all' as const),
      value,
    },
    { requiredKeys: ['kind', 'op', 'value'] },
  ),
  fc.record({ kind: fc.constant('in' as const), values: fc.array(value, { minLength: 1, maxLength: 4 }) }),
  fc.record({
    kind: fc.constant('is' as const),
    value: fc.constantFrom('null', 'not_null', 'true', 'false', 'unknown' as const),
  }),
  fc.record({ kind: fc.constant('isdistinct' as const), value }),
  fc.record(
    {
      kind: fc.constant('fts' as const),
      op: fc.constantFrom('fts', 'plfts', 'phfts', 'wfts' as const),
      language: fc.stringMatching(/^[a-z]{1,8}$/),
      value,
    },
    { requiredKeys: ['kind', 'op', 'value'] },
  ),
) as fc.Arbitrary<Operation>;
const opExpr: fc.Arbitrary<OpExpr> = fc.record({ negated: fc.boolean(), operation });

const logicTree: fc.Arbitrary<LogicTree> = fc.letrec<{ tree: LogicTree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small' },
    fc.record({ type: fc.constant('filter' as const), filter: fc.record({ field, expr: opExpr }) }),
    fc.record({
      type: fc.constant('logic' as const),
      negated: fc.boolean(),
      op: fc.constantFrom('and' as const, 'or' as const),
      children: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }),
    }),
  ),
})).tree;

const orderTerms: fc.Arbitrary<OrderTerm[]> = fc.array(
  fc.record(
    {
      relation: name,
      field: selectField,
      direction: fc.constantFrom('asc' as const, 'desc' as const),
      nulls: fc.constantFrom('first' as const, 'last' as const),
    },
    { requiredKeys: ['field'] },
  ),
  { minLength: 1, maxLength: 3 },
);

describe('printing then parsing gives the AST back', () => {
  it('for select trees', () => {
    fc.assert(
      fc.property(selectItems, (items) => {
        expect(parseSelect(printSelect(items))).toEqual(items);
      }),
      { numRuns: TREE_RUNS },
    );
  });

  it('for filters', () => {
    fc.assert(
      fc.property(field, opExpr, (fld, expr) => {
        expect(parseFilter(printField(fld), printOpExpr(expr))).toEqual({ path: [], filter: { field: fld, expr } });
      }),
      { numRuns: RUNS },
    );
  });

  it('for logic trees', () => {
    const rootTree = logicTree.filter((tree) => tree.type === 'logic');
    fc.assert(
      fc.property(rootTree, (tree) => {
        if (tree.type !== 'logic') return;
        const printed = printLogicTree(tree);
        const key = tree.negated ? `not.${tree.op}` : tree.op;
        expect(parseLogic(key, printed.slice(printed.indexOf('('))).tree).toEqual(tree);
      }),
      { numRuns: TREE_RUNS },
    );
  });

  it('for order terms', () => {
    fc.assert(
      fc.property(orderTerms, (terms) => {
        expect(parseOrder('order', printOrder(terms)).terms).toEqual(terms);
      }),
      { numRuns: RUNS },
    );
  });
});
