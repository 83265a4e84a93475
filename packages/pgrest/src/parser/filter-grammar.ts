import type { FtsOperator, IsValue, LogicTree, OpExpr, Operation, QuantOperator, SimpleOperator } from './ast.js';
import { delimiter, field, identifier, MAX_NESTING, quotedValue, stringChoice } from './grammar-tokens.js';
import type { Scanner } from './scanner.js';

// The grammar of filters: `[not.]operator.value`, `in.(...)` lists and `or=`/`and=` trees.

const OPERATOR_LABEL = 'operator (eq, gt, ...)';

const SIMPLE_OPERATORS: SimpleOperator[] = ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'];
const QUANT_OPERATORS: QuantOperator[] = ['eq', 'gte', 'gt', 'lte', 'lt', 'like', 'ilike', 'match', 'imatch'];
const FTS_OPERATORS: FtsOperator[] = ['fts', 'plfts', 'phfts', 'wfts'];
const IS_VALUES: IsValue[] = ['null', 'not_null', 'true', 'false', 'unknown'];

/** How many leading characters of `word` the input matches, ignoring case. */
function ciPrefixLength(s: Scanner, word: string): number {
  let length = 0;
  while (length < word.length && s.input[s.pos + length]?.toLowerCase() === word[length]) length += 1;
  return length;
}

function ciMatch(s: Scanner, word: string): boolean {
  const found = s.input.slice(s.pos, s.pos + word.length);
  return found.length === word.length && found.toLowerCase() === word;
}

/** `(a,"b,c")` as in `in.(...)`. */
export function listValue(s: Scanner): string[] {
  s.skipWs();
  if (!s.tryString('(')) s.fail();
  s.skipWs();
  const values: string[] = [];
  for (;;) {
    const quoted = s.attempt(() => {
      const value = quotedValue(s);
      const next = s.peek();
      if (next !== undefined && next !== ',' && next !== ')') s.fail();
      return value;
    });
    if (quoted !== undefined) values.push(quoted);
    else {
      const start = s.pos;
      while (s.peek() !== undefined && s.peek() !== ',' && s.peek() !== ')') s.pos += 1;
      values.push(s.input.slice(start, s.pos));
    }
    if (s.peek() === ',') {
      s.pos += 1;
      continue;
    }
    // `sepBy1 … (char ',') <* lexeme (char ')')`: another item was expected before the end.
    s.expect('","');
    s.skipWs();
    if (!s.tryString(')')) s.fail();
    s.skipWs();
    return values;
  }
}

/** A value parser for the right-hand side of an operator. */
export type ValueParser = (s: Scanner) => string;

/** The rest of the input (plain filters). */
export const restValue: ValueParser = (s) => {
  const value = s.input.slice(s.pos);
  s.pos = s.input.length;
  return value;
};

/** A value inside `or=(...)`: quoted, a `{...}` array literal, or up to `,`/`)`. */
export const logicValue: ValueParser = (s) => {
  const quoted = s.attempt(() => {
    const value = quotedValue(s);
    const next = s.peek();
    if (next !== undefined && next !== ',' && next !== ')') s.fail();
    return value;
  });
  if (quoted !== undefined) return quoted;
  if (s.peek() === '{') {
    const close = s.input.indexOf('}', s.pos + 1);
    const open = s.input.indexOf('{', s.pos + 1);
    if (close !== -1 && (open === -1 || open > close)) {
      const value = s.input.slice(s.pos, close + 1);
      s.pos = close + 1;
      return value;
    }
  }
  const start = s.pos;
  while (s.peek() !== undefined && s.peek() !== ',' && s.peek() !== ')') s.pos += 1;
  return s.input.slice(start, s.pos);
};

