import { invalidRange, putLimitNotAllowed } from '../errors/api-errors.js';
import type { QueryParams, RangeSpec } from '../parser/ast.js';
import { parseRangeHeader } from '../parser/range-header.js';

/** Rows `lower` to `upper` (inclusive; `upper` undefined: no end), PostgREST's NonnegRange. */
type Interval = { lower: bigint; upper?: bigint };

const ALL: Interval = { lower: 0n };

function isEmpty(range: Interval): boolean {
  return range.upper !== undefined && range.upper < range.lower;
}

/**
 * The top-level range, computed as PostgREST's RangeQuery does with its intervals: `limit`
 * and `offset` give rows `offset` to `offset + limit - 1`, which is intersected with the
 * `Range` header (GET only, as RFC 9110 says; otherwise all rows). So a negative offset is
 * clipped at row 0 (`offset=-4` is all rows, `offset=-2&limit=5` rows 0 to 2). A limit whose
 * last row is -1 (`limit=0`, but also `offset=-2&limit=2`) asks for no rows; any other empty
 * range is 416 PGRST103. PUT takes no range at all (PGRST114).
 */
export function topLevelRange(params: QueryParams, method: string, rangeHeader: string | undefined): RangeSpec {
  const given = params.ranges.get('');
  const fromParams: Interval = given
    ? { lower: given.offset, ...(given.limit !== undefined ? { upper: given.offset + given.limit - 1n } : {}) }
    : ALL;
  const header: Interval = (method === 'GET' ? parseRangeHeader(rangeHeader) : undefined) ?? ALL;
  const limitZero = fromParams.upper === -1n;
  let top: Interval | undefined;
  if (limitZero) top = { lower: 0n, upper: -1n };
  else if (!isEmpty(header) && !isEmpty(fromParams)) {
    const lower = header.lower > fromParams.lower ? header.lower : fromParams.lower;
    const uppers = [header.upper, fromParams.upper].filter((upper): upper is bigint => upper !== undefined);
    const upper = uppers.reduce<bigint | undefined>(
      (min, value) => (min === undefined || value < min ? value : min),
      undefined,
    );
    top = upper === undefined ? { lower } : { lower, upper };
  }
  if (top === undefined || (isEmpty(top) && !limitZero)) {
    throw invalidRange({ kind: isEmpty(header) ? 'lower-gt-upper' : 'negative-limit' });
  }
  if (method === 'PUT' && (top.lower !== 0n || top.upper !== undefined)) throw putLimitNotAllowed();
  return top.upper === undefined ? { offset: top.lower } : { offset: top.lower, limit: top.upper - top.lower + 1n };
}
