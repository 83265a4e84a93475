import type { Field, OrderTerm } from './ast.js';
import { delimiter, field, fieldName, jsonPath, stringChoice } from './grammar-tokens.js';
import type { Scanner } from './scanner.js';

/*
 * The grammar of PostgREST's query parameters (ApiRequest/QueryParams.hs), written as
 * recursive descent over a Scanner. Each function either returns a value with the cursor
 * after it, or throws ParseFailure; `scanner.attempt` gives Parsec's backtracking `try`.
 */

// The select-list and filter grammars and the shared tokens live in their own modules;
// importers keep reading them from here.
export {
  field,
  fieldName,
  identifier,
  jsonPath,
  MAX_JSON_PATH_DEPTH,
  MAX_NESTING,
  quotedValue,
} from './grammar-tokens.js';
export { selectList } from './select-grammar.js';
export { listValue, logicTree, logicValue, opExpr, restValue, type ValueParser } from './filter-grammar.js';

// `order=`, and the name lists and paths of `columns=`, `on_conflict=` and parameter keys.

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
