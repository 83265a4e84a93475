import type {
  AggregateFunction,
  Field,
  FtsOperator,
  IsValue,
  JoinType,
  JsonOperation,
  LogicTree,
  OpExpr,
  Operation,
  OrderTerm,
  QuantOperator,
  SelectItem,
  SimpleOperator,
} from './ast.js';
import { ParseLimitExceeded, type Scanner } from './scanner.js';

/*
 * The grammar of PostgREST's query parameters (ApiRequest/QueryParams.hs), written as
 * recursive descent over a Scanner. Each function either returns a value with the cursor
 * after it, or throws ParseFailure; `scanner.attempt` gives Parsec's backtracking `try`.
 */

const FIELD_NAME_LABEL = 'field name (* or [a..z0..9_$])';
const OPERATOR_LABEL = 'operator (eq, gt, ...)';

/** Why a value too deep to parse is refused: nesting is bounded to keep the stack safe. */
export const MAX_NESTING = 24;

/**
 * The most `->`/`->>` steps of one JSON path. Each step is one operator expression nested in
 * the previous one, and PostgreSQL plans those recursively: thousands of steps end in its
 * "stack depth limit exceeded". Real documents are rarely a dozen levels deep.
 */
export const MAX_JSON_PATH_DEPTH = 64;

const IDENTIFIER_CHAR = /^[\p{L}0-9_ $]$/u;

function isIdentifierChar(char: string | undefined): boolean {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  // ASCII fast path; other characters are identifier characters when they are letters.
  if (code < 128) {
    return (
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      (code >= 48 && code <= 57) ||
      char === '_' ||
      char === ' ' ||
      char === '$'
    );
  }
  return IDENTIFIER_CHAR.test(char);
}

/** `"quoted value"` with backslash escapes. */
export function quotedValue(s: Scanner): string {
  if (s.peek() !== '"') s.fail('"\\""');
  s.pos += 1;
  let out = '';
  for (;;) {
    const char = s.peek();
    if (char === undefined) s.fail('"\\""');
    if (char === '"') {
      s.pos += 1;
      return out;
    }
    if (char === '\\') {
      const next = s.peek(1);
      if (next === undefined) {
        s.pos += 1;
        s.fail('any character');
      }
      out += next;
      s.pos += 2;
    } else {
      out += char;
      s.pos += 1;
    }
  }
}

/** Letters, digits, `_`, space and `$`, trimmed (PostgREST's `pIdentifier`). */
export function identifier(s: Scanner): string {
  const start = s.pos;
  while (isIdentifierChar(s.peek())) s.pos += 1;
  s.expect('letter');
  s.expect('digit');
  if (s.pos === start) s.fail();
  return s.input.slice(start, s.pos).trim();
}

/** Parts separated by dashes that do not start an arrow (`my-col`, but not `col->x`). */
function sepByDash(s: Scanner, part: (s: Scanner) => string): string {
  const parts = [part(s)];
  for (;;) {
    if (s.peek() === '-' && s.peek(1) !== '>') {
      s.pos += 1;
      parts.push(part(s));
      continue;
    }
    s.expect('"-"');
    return parts.join('-');
  }
}

/** A column or relation name: quoted, or identifier characters with dashes. */
export function fieldName(s: Scanner): string {
  if (s.peek() === '"') return quotedValue(s);
  if (!isIdentifierChar(s.peek())) s.fail(FIELD_NAME_LABEL);
  return sepByDash(s, identifier);
}

function jsonKeyIdentifier(s: Scanner): string {
  const start = s.pos;
  while (s.peek() !== undefined && !'(-:.,>)'.includes(s.peek() ?? '')) s.pos += 1;
  if (s.pos === start) s.fail('any non reserved character different from: .,>()');
  return s.input.slice(start, s.pos).trim();
}

function jsonKeyName(s: Scanner): string {
  if (s.peek() === '"') return quotedValue(s);
  return sepByDash(s, jsonKeyIdentifier);
}

