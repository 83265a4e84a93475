import { parseTimeExpression } from '@lookout/contracts';

/**
 * The web sends list filters as `<column>.filter=<values>` (a comma list; `!` excludes a value;
 * `*` at either end is a wildcard; `>`/`<` compare with a time such as `now-1d`). PostgREST
 * has no such parameter, so the data API rewrites them into PostgREST filters before the
 * engine sees the query, the way the original backend's middleware did. Times are read with the
 * one grammar of `@lookout/contracts` (`parseTimeExpression`).
 */

const FILTER_SUFFIX = '.filter';

/** Inside a value the web escapes ':' as '____' and ',' as '||||' (see tristate-fns.ts). */
export function unescapeFilterValue(value: string): string {
  return value.replaceAll('____', ':').replaceAll('||||', ',');
}

/** Quotes a value for a PostgREST `in.(...)` list. */
function quoteListValue(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

type RewrittenParam = [key: string, value: string];

/** Turns one `<column>.filter` value into PostgREST parameters (keys and values unencoded). */
export function rewriteSearchFilter(column: string, rawValue: string, now = new Date()): RewrittenParam[] {
  const params: RewrittenParam[] = [];
  const includeExact: string[] = [];
  const includePatterns: string[] = [];
  const excludeExact: string[] = [];

  for (const rawItem of rawValue.split(',')) {
    const item = rawItem.trim();
    if (item === '') continue;
    const comparison = /^([<>])(.+)$/.exec(item);
    if (comparison) {
      const time = parseTimeExpression(comparison[2]!, now);
      // A comparison that is not a time is compared as written (numbers, for example).
      params.push([
        column,
        `${comparison[1] === '>' ? 'gt' : 'lt'}.${time ? time.toISOString() : unescapeFilterValue(comparison[2]!)}`,
      ]);
      continue;
    }
    const excluded = item.startsWith('!');
    const value = unescapeFilterValue(excluded ? item.slice(1) : item);
    if (value === '') continue;
    const wildcard = value.startsWith('*') || value.endsWith('*');
    if (excluded) {
      if (wildcard) params.push([column, `not.like.${value}`]);
      else excludeExact.push(value);
    } else if (wildcard) {
      includePatterns.push(value);
    } else {
      includeExact.push(value);
    }
  }

  if (excludeExact.length > 0) params.push([column, `not.in.(${excludeExact.map(quoteListValue).join(',')})`]);
  const includes = [
    ...(includeExact.length > 0 ? [`${column}.in.(${includeExact.map(quoteListValue).join(',')})`] : []),
    ...includePatterns.map((pattern) => `${column}.like.${quoteListValue(pattern)}`),
  ];
  if (includes.length === 1 && includeExact.length > 0) {
    params.push([column, `in.(${includeExact.map(quoteListValue).join(',')})`]);
  } else if (includes.length === 1) {
    params.push([column, `like.${includePatterns[0]}`]);
  } else if (includes.length > 1) {
    params.push(['or', `(${includes.join(',')})`]);
  }
  return params;
}

/**
 * Rewrites every `<column>.filter=` parameter of a raw (still percent-encoded) query string
 * and leaves every other parameter byte for byte as it was.
 */
export function rewriteSearchFilters(rawQuery: string, now?: Date): string {
  // Most queries have no search filter: they pass without a parse (or even a clock read).
  if (!rawQuery.includes(FILTER_SUFFIX)) return rawQuery;
  const at = now ?? new Date();
  const out: string[] = [];
  for (const part of rawQuery.split('&')) {
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey.replaceAll('+', ' '));
      value = eq === -1 ? '' : decodeURIComponent(part.slice(eq + 1).replaceAll('+', ' '));
    } catch {
      // Malformed percent-encoding: leave it for the engine to report.
      out.push(part);
      continue;
    }
    if (!key.endsWith(FILTER_SUFFIX) || key.length === FILTER_SUFFIX.length) {
      out.push(part);
      continue;
    }
    const column = key.slice(0, -FILTER_SUFFIX.length);
    for (const [newKey, newValue] of rewriteSearchFilter(column, value, at)) {
      out.push(`${encodeURIComponent(newKey)}=${encodeURIComponent(newValue)}`);
    }
  }
  return out.join('&');
}