function operation(s: Scanner, value: ValueParser): Operation {
  const inList = s.attempt(() => {
    if (!s.tryString('in')) s.fail();
    delimiter(s);
    return true;
  });
  if (inList) return { kind: 'in', values: listValue(s) };
  const isValue = s.attempt(() => {
    if (!s.tryString('is')) s.fail();
    delimiter(s);
    return true;
  });
  if (isValue) {
    const found = IS_VALUES.find((candidate) => ciMatch(s, candidate));
    if (!found) {
      // Each keyword is tried in turn; Parsec reports where the longest partial match broke.
      const furthest = Math.max(...IS_VALUES.map((candidate) => s.pos + ciPrefixLength(s, candidate)));
      s.failAt(furthest, 'isVal: (null, not_null, true, false, unknown)');
    }
    s.pos += found.length;
    return { kind: 'is', value: found };
  }
  const distinct = s.attempt(() => {
    if (!s.tryString('isdistinct')) s.fail();
    delimiter(s);
    return true;
  });
  if (distinct) return { kind: 'isdistinct', value: value(s) };
  const fts = s.attempt((): Operation => {
    const op = stringChoice(s, FTS_OPERATORS);
    if (!op) s.fail();
    const language = s.attempt(() => {
      if (!s.tryString('(')) s.fail();
      const lang = identifier(s);
      if (!s.tryString(')')) s.fail();
      return lang;
    });
    delimiter(s);
    return { kind: 'fts', op, ...(language !== undefined ? { language } : {}), value: value(s) };
  });
  if (fts) return fts;
  const simple = s.attempt((): Operation => {
    const op = stringChoice(s, SIMPLE_OPERATORS);
    if (!op) s.fail();
    delimiter(s);
    return { kind: 'simple', op, value: value(s) };
  });
  if (simple) return simple;
  const quant = s.attempt((): Operation => {
    const op = stringChoice(s, QUANT_OPERATORS);
    if (!op) s.fail();
    const quantifier = s.attempt(() => {
      if (!s.tryString('(')) s.fail();
      const found = stringChoice(s, ['any', 'all'] as const);
      if (!found) s.fail();
      if (!s.tryString(')')) s.fail();
      return found;
    });
    delimiter(s);
    return { kind: 'quant', op, ...(quantifier ? { quantifier } : {}), value: value(s) };
  });
  if (quant) return quant;
  return s.fail();
}

/** `[not.]operator.value`. */
export function opExpr(s: Scanner, value: ValueParser): OpExpr {
  const negated =
    s.attempt(() => {
      if (!s.tryString('not')) s.fail();
      delimiter(s);
      return true;
    }) ?? false;
  return { negated, operation: s.labelled(OPERATOR_LABEL, () => operation(s, value)) };
}

/** One `or=(...)`/`and=(...)` tree, given as `or(...)` or `not.and(...)`. */
export function logicTree(s: Scanner, depth = 0): LogicTree {
  if (depth > MAX_NESTING) s.failMessage('logic tree nesting is too deep');
  const before = s.snapshot();
  const statement = s.attempt((): LogicTree => {
    const fld = field(s);
    delimiter(s);
    return { type: 'filter', filter: { field: fld, expr: opExpr(s, logicValue) } };
  });
  if (statement) return statement;
  let negated = false;
  if (s.startsWith('not.')) {
    // The expression alternative consumes input, superseding the statement's errors.
    s.restore(before);
    negated = true;
    s.pos += 4;
  } else s.expect('negation operator (not)');
  const op = s.labelled('logic operator (and, or)', () => stringChoice(s, ['and', 'or'] as const) ?? s.fail());
  s.skipWs();
  if (!s.tryString('(')) s.fail();
  s.skipWs();
  const children: LogicTree[] = [logicTree(s, depth + 1)];
  for (;;) {
    s.skipWs();
    if (s.peek() === ',') {
      s.pos += 1;
      s.skipWs();
      children.push(logicTree(s, depth + 1));
      continue;
    }
    // `sepBy1 … (lexeme (char ',')) <* lexeme (char ')')`: `,` was expected before `)`.
    s.expect('","');
    if (!s.tryString(')')) s.fail();
    s.skipWs();
    return { type: 'logic', negated, op, children };
  }
}
