import { Duration } from '@marcbachmann/cel-js/evaluator';

/**
 * How values cross into and out of CEL (cel-js), for every area's expressions.
 *
 * In: CEL has no undefined (it becomes null); timestamps (Date), durations and bytes pass as they
 * are, since CEL reads them natively; plain objects and lists are copied with their values
 * converted. Out: CEL integers are BigInt, maps may be Maps, timestamps Dates, durations objects,
 * none of which JSON can hold, so they come out as numbers (or text when too large), plain
 * objects, ISO text and Go-style durations (`1.5s`, `250ms`).
 */

/**
 * How JavaScript numbers that are whole reach CEL. `double` (the default) leaves every number a
 * CEL double, as cel-go reads JSON; `int` turns safe whole numbers into CEL ints, for areas whose
 * users write integer arithmetic over their data (`params.replicas + 1`: a double plus an int
 * literal has no overload in CEL). The choice stays per area because changing it changes what
 * stored expressions mean (`x / 2` is integer division on ints).
 */
export type WholeNumbers = 'double' | 'int';

function isCelNative(value: object): boolean {
  return value instanceof Date || value instanceof Duration || value instanceof Uint8Array;
}

/** Plain data as CEL reads it (see WholeNumbers for whole numbers). */
export function toCel(value: unknown, wholeNumbers: WholeNumbers = 'double'): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    return wholeNumbers === 'int' && Number.isSafeInteger(value) ? BigInt(value) : value;
  }
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((entry: unknown) => toCel(entry, wholeNumbers));
  if (isCelNative(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = toCel(inner, wholeNumbers);
  return out;
}

/** Every variable converted with toCel, as a CEL program's activation. */
export function toCelVariables(
  variables: Record<string, unknown>,
  wholeNumbers: WholeNumbers = 'double',
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(variables)) out[name] = toCel(value, wholeNumbers);
  return out;
}

/** A CEL duration as Go prints it (`1.5s`, `250ms`), as the original tools store it. */
function formatDuration(duration: Duration): string {
  const ms = duration.valueOf();
  return ms !== 0 && Math.abs(ms) < 1000 ? `${ms}ms` : `${ms / 1000}s`;
}

/** A CEL value as JSON-safe plain data. */
export function fromCel(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (typeof value !== 'object') return value;
  if (value instanceof Duration) return formatDuration(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of value) out[String(key)] = fromCel(inner);
    return out;
  }
  // Other CEL objects (a `type(x)` answer, ...) have no fields to copy; their text names them.
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    return String(value);
  }
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = fromCel(inner);
  return out;
}
