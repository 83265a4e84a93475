import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import { LRUCache } from 'lru-cache';

/**
 * CEL for rule and silence filters and template parts. Every variable is dynamic (a check, a
 * config, ... as JSON); parsed programs are kept, since the same few filters run for every
 * event.
 */
const environment = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
const compiled = new LRUCache<string, ParseResult>({ max: 2000 });

const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]?.trim() || 'invalid expression';

function compile(expression: string): ParseResult {
  let program = compiled.get(expression);
  if (!program) {
    program = environment.parse(expression);
    compiled.set(expression, program);
  }
  return program;
}

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
    const value: unknown = compile(expression)(toCel(variables) as Record<string, unknown>);
    if (value instanceof Promise) return { ok: false, error: 'asynchronous expressions are not supported' };
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: firstLine(error) };
  }
}

/** Why an expression does not compile (parse and type check), or undefined. */
export function celCompileProblem(expression: string): string | undefined {
  try {
    const checked = compile(expression).check();
    return checked.valid ? undefined : firstLine(checked.error ?? 'does not type-check');
  } catch (error) {
    return firstLine(error);
  }
}