function jsonIndexEnd(s: Scanner): boolean {
  return s.atEnd() || s.startsWith('->') || s.startsWith('::') || s.startsWith('.') || s.startsWith(',');
}

/** `->key`, `->>key`, `->0`, repeated. */
export function jsonPath(s: Scanner): JsonOperation[] {
  const path: JsonOperation[] = [];
  const start = s.pos;
  for (;;) {
    let arrow: '->' | '->>';
    if (s.startsWith('->>')) arrow = '->>';
    else if (s.startsWith('->')) arrow = '->';
    else {
      s.tryString('->>');
      s.tryString('->');
      return path;
    }
    if (path.length === MAX_JSON_PATH_DEPTH) {
      throw new ParseLimitExceeded(
        start,
        `a JSON path deeper than ${MAX_JSON_PATH_DEPTH} -> or ->> steps`,
        `Use at most ${MAX_JSON_PATH_DEPTH} steps: select a shallower path and read the deeper values from the JSON it returns.`,
      );
    }
    s.pos += arrow.length;
    const index = s.attempt(() => {
      const start = s.pos;
      // Parsec's `option '+' (char '-')`: an absent sign is still something it expected.
      s.tryString('-');
      const digitsStart = s.pos;
      while (/[0-9]/.test(s.peek() ?? '')) s.pos += 1;
      if (s.pos === digitsStart) s.fail('digit');
      if (!jsonIndexEnd(s)) {
        s.expect('digit');
        s.tryString('->');
        s.tryString('::');
        s.tryString('.');
        s.tryString(',');
        s.expectEnd();
        s.fail();
      }
      return Number(s.input.slice(start, s.pos));
    });
    if (index !== undefined) {
      path.push({ arrow, operand: { kind: 'index', value: index } });
      continue;
    }
    const key = jsonKeyName(s);
    path.push({ arrow, operand: { kind: 'key', value: key } });
  }
}

/** A field name followed by an optional JSON path, surrounded by optional blanks. */
export function field(s: Scanner): Field {
  s.skipWs();
  const name = fieldName(s);
  const path = jsonPath(s);
  s.skipWs();
  return { name, jsonPath: path };
}

/** `alias:` (a single colon, so `::cast` is not mistaken for it). */
function optionalAlias(s: Scanner): string | undefined {
  // What follows an absent alias consumes the same name, so this attempt's expectations
  // are superseded, as with Parsec's `try` followed by a consuming parser.
  const before = s.snapshot();
  const alias = s.attempt(() => {
    const name = fieldName(s);
    if (s.peek() !== ':' || s.peek(1) === ':') s.fail('":"');
    s.pos += 1;
    return name;
  });
  if (alias === undefined) s.restore(before);
  return alias;
}

/**
 * PostgREST's `pEnd`: lookahead for `)`, `,` or the end. The lookaheads tried before the
 * one that matched stay expected at this position, so a failure right after (an unclosed
 * parenthesis at the end of input) lists them, as Parsec does.
 */
function selectEnd(s: Scanner): void {
  if (s.peek() === ')') return;
  s.tryString(')');
  if (s.peek() === ',') return;
  s.tryString(',');
  s.expectEnd();
  if (!s.atEnd()) s.fail();
}

/**
 * PostgREST's `pAggregation`, after the `.`: `choice [string "sum", string "avg",
 * string "count", try (string "max"), try (string "min")]`. A partial match of one of the
 * first three consumes input, so the choice stops there, as in Parsec.
 */
function aggregateName(s: Scanner): AggregateFunction {
  for (const name of ['sum', 'avg', 'count'] as const) {
    if (s.tryString(name)) return name;
    if (s.peek() === name[0]) s.fail();
  }
  for (const name of ['max', 'min'] as const) {
    if (s.tryString(name)) return name;
  }
  return s.fail();
}

