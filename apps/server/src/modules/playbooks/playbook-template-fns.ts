import { evaluatePlaybookCel } from './playbook-cel-fns.js';

/**
 * Templating of playbook actions in the original's two spellings: Go-template fields
 * `{{ .params.name }}` (read as CEL over the same variables, so `{{ params.name }}` works too)
 * and CEL expressions `$(params.replicas + 1)`. The variables are the run's environment:
 * `params`, `config` / `component` / `check` (the target), `run`, `playbook`, `user`, and
 * `actions.<name>` (earlier actions' status, result and error). A part that fails renders as
 * empty text and its error is kept, so dry runs and action errors can say which part failed.
 */

export type TemplateEnv = Record<string, unknown>;
export type RenderOutcome = { text: string; errors: string[] };

/** A `{{ ... }}` part; `.params.x` (Go-template field path) reads as the CEL `params.x`. */
const PART = /\{\{-?\s*([\s\S]*?)\s*-?\}\}/g;

function display(plain: unknown): string {
  if (plain === null || plain === undefined) return '';
  if (typeof plain === 'object') return JSON.stringify(plain);
  return String(plain);
}

/** Finds `$(` ... `)` with balanced parentheses (quotes respected); returns [start, end) pairs. */
export function celSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let index = text.indexOf('$(');
  while (index !== -1) {
    let depth = 0;
    let quote: string | undefined;
    let end = -1;
    for (let at = index + 1; at < text.length; at++) {
      const char = text[at];
      if (quote) {
        if (char === '\\') at++;
        else if (char === quote) quote = undefined;
        continue;
      }
      if (char === '"' || char === "'") quote = char;
      else if (char === '(') depth++;
      else if (char === ')' && --depth === 0) {
        end = at + 1;
        break;
      }
    }
    if (end === -1) break;
    spans.push([index, end]);
    index = text.indexOf('$(', end);
  }
  return spans;
}

/** Renders both spellings in one string. */
export function renderText(text: string, env: TemplateEnv): RenderOutcome {
  const errors: string[] = [];
  let out = '';
  let last = 0;
  for (const [start, end] of celSpans(text)) {
    out += text.slice(last, start);
    const expression = text.slice(start + 2, end - 1);
    const outcome = evaluatePlaybookCel(expression, env);
    if (outcome.ok) out += display(outcome.value);
    else errors.push(`$(${expression}): ${outcome.error}`);
    last = end;
  }
  out += text.slice(last);
  if (!out.includes('{{')) return { text: out, errors };
  const rendered = out.replace(PART, (_whole, source: string) => {
    const expression = source.startsWith('.') ? source.slice(1) : source;
    const outcome = evaluatePlaybookCel(expression, env);
    if (outcome.ok) return display(outcome.value);
    errors.push(`{{ ${source} }}: ${outcome.error}`);
    return '';
  });
  return { text: rendered, errors };
}

/** Renders every string inside a value (an action's spec), keeping its shape. */
export function renderDeep<T>(value: T, env: TemplateEnv, errors: string[] = []): { value: T; errors: string[] } {
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') {
      const outcome = renderText(item, env);
      errors.push(...outcome.errors);
      return outcome.text;
    }
    if (Array.isArray(item)) return item.map(walk);
    if (item && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
    }
    return item;
  };
  return { value: walk(value) as T, errors };
}

/**
 * An action's `if` (or `filter`): the original's status functions `always()`, `success()`,
 * `failure()` and `skip()`, or a CEL expression over the environment that must be true. A
 * Go-template condition (`{{ eq .params.x "y" }}`-style) is not supported; write CEL.
 */
export function evaluateCondition(
  expression: string,
  env: TemplateEnv,
  anyFailed: boolean,
): { run: boolean; error?: string } {
  const trimmed = expression.trim();
  if (trimmed === 'always()') return { run: true };
  if (trimmed === 'success()') return { run: !anyFailed };
  if (trimmed === 'failure()') return { run: anyFailed };
  if (trimmed === 'skip()') return { run: false };
  const outcome = evaluatePlaybookCel(trimmed, { ...env, failed: anyFailed, success: !anyFailed });
  if (!outcome.ok) return { run: false, error: `if: ${outcome.error}` };
  const value = outcome.value;
  if (typeof value === 'boolean') return { run: value };
  if (value === 'true' || value === 'false') return { run: value === 'true' };
  return { run: false, error: `if: must return true or false, got ${JSON.stringify(value)}` };
}
