import { bodyTooDeep, invalidBody } from '../errors/api-errors.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether `text`, read as JSON, nests arrays and objects more than `limit` levels deep. One
 * pass over the characters that stops at the first level past the limit, so a body of 200,000
 * brackets costs as much as its first `limit + 1`. Brackets inside strings do not count; the
 * text need not be valid JSON (JSON.parse judges that afterwards).
 *
 * Why: JSON.parse copes with deep nesting, but PostgreSQL's JSON functions recurse per level
 * and fail with "stack depth limit exceeded", and so does code walking the parsed value.
 */
export function jsonNestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      depth += 1;
      if (depth > limit) return true;
    } else if ((code === CLOSE_BRACKET || code === CLOSE_BRACE) && depth > 0) depth -= 1;
  }
  return false;
}

/**
 * Parses a JSON request body as PostgREST does (PGRST102 "Empty or invalid json" when it is
 * not JSON), after refusing one nested deeper than `maxDepth` (PGRST102 saying so).
 */
export function parseJsonBody(text: string, maxDepth: number): unknown {
  if (jsonNestingExceeds(text, maxDepth)) throw bodyTooDeep(maxDepth);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidBody('Empty or invalid json');
  }
}
