import { parseDurationMs, type PlaybookAction, type PlaybookSpec } from '@lookout/contracts';
import { evaluateCondition, renderText, type TemplateEnv } from './playbook-template-fns.js';

/**
 * What a run does next, decided from its frozen spec and the actions it has so far (the
 * original's ScheduleRun): the first action when none has run; after a failure only actions
 * with an `if` (e.g. `always()`, `failure()`) are considered; an action whose `if` is false is
 * recorded as skipped; an action with a `delay` is queued sleeping until then; when nothing is
 * left the run ends completed, or failed when any action failed.
 */

export type ActionRowState = {
  action_index: number;
  name: string;
  status: string;
  error: string | null;
  result: unknown;
};

const OPEN_ACTION = new Set(['scheduled', 'running', 'sleeping', 'waiting']);

export type Skip = { index: number; name: string; reason: string };

export type NextStep =
  | { kind: 'wait' }
  | { kind: 'action'; index: number; name: string; delayMs: number; skipped: Skip[] }
  | { kind: 'finish'; status: 'completed' | 'failed'; error: string | null; skipped: Skip[] };

/** The `actions` variable of the template environment: each earlier action by name. */
export function actionsEnv(rows: readonly ActionRowState[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of rows) out[row.name] = { status: row.status, result: row.result ?? {}, error: row.error ?? '' };
  return out;
}

/** An action's delay: a duration, or a template that renders to one; undefined when invalid. */
export function delayMs(action: PlaybookAction, env: TemplateEnv): number | undefined {
  if (!action.delay) return 0;
  const rendered = renderText(action.delay, env);
  if (rendered.errors.length > 0) return undefined;
  return parseDurationMs(rendered.text.trim());
}

export function nextStep(
  spec: Pick<PlaybookSpec, 'actions'>,
  rows: readonly ActionRowState[],
  env: TemplateEnv,
): NextStep {
  if (rows.some((row) => OPEN_ACTION.has(row.status))) return { kind: 'wait' };
  const failedRow = rows.find((row) => row.status === 'failed');
  const anyFailed = failedRow !== undefined;
  const start = rows.reduce((max, row) => Math.max(max, row.action_index + 1), 0);
  const skipped: Skip[] = [];
  const fullEnv = { ...env, actions: actionsEnv(rows) };
  for (let index = start; index < spec.actions.length; index++) {
    const action = spec.actions[index] as PlaybookAction;
    const condition = action.if ?? action.filter;
    if (condition === undefined) {
      if (anyFailed) {
        skipped.push({ index, name: action.name, reason: 'an earlier action failed' });
        continue;
      }
    } else {
      const decided = evaluateCondition(condition, fullEnv, anyFailed);
      if (!decided.run) {
        skipped.push({ index, name: action.name, reason: decided.error ?? `if '${condition}' was false` });
        continue;
      }
    }
    const delay = delayMs(action, fullEnv);
    return { kind: 'action', index, name: action.name, delayMs: delay ?? 0, skipped };
  }
  return {
    kind: 'finish',
    status: anyFailed ? 'failed' : 'completed',
    error: failedRow ? `${failedRow.name}: ${failedRow.error ?? 'failed'}` : null,
    skipped,
  };
}

/** When a failed action is tried again: its retry wait with up to `jitter` percent added. */
export function retryDelayMs(action: PlaybookAction, random: () => number = Math.random): number {
  const base = action.retry?.duration ? (parseDurationMs(action.retry.duration) ?? 0) : 0;
  const jitter = action.retry?.jitter ?? 0;
  return Math.round(base * (1 + (jitter / 100) * random()));
}

/** Nanoseconds (the column's unit) of a Go duration, or the default. */
export function timeoutNanos(value: string | undefined, fallback: string): bigint {
  const ms = parseDurationMs(value ?? fallback) ?? parseDurationMs(fallback) ?? 1_800_000;
  return BigInt(Math.round(ms)) * 1_000_000n;
}
