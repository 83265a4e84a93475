import { Duration } from '@marcbachmann/cel-js/evaluator';

/**
 * What check expressions (`test`, `display`, `transform`, ARCHITECTURE section 7) need beyond the
 * app's one CEL environment (cel/cel-program.ts) and value conversion (cel/cel-values.ts):
 * durations as variables, and CEL type names for messages.
 */

/** A CEL `duration` for a number of milliseconds (`elapsed`, `sslAge`). */
export function celDuration(ms: number): Duration {
  return Duration.fromMilliseconds(Math.round(ms));
}

/** Names a CEL value's type for messages such as `test must return true or false, got int`. */
export function celTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Duration) return 'duration';
  if (value instanceof Date) return 'timestamp';
  return 'map';
}
