import { evaluateCel, type CelOutcome } from '../../cel/cel-program.js';
import { fromCel } from '../../cel/cel-values.js';

/**
 * CEL for playbooks: action `if` conditions, `$(...)` and `{{ }}` template parts, playbook
 * `filters` and trigger filters, in the app's one CEL environment (cel/cel-program.ts). Every
 * variable is dynamic JSON (params, config, check, ...); whole numbers are CEL integers, so
 * `params.replicas + 1` works as it does on the original's JSON.
 */
export function evaluatePlaybookCel(expression: string, variables: Record<string, unknown>): CelOutcome {
  const outcome = evaluateCel(expression, variables, 'int');
  return outcome.ok ? { ok: true, value: fromCel(outcome.value) } : outcome;
}