function fieldSelect(s: Scanner): SelectItem {
  s.skipWs();
  const star = s.attempt(() => {
    if (!s.tryString('*')) s.fail();
    s.skipWs();
    selectEnd(s);
    return true;
  });
  if (star) return { type: 'field', field: { name: '*', jsonPath: [] } };
  const countAll = s.attempt((): SelectItem => {
    const alias = optionalAlias(s);
    if (!s.tryString('count()')) s.fail();
    const aggregateCast = s.startsWith('::') ? ((s.pos += 2), identifier(s)) : undefined;
    s.skipWs();
    selectEnd(s);
    return {
      type: 'field',
      field: { name: '*', jsonPath: [] },
      aggregate: 'count',
      ...(aggregateCast !== undefined ? { aggregateCast } : {}),
      ...(alias !== undefined ? { alias } : {}),
    };
  });
  if (countAll) return countAll;
  const alias = optionalAlias(s);
  const fld = field(s);
  let cast: string | undefined;
  if (s.tryString('::')) cast = identifier(s);
  const aggregate = s.attempt(() => {
    if (!s.tryString('.')) s.fail();
    const found = aggregateName(s);
    if (!s.tryString('()')) s.fail();
    return found;
  });
  let aggregateCast: string | undefined;
  if (aggregate !== undefined && s.startsWith('::')) {
    s.pos += 2;
    aggregateCast = identifier(s);
  }
  s.skipWs();
  selectEnd(s);
  return {
    type: 'field',
    field: fld,
    ...(alias !== undefined ? { alias } : {}),
    ...(cast !== undefined ? { cast } : {}),
    ...(aggregate !== undefined ? { aggregate } : {}),
    ...(aggregateCast !== undefined ? { aggregateCast } : {}),
  };
}

function embedParams(s: Scanner): { hint?: string; joinType?: JoinType } {
  let hint: string | undefined;
  let joinType: JoinType | undefined;
  for (let count = 0; count < 2 && s.peek() === '!'; count += 1) {
    s.pos += 1;
    if (s.startsWith('left') && !isIdentifierChar(s.peek(4))) {
      s.pos += 4;
      joinType ??= 'left';
    } else if (s.startsWith('inner') && !isIdentifierChar(s.peek(5))) {
      s.pos += 5;
      joinType ??= 'inner';
    } else {
      const name = fieldName(s);
      hint ??= name;
    }
  }
  return { ...(hint !== undefined ? { hint } : {}), ...(joinType !== undefined ? { joinType } : {}) };
}

function children(s: Scanner, depth: number): SelectItem[] {
  if (s.peek() !== '(') s.fail('"("');
  s.pos += 1;
  const items = selectList(s, depth + 1);
  if (s.peek() !== ')') {
    s.expect('","');
    s.fail('")"');
  }
  s.pos += 1;
  s.skipWs();
  return items;
}

function selectItem(s: Scanner, depth: number): SelectItem {
  if (depth > MAX_NESTING) s.failMessage('select nesting is too deep');
  const before = s.snapshot();
  const spread = s.attempt(() => {
    s.skipWs();
    if (!s.tryString('...')) s.fail();
    const relation = fieldName(s);
    const params = embedParams(s);
    if (s.peek() !== '(') s.fail('"("');
    return { relation, ...params };
  });
  if (spread) return { type: 'spread', ...spread, children: children(s, depth) };
  const relation = s.attempt(() => {
    s.skipWs();
    const alias = optionalAlias(s);
    const name = fieldName(s);
    if (name === 'count') s.fail();
    const params = embedParams(s);
    if (s.peek() !== '(') s.fail('"("');
    return { relation: name, ...(alias !== undefined ? { alias } : {}), ...params };
  });
  if (relation) return { type: 'relation', ...relation, children: children(s, depth) };
  // A field consuming the name supersedes what the embed alternatives expected after it;
  // a field failing at the very start keeps their expectations (`"..."`, field name).
  const alternatives = s.snapshot();
  s.restore(before);
  const start = s.pos;
  try {
    return fieldSelect(s);
  } catch (error) {
    if (s.pos === start) s.merge(alternatives);
    throw error;
  }
}

