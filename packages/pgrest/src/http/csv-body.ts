import { invalidBody } from '../errors/api-errors.js';
import { haskellShow } from '../parser/scanner.js';

/*
 * CSV request bodies, read the way PostgREST reads them: with cassava's `decodeByName`
 * (RFC 4180 with a mandatory header line), then turned into one JSON object per line. The
 * quirks are cassava's and kept on purpose, so a body PostgREST accepts is accepted here
 * and a body it refuses is refused with the same message:
 *
 * - the header line must end with a line break (`a,b` alone is "not enough input");
 * - blank lines are skipped;
 * - a line is zipped with the header: extra fields are dropped, missing ones leave their
 *   keys out, and lines with different key sets are "All lines must have same number of
 *   fields" (so a uniformly short body is accepted with fewer columns);
 * - the field `NULL`, quoted or not, is null; every other field is a string.
 */

const QUOTE = '"';

/** cassava's failure text: `parse error (<reason>) at <rest of the input>`. */
function parseError(reason: string, rest: string): never {
  const shown = rest.length > 100 ? `${rest.slice(0, 100)} (truncated)` : haskellShow(rest);
  throw invalidBody(`parse error (${reason}) at ${shown}`);
}

/** One line: its fields, and where the next line starts (or -1 at the end of input). */
type Line = { fields: string[]; next: number };

function endOfLineAt(text: string, index: number): number | undefined {
  if (text[index] === '\n') return index + 1;
  if (text[index] === '\r') return text[index + 1] === '\n' ? index + 2 : index + 1;
  return undefined;
}

function readLine(text: string, start: number, isHeader: boolean): Line {
  const fields: string[] = [];
  let index = start;
  for (;;) {
    let field = '';
    if (text[index] === QUOTE) {
      index += 1;
      for (;;) {
        const char = text[index];
        if (char === undefined) parseError('not enough input', '');
        if (char === QUOTE) {
          if (text[index + 1] === QUOTE) {
            field += QUOTE;
            index += 2;
            continue;
          }
          index += 1;
          break;
        }
        field += char;
        index += 1;
      }
    } else {
      const from = index;
      while (index < text.length && !',"\n\r'.includes(text[index] ?? '')) index += 1;
      field = text.slice(from, index);
    }
    fields.push(field);
    if (text[index] === ',') {
      index += 1;
      continue;
    }
    const next = endOfLineAt(text, index);
    if (next !== undefined) return { fields, next };
    // The header must be followed by a line break; a record may end the input.
    if (index >= text.length) {
      if (isHeader) parseError('not enough input', '');
      return { fields, next: -1 };
    }
    // Anything else after a field (a quote inside an unquoted field, text after a closing
    // quote) ends the records early, and cassava then expects the end of the input.
    return parseError('endOfInput', text.slice(index));
  }
}

function isBlank(fields: string[]): boolean {
  return fields.length === 1 && fields[0] === '';
}

/**
 * Parses a `text/csv` body into one object per line, keyed by the header (PGRST102 on a
 * malformed body or lines with different keys).
 */
export function parseCsvBody(text: string): Record<string, unknown>[] {
  const header = readLine(text, 0, true);
  const rows: Record<string, unknown>[] = [];
  let position = header.next;
  while (position !== -1) {
    const line = readLine(text, position, false);
    position = line.next === text.length ? -1 : line.next;
    if (isBlank(line.fields)) continue;
    // No prototype: a header named `__proto__` is a key like any other.
    const row = Object.create(null) as Record<string, unknown>;
    const count = Math.min(header.fields.length, line.fields.length);
    for (let index = 0; index < count; index += 1) {
      const value = line.fields[index] ?? '';
      row[header.fields[index] ?? ''] = value === 'NULL' ? null : value;
    }
    rows.push(row);
  }
  const first = rows[0];
  if (first) {
    const keys = Object.keys(first);
    const uniform = rows.every((row) => {
      const rowKeys = Object.keys(row);
      return rowKeys.length === keys.length && rowKeys.every((key) => key in first);
    });
    if (!uniform) throw invalidBody('All lines must have same number of fields');
  }
  return rows;
}
