import { evaluateCel } from '../../cel/cel-program.js';

/**
 * Definition-of-done scripts (CEL, backend-model 2.11): every variable is dynamic JSON (check,
 * analysis, component, config, incident), in the app's one CEL environment (cel/cel-program.ts).
 */
export type ScriptOutcome = { done: boolean; result: string };

/**
 * Runs a script: a boolean result is the item's done state; anything else (or an error) leaves
 * it not done, with the reason in `result` (evidences.script_result).
 */
export function evaluateScript(script: string, variables: Record<string, unknown>): ScriptOutcome {
  const outcome = evaluateCel(script, variables);
  if (!outcome.ok) return { done: false, result: `error: ${outcome.error}` };
  const { value } = outcome;
  if (typeof value === 'boolean') return { done: value, result: String(value) };
  return {
    done: false,
    result: `the script gave ${typeof value === 'bigint' ? 'a number' : typeof value}, not true or false`,
  };
}
