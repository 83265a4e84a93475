import type { AggregateFunction, JoinType, SelectItem } from './ast.js';
import { field, fieldName, identifier, isIdentifierChar, MAX_NESTING } from './grammar-tokens.js';
import type { Scanner } from './scanner.js';

// The grammar of `select=`: fields with aliases, casts and aggregates, embeds and spreads.

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
