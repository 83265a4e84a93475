/** A `Range: 0-24` request header (items); `upper` undefined for open ranges like `10-`. */
export type HeaderRange = { lower: number; upper?: number };

/**
 * Parses the `Range` header as PostgREST does: only `^[0-9]+-[0-9]*$` counts; anything else
 * means "all rows".
 */
export function parseRangeHeader(header: string | undefined): HeaderRange | undefined {
  if (header === undefined) return undefined;
  const match = /^([0-9]+)-([0-9]*)$/.exec(header.trim());
  if (!match) return undefined;
  const lower = Number(match[1]);
  const upper = match[2] === '' || match[2] === undefined ? undefined : Number(match[2]);
  if (!Number.isSafeInteger(lower) || (upper !== undefined && !Number.isSafeInteger(upper))) return undefined;
  return upper === undefined ? { lower } : { lower, upper };
}
