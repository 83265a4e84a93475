import { invalidRange, putLimitNotAllowed } from '../errors/api-errors.js';
import type { QueryParams, RangeSpec } from '../parser/ast.js';
import { parseRangeHeader } from '../parser/range-header.js';

/**
 * The top-level range: `limit`/`offset` intersected with the `Range` header (GET only, as
 * RFC 9110 says). `limit=0` is allowed and returns no rows; any other empty range is 416
 * PGRST103. PUT takes no range at all (PGRST114).
 */
export function topLevelRange(params: QueryParams, method: string, rangeHeader: string | undefined): RangeSpec {
  const fromParams = params.ranges.get('') ?? { offset: 0 };
  if (method === 'PUT') {
    if (params.ranges.has('') && (fromParams.offset !== 0 || fromParams.limit !== undefined))
      throw putLimitNotAllowed();
    return { offset: 0 };
  }
  if (fromParams.limit === 0) return { offset: fromParams.offset, limit: 0 };
  const header = method === 'GET' ? parseRangeHeader(rangeHeader) : undefined;
  let lower = fromParams.offset;
  let upper = fromParams.limit !== undefined ? fromParams.offset + fromParams.limit - 1 : undefined;
  if (header) {
    lower = Math.max(lower, header.lower);
    if (header.upper !== undefined) upper = upper === undefined ? header.upper : Math.min(upper, header.upper);
  }
  if (upper !== undefined && upper < lower) {
    const headerEmpty = header?.upper !== undefined && header.upper < header.lower;
    throw invalidRange({ kind: headerEmpty ? 'lower-gt-upper' : 'negative-limit' });
  }
  return upper === undefined ? { offset: lower } : { offset: lower, limit: upper - lower + 1 };
}