/** Comma-separated select items (possibly none). */
export function selectList(s: Scanner, depth = 0): SelectItem[] {
  const items: SelectItem[] = [];
  const start = s.pos;
  try {
    items.push(selectItem(s, depth));
  } catch (error) {
    // Parsec's sepBy: a first item failing without consuming means an empty list.
    if (s.pos === start) {
      s.pos = start;
      return items;
    }
    throw error;
  }
  for (;;) {
    s.skipWs();
    if (s.peek() !== ',') return items;
    s.pos += 1;
    s.skipWs();
    items.push(selectItem(s, depth));
  }
}

const SIMPLE_OPERATORS: SimpleOperator[] = ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'];
const QUANT_OPERATORS: QuantOperator[] = ['eq', 'gte', 'gt', 'lte', 'lt', 'like', 'ilike', 'match', 'imatch'];
const FTS_OPERATORS: FtsOperator[] = ['fts', 'plfts', 'phfts', 'wfts'];
const IS_VALUES: IsValue[] = ['null', 'not_null', 'true', 'false', 'unknown'];

function delimiter(s: Scanner): void {
  if (s.peek() !== '.') s.fail('delimiter (.)');
  s.pos += 1;
}

function stringChoice<T extends string>(s: Scanner, options: readonly T[]): T | undefined {
  for (const option of options) {
    if (s.tryString(option)) return option;
  }
  return undefined;
}

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

function orderEnd(s: Scanner): void {
  if (s.atEnd() || s.peek() === ',') return;
  s.tryString(',');
  s.expectEnd();
  s.fail();
}

function orderModifiers(s: Scanner): Pick<OrderTerm, 'direction' | 'nulls'> {
  const direction = s.attempt(() => {
    delimiter(s);
    return stringChoice(s, ['asc', 'desc'] as const) ?? s.fail();
  });
  const nulls = s.attempt(() => {
    delimiter(s);
    const found = stringChoice(s, ['nullsfirst', 'nullslast'] as const) ?? s.fail();
    return found === 'nullsfirst' ? ('first' as const) : ('last' as const);
  });
  orderEnd(s);
  return { ...(direction ? { direction } : {}), ...(nulls ? { nulls } : {}) };
}

/** `order=a.desc.nullslast,rel(col).asc`. */
export function orderTerms(s: Scanner): OrderTerm[] {
  const terms: OrderTerm[] = [];
  for (;;) {
    s.skipWs();
    const before = s.snapshot();
    const related = s.attempt((): OrderTerm => {
      const relation = fieldName(s);
      if (!s.tryString('(')) s.fail();
      const fld = field(s);
      if (!s.tryString(')')) s.fail();
      return { relation, field: fld, ...orderModifiers(s) };
    });
    if (related) terms.push(related);
    else {
      s.restore(before);
      const fld = field(s);
      terms.push({ field: fld, ...orderModifiers(s) });
    }
    s.skipWs();
    if (s.peek() !== ',') return terms;
    s.pos += 1;
  }
}

/** `a,b,"c d"` as in `columns=` and `on_conflict=`. */
export function columnList(s: Scanner): string[] {
  const names: string[] = [];
  for (;;) {
    s.skipWs();
    names.push(fieldName(s));
    s.skipWs();
    if (s.peek() !== ',') return names;
    s.pos += 1;
  }
}

/** A parameter key: embed path, field and JSON path (`hypotheses.evidences.component_id`). */
export function treePath(s: Scanner): { path: string[]; field: Field } {
  const names = [fieldName(s)];
  while (s.peek() === '.') {
    s.pos += 1;
    names.push(fieldName(s));
  }
  const path = jsonPath(s);
  const last = names.pop() ?? '';
  return { path: names, field: { name: last, jsonPath: path } };
}
