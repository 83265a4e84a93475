import {
  CANARY_API_VERSION,
  CANARY_CHECK_TYPES,
  CANARY_KIND,
  maskSecrets,
  maskSecretText,
  parseCanaryDocument,
  type CanaryCheckEntry,
  type CanaryCheckType,
  type ValueFromRef,
} from '@lookout/contracts';
import type { CheckResult } from './runners/runner-types.js';
import type { CheckResultRow } from './health-repository.js';

/**
 * Pure steps around one run of a check: re-validating the stored spec (rows written straight
 * to the database skip the API's validation) and turning a runner's result into the row that
 * is stored.
 */

/** Longest message or error text stored per run. */
export const MAX_RESULT_TEXT = 20_000;

/** A stored check, ready to run, or why it cannot be run. */
export type CheckEntryOutcome = { ok: true; entry: CanaryCheckEntry } | { ok: false; message: string };

/**
 * Validates a stored check's spec with the same schema as canary documents. Errors name the
 * field (`url: must be a URL`) so the invalid result tells the owner what to fix.
 */
export function checkEntryOf(type: string, spec: unknown): CheckEntryOutcome {
  if (!(CANARY_CHECK_TYPES as readonly string[]).includes(type)) {
    return {
      ok: false,
      message: `check type '${type}' is not supported; Lookout runs ${CANARY_CHECK_TYPES.join(', ')}`,
    };
  }
  const parsed = parseCanaryDocument({
    apiVersion: CANARY_API_VERSION,
    kind: CANARY_KIND,
    metadata: { name: 'check' },
    spec: { [type]: [spec] },
  });
  if (!parsed.ok) {
    const prefix = `spec.${type}[0].`;
    const problems = parsed.errors.map((error) =>
      error.path.startsWith(prefix) ? `${error.path.slice(prefix.length)}: ${error.reason}` : error.message,
    );
    return { ok: false, message: `invalid ${type} check: ${problems.join('; ')}` };
  }
  const checks = parsed.document.spec[type as CanaryCheckType] as unknown[] | undefined;
  return { ok: true, entry: { type, check: checks?.[0] } as CanaryCheckEntry };
}

/** Cuts text to what is stored and shown. */
export function clip(text: string, max = MAX_RESULT_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The stored row of a run. `details` keeps the runner's detail and any transformed results.
 * Every role reads results (the drawer's history, Run Now), so credentials that reach a message,
 * an error or the details (a script printing its environment, a URL echoed by a server) are
 * masked on the way in, by the rules that mask specs (maskSecrets in contracts).
 */
export function resultRow(input: {
  checkId: string;
  startedAt: Date;
  result: CheckResult;
  invalid?: boolean;
  nextRuntime?: Date;
}): CheckResultRow {
  const { result } = input;
  const details =
    result.transformed !== undefined
      ? { detail: result.detail ?? null, transformed: result.transformed }
      : result.detail;
  return {
    checkId: input.checkId,
    time: input.startedAt,
    status: result.pass,
    invalid: input.invalid ?? false,
    durationMs: Math.max(0, Math.round(result.durationMs)),
    message: clip(maskSecretText(result.message)),
    error: result.error === undefined ? null : clip(maskSecretText(result.error)),
    details: details === undefined ? null : maskSecrets(details),
    ...(input.nextRuntime ? { nextRuntime: input.nextRuntime } : {}),
  };
}

/** The result of a check whose spec cannot be run: failed, marked invalid, saying why. */
export function invalidResult(message: string): CheckResult {
  return { pass: false, durationMs: 0, message, error: message };
}

/**
 * Reads one key of a secret or config map in a namespace (the canary's): the secrets module's
 * `resolveValueFrom`, which app.ts hands the health module.
 */
export type CanarySecretResolver = (ref: ValueFromRef, namespace: string) => Promise<string>;

/**
 * The secret resolver where no secret store is wired (`lookout apply`, tests of other parts):
 * values written inline work; a reference to a secret or config map fails the check with a
 * message that says so (the runner names the ref).
 */
export const secretsUnavailable = (): Promise<string> =>
  Promise.reject(new Error('no secret store is available to this check runner; write the value inline with `value`'));
