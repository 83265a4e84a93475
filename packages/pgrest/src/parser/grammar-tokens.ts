import type { Field, JsonOperation } from './ast.js';
import { ParseLimitExceeded, type Scanner } from './scanner.js';

// The tokens the select, filter and order grammars share: identifiers, quoted values, field
// names with their JSON paths, and the `.` between an operator and its value.

const FIELD_NAME_LABEL = 'field name (* or [a..z0..9_$])';

/** Why a value too deep to parse is refused: nesting is bounded to keep the stack safe. */
export const MAX_NESTING = 24;

/**
 * The most `->`/`->>` steps of one JSON path. Each step is one operator expression nested in
 * the previous one, and PostgreSQL plans those recursively: thousands of steps end in its
 * "stack depth limit exceeded". Real documents are rarely a dozen levels deep.
 */
export const MAX_JSON_PATH_DEPTH = 64;

const IDENTIFIER_CHAR = /^[\p{L}0-9_ $]$/u;

export function isIdentifierChar(char: string | undefined): boolean {
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

export function delimiter(s: Scanner): void {
  if (s.peek() !== '.') s.fail('delimiter (.)');
  s.pos += 1;
}

export function stringChoice<T extends string>(s: Scanner, options: readonly T[]): T | undefined {
  for (const option of options) {
    if (s.tryString(option)) return option;
  }
  return undefined;
}
