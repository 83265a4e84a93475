import { celErrorText, celProgram } from '../../cel/cel-program.js';

/**
 * CEL for rule and silence filters and template parts, in the app's one CEL environment
 * (cel/cel-program.ts). Every variable is dynamic (a check, a config, ... as JSON).
 */
/** JSON-like data as CEL reads it: undefined is null. */
function toCel(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(toCel);
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = toCel(inner);
    return out;
  }
  return value;
}

/** A CEL value as plain data (integers are BigInt, maps may be Maps). */
export function fromCel(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, inner]) => [String(key), fromCel(inner)]));
  if (typeof value === 'object') {
    if (typeof (value as { valueOf?: unknown }).valueOf === 'function' && !(value.constructor === Object))
      return String(value);
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fromCel(inner)]));
  }
  return value;
}

export type CelOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/** Evaluates an expression over the variables; never throws. */
export function evaluateCel(expression: string, variables: Record<string, unknown>): CelOutcome {
  try {
    const value: unknown = celProgram(expression)(toCel(variables) as Record<string, unknown>);
    if (value instanceof Promise) return { ok: false, error: 'asynchronous expressions are not supported' };
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: celErrorText(error) };
  }
}
