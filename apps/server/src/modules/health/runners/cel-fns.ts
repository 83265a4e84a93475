import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { LRUCache } from 'lru-cache';

/**
 * CEL for check expressions (`test`, `display`, `transform`), ARCHITECTURE section 7.
 *
 * Variables are dynamic because each check type exposes its own (`code`, `json`, `results`, ...)
 * and users' JSON has no schema. Mixed-type list and map literals are allowed because transform
 * expressions build result objects such as `{"name": n, "pass": true}`.
 */
const environment = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });

/**
 * Parsed expressions by source. Checks run every few seconds with the same few expressions, so
 * parsing once matters at thousands of checks; the bound keeps memory flat when specs churn.
 */
const compiled = new LRUCache<string, ParseResult>({ max: 2000 });

/** The first line of a cel-js error; the rest is a source excerpt with a caret. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'invalid expression';
}

function compile(expression: string): ParseResult {
  let program = compiled.get(expression);
  if (!program) {
    program = environment.parse(expression);
    compiled.set(expression, program);
  }
  return program;
}

/** A CEL `duration` for a number of milliseconds (`elapsed`, `sslAge`). */
export function celDuration(ms: number): Duration {
  return Duration.fromMilliseconds(Math.round(ms));
}

/**
 * Prepares plain data for CEL: `undefined` becomes null (CEL has no undefined), and values CEL
 * understands natively (Date as timestamp, Duration) pass through.
 */
export function toCelValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(toCelValue);
  if (value instanceof Date || value instanceof Duration || value instanceof Uint8Array) return value;
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = toCelValue(inner);
    return out;
  }
  return value;
}

/** Formats a CEL duration as Go does (`1.5s`, `250ms`), for results stored as JSON. */
function formatDuration(duration: Duration): string {
  const ms = duration.valueOf();
  return ms !== 0 && Math.abs(ms) < 1000 ? `${ms}ms` : `${ms / 1000}s`;
}

/**
 * Turns a CEL result into JSON-safe data: CEL integers are BigInt, maps may be `Map`s,
 * timestamps are Dates and durations are objects, none of which JSON can hold as they are.
 */
export function fromCelValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Duration) return formatDuration(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(fromCelValue);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of value) out[String(key)] = fromCelValue(inner);
    return out;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = fromCelValue(inner);
    return out;
  }
  return value;
}

/** The outcome of evaluating one expression. */
export type CelOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/** Parses (cached) and evaluates `expression` over `variables`; never throws. */
export function evaluateCel(expression: string, variables: Record<string, unknown>): CelOutcome {
  try {
    const program = compile(expression);
    const context: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(variables)) context[name] = toCelValue(value);
    const value: unknown = program(context);
    if (value instanceof Promise) {
      // Only async custom functions make evaluation asynchronous, and none are registered.
      return { ok: false, error: 'expression evaluated asynchronously, which checks do not support' };
    }
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: firstLine(error) };
  }
}

/**
 * Why an expression does not compile, or undefined when it does. Compiling is parsing and type
 * checking, as cel-go's `Compile`: with every variable dynamic, the check finds what fails on
 * every evaluation whatever the data (`'a' + 1`, an unknown function), and nothing else.
 * Canary writes are refused with it (health-canary-rules-fns.ts) so no stored check fails
 * every run for an expression that cannot work.
 */
export function celCompileProblem(expression: string): string | undefined {
  try {
    const checked = compile(expression).check();
    return checked.valid ? undefined : firstLine(checked.error ?? 'does not type-check');
  } catch (error) {
    return firstLine(error);
  }
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
