import { celErrorText, celProgram } from '../../cel/cel-program.js';

/**
 * CEL for playbooks: action `if` conditions, `$(...)` and `{{ }}` template parts, playbook
 * `filters` and trigger filters, in the app's one CEL environment (cel/cel-program.ts). Every
 * variable is dynamic JSON (params, config, check, ...).
 */

/**
 * JSON-like data as CEL reads it: undefined is null, dates stay dates, whole numbers are CEL
 * integers (so `params.replicas + 1` works as it does on the original's JSON).
 */
function toCel(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (Array.isArray(value)) return value.map(toCel);
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toCel(inner)]));
  }
  return value;
}

/** A CEL value as plain JSON data (integers are BigInt, maps may be Maps). */
export function fromCel(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, inner]) => [String(key), fromCel(inner)]));
  if (typeof value === 'object') {
    if (value.constructor !== Object) return String(value);
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fromCel(inner)]));
  }
  return value;
}

export type CelOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/** Evaluates an expression over the variables; never throws. The value is plain data. */
export function evaluateCel(expression: string, variables: Record<string, unknown>): CelOutcome {
  try {
    const value: unknown = celProgram(expression)(toCel(variables) as Record<string, unknown>);
    if (value instanceof Promise) return { ok: false, error: 'asynchronous expressions are not supported' };
    return { ok: true, value: fromCel(value) };
  } catch (error) {
    return { ok: false, error: celErrorText(error) };
  }
}
