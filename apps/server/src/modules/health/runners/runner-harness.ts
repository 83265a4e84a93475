import type { CheckExpression, NamedSecretOrValue, SecretOrValue, ValueFromRef } from '@lookout/contracts';
import { evaluateCel } from '../../../cel/cel-program.js';
import { fromCel } from '../../../cel/cel-values.js';
import { refusingSandbox, type Sandbox } from '../../../sandbox/sandbox.js';
import { celTypeName } from './cel-fns.js';
import { errorText } from './runner-fns.js';
import type { CheckResult, CheckRunContext, ProbeOutcome, SecretResolver } from './runner-types.js';

/**
 * The steps every runner shares: the timeout race, "never throw", secret lookups and the CEL
 * test/display/transform expressions. Each `<type>-runner.ts` only writes its probe.
 */

/**
 * A failure a probe has already put into words (`could not read secret 'pg' key 'password'`).
 * Probes throw it to stop early; the harness turns it into a failed result as it is.
 */
export class CheckFailure extends Error {
  readonly error: string | undefined;
  readonly detail: unknown;
  constructor(message: string, options: { error?: string; detail?: unknown } = {}) {
    super(message);
    this.name = 'CheckFailure';
    this.error = options.error;
    this.detail = options.detail;
  }
}

/** Builds the context a runner receives: a signal that aborts after `timeoutMs` or on `signal`. */
export function createRunContext(options: {
  timeoutMs: number;
  resolveSecret: SecretResolver;
  signal?: AbortSignal;
  /** Without one, exec checks are refused (fail closed) and no path is private. */
  sandbox?: Sandbox;
}): CheckRunContext {
  return {
    signal: budgetSignal(options.timeoutMs, options.signal),
    timeoutMs: options.timeoutMs,
    resolveSecret: options.resolveSecret,
    sandbox: options.sandbox ?? NO_SANDBOX,
  };
}

/**
 * A signal that aborts with a TimeoutError after `timeoutMs`, or with `cancel`'s reason. Not
 * `AbortSignal.any([AbortSignal.timeout(…), cancel])`: on Node 20 the combined signal holds
 * its sources weakly, so the timeout signal can be collected before it fires and a hung check
 * then never times out. Here the timer holds the controller until it fires.
 */
function budgetSignal(timeoutMs: number, cancel: AbortSignal | undefined): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  // A pending budget never keeps the process alive on its own.
  timer.unref();
  controller.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  if (cancel) {
    if (cancel.aborted) controller.abort(cancel.reason);
    else
      cancel.addEventListener('abort', () => controller.abort(cancel.reason), {
        once: true,
        signal: controller.signal,
      });
  }
  return controller.signal;
}

/** Where a caller set up no sandbox, scripts do not run at all. */
const NO_SANDBOX = refusingSandbox('no sandbox was set up for this run');

function abortedMessage(context: CheckRunContext): string {
  const reason: unknown = context.signal.reason;
  const name = reason instanceof Error || reason instanceof DOMException ? reason.name : undefined;
  if (name === 'TimeoutError') return `timed out after ${context.timeoutMs} ms`;
  const why = reason instanceof Error && reason.message ? `: ${reason.message}` : '';
  return `cancelled before it finished${why}`;
}

type Templatable = {
  test?: CheckExpression | undefined;
  display?: CheckExpression | undefined;
  transform?: CheckExpression | undefined;
};

/** Normalises a transform result to a list: canary-checker accepts one result or a list. */
function toTransformedList(value: unknown): { ok: true; list: unknown[] } | { ok: false; error: string } {
  let plain = fromCel(value);
  if (typeof plain === 'string') {
    // Expressions ported from canary-checker often end in toJSON(...) and return text.
    try {
      plain = JSON.parse(plain) as unknown;
    } catch {
      return { ok: false, error: 'transform must return a list or a map, got a string that is not JSON' };
    }
  }
  if (plain === null) return { ok: true, list: [] };
  if (Array.isArray(plain)) return { ok: true, list: plain };
  if (typeof plain === 'object') return { ok: true, list: [plain] };
  return { ok: false, error: `transform must return a list or a map, got ${celTypeName(value)}` };
}

function displayText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(fromCel(value));
}

/**
 * Applies the check's CEL expressions to a probe's outcome. `test` can only turn a pass into a
 * failure; `display` replaces the message of a pass and is appended to a failure's reason;
 * `transform` runs whether or not the check passed (alert checks fan out failing alerts).
 * A broken expression fails the check and says which one, since the spec needs fixing.
 */
