import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import { LRUCache } from 'lru-cache';

/**
 * Definition-of-done scripts (CEL, backend-model 2.11): every variable is dynamic JSON (check,
 * analysis, component, config, incident); compiled programs are kept by script text, since
 * the same few scripts run on every evaluation.
 */
const environment = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
const programs = new LRUCache<string, ParseResult>({ max: 1000 });

const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]?.trim() || 'invalid expression';

/** JSON-like data as CEL reads it: undefined is null, nested objects stay plain. */
function toCel(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(toCel);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toCel(inner)]));
  }
  return value;
}

/** A syntax problem of a script, or undefined when it parses. */
export function scriptProblem(script: string): string | undefined {
  try {
    if (!programs.has(script)) programs.set(script, environment.parse(script));
    return undefined;
  } catch (error) {
    return firstLine(error);
  }
}

export type ScriptOutcome = { done: boolean; result: string };

/**
 * Runs a script: a boolean result is the item's done state; anything else (or an error) leaves
 * it not done, with the reason in `result` (evidences.script_result).
 */
export function evaluateScript(script: string, variables: Record<string, unknown>): ScriptOutcome {
  try {
    let program = programs.get(script);
    if (!program) {
      program = environment.parse(script);
      programs.set(script, program);
    }
    const value: unknown = program(toCel(variables) as Record<string, unknown>);
    if (typeof value === 'boolean') return { done: value, result: String(value) };
    return {
      done: false,
      result: `the script gave ${typeof value === 'bigint' ? 'a number' : typeof value}, not true or false`,
    };
  } catch (error) {
    return { done: false, result: `error: ${firstLine(error)}` };
  }
}
