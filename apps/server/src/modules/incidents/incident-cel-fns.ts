import { celErrorText, celProgram } from '../../cel/cel-program.js';

/**
 * Definition-of-done scripts (CEL, backend-model 2.11): every variable is dynamic JSON (check,
 * analysis, component, config, incident), in the app's one CEL environment (cel/cel-program.ts).
 */
/** JSON-like data as CEL reads it: undefined is null, nested objects stay plain. */
function toCel(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(toCel);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toCel(inner)]));
  }
  return value;
}

export type ScriptOutcome = { done: boolean; result: string };

/**
 * Runs a script: a boolean result is the item's done state; anything else (or an error) leaves
 * it not done, with the reason in `result` (evidences.script_result).
 */
export function evaluateScript(script: string, variables: Record<string, unknown>): ScriptOutcome {
  try {
    const value: unknown = celProgram(script)(toCel(variables) as Record<string, unknown>);
    if (typeof value === 'boolean') return { done: value, result: String(value) };
    return {
      done: false,
      result: `the script gave ${typeof value === 'bigint' ? 'a number' : typeof value}, not true or false`,
    };
  } catch (error) {
    return { done: false, result: `error: ${celErrorText(error)}` };
  }
}