export function applyExpressions(check: Templatable, outcome: ProbeOutcome): Omit<CheckResult, 'durationMs'> {
  const { celVariables } = outcome;
  const result: Omit<CheckResult, 'durationMs'> = { pass: outcome.pass, message: outcome.message };
  if (outcome.error !== undefined) result.error = outcome.error;
  if (outcome.detail !== undefined) result.detail = outcome.detail;
  if (!celVariables) return result;

  let testFailed: string | undefined;
  if (result.pass && check.test) {
    const test = evaluateCel(check.test.expr, celVariables);
    if (!test.ok) {
      return { ...result, pass: false, message: `test expression failed: ${test.error}`, error: test.error };
    }
    if (typeof test.value !== 'boolean') {
      const message = `test expression must return true or false, got ${celTypeName(test.value)}`;
      return { ...result, pass: false, message, error: message };
    }
    if (!test.value) testFailed = `test \`${check.test.expr}\` returned false`;
  }

  if (check.display) {
    const display = evaluateCel(check.display.expr, celVariables);
    if (display.ok) {
      const text = displayText(display.value);
      if (testFailed) result.message = `${testFailed}; ${text}`;
      else result.message = result.pass ? text : `${result.message}; ${text}`;
    } else if (result.pass && !testFailed) {
      return { ...result, pass: false, message: `display expression failed: ${display.error}`, error: display.error };
    } else if (testFailed) {
      result.message = `${testFailed}; ${result.message}`;
    }
    // A display that cannot be evaluated on an already failing check adds nothing useful; the
    // failure reason stays.
  } else if (testFailed) {
    result.message = `${testFailed}; ${result.message}`;
  }
  if (testFailed) result.pass = false;

  if (check.transform) {
    const transform = evaluateCel(check.transform.expr, celVariables);
    const list = transform.ok ? toTransformedList(transform.value) : transform;
    if (list.ok) {
      result.transformed = list.list;
    } else {
      return { ...result, pass: false, message: `transform expression failed: ${list.error}`, error: list.error };
    }
  }
  return result;
}

/**
 * Runs a probe under the check's budget and finishes its outcome into a result. Never throws:
 * a probe that throws, or outlives `context.signal`, becomes a failed result. Probes still get
 * the signal so they can close sockets and kill processes; the race here makes sure a probe
 * that ignores it cannot hold the scheduler.
 */
export async function runProbe(
  check: Templatable,
  context: CheckRunContext,
  probe: () => Promise<ProbeOutcome>,
): Promise<CheckResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (context.signal.aborted) {
    const message = abortedMessage(context);
    return { pass: false, durationMs: 0, message, error: message };
  }

  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    context.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const outcome = await Promise.race([
      probe().then(
        (value) => ({ kind: 'done' as const, value }),
        (error: unknown) => ({ kind: 'threw' as const, error }),
      ),
      aborted,
    ]);
    if (outcome === 'aborted' || (outcome.kind === 'threw' && context.signal.aborted)) {
      const message = abortedMessage(context);
      return { pass: false, durationMs: elapsed(), message, error: message };
    }
    if (outcome.kind === 'threw') {
      const { error } = outcome;
      if (error instanceof CheckFailure) {
        const result: CheckResult = { pass: false, durationMs: elapsed(), message: error.message };
        result.error = error.error ?? error.message;
        if (error.detail !== undefined) result.detail = error.detail;
        return result;
      }
      const text = errorText(error);
      return { pass: false, durationMs: elapsed(), message: `check failed: ${text}`, error: text };
    }
    const finished = applyExpressions(check, outcome.value);
    return { ...finished, durationMs: outcome.value.durationMs ?? elapsed() };
  } finally {
    if (onAbort) context.signal.removeEventListener('abort', onAbort);
  }
}

/** `secret 'pg' key 'password'` or `config map 'app' key 'url'`, for messages. */
export function describeValueFrom(ref: ValueFromRef): string {
  if (ref.secretKeyRef) return `secret '${ref.secretKeyRef.name}' key '${ref.secretKeyRef.key}'`;
  if (ref.configMapKeyRef) return `config map '${ref.configMapKeyRef.name}' key '${ref.configMapKeyRef.key}'`;
  return 'an empty reference';
}

/** Reads a secret-or-value field; a failed lookup stops the check with a {@link CheckFailure}. */
export async function resolveValue(
  field: SecretOrValue | NamedSecretOrValue,
  context: CheckRunContext,
  what: string,
): Promise<string> {
  if (field.value !== undefined) return field.value;
  if (!field.valueFrom) return '';
  try {
    return await context.resolveSecret(field.valueFrom);
  } catch (error) {
    // The reason goes in parentheses, not after a colon: "key 'password': reason" reads as a
    // credential to the result masking (maskSecretText), which would hide the reason's first word.
    throw new CheckFailure(`could not read ${what} from ${describeValueFrom(field.valueFrom)} (${errorText(error)})`);
  }
}

/** Resolves an optional secret-or-value field, keeping "absent" distinct from "empty". */
export async function resolveOptionalValue(
  field: SecretOrValue | undefined,
  context: CheckRunContext,
  what: string,
): Promise<string | undefined> {
  return field ? resolveValue(field, context, what) : undefined;
}
