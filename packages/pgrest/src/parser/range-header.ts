/** A `Range: 0-24` request header (items); `upper` undefined for open ranges like `10-`. */
export type HeaderRange = { lower: bigint; upper?: bigint };

/**
 * Parses the `Range` header as PostgREST does: only `^[0-9]+-[0-9]*$` counts; anything else
 * means "all rows". The bounds are exact integers, however large.
 */
export function parseRangeHeader(header: string | undefined): HeaderRange | undefined {
  if (header === undefined) return undefined;
  const match = /^([0-9]+)-([0-9]*)$/.exec(header.trim());
  if (!match) return undefined;
  const lower = BigInt(match[1] ?? '0');
  return match[2] === '' || match[2] === undefined ? { lower } : { lower, upper: BigInt(match[2]) };
}
