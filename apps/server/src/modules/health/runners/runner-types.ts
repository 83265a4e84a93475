import type { CanaryCheckSpecs, CanaryCheckType, ValueFromRef } from '@lookout/contracts';
import type { Sandbox } from '../../../sandbox/sandbox.js';

/** What one run of one check produced. This is what a `check_statuses` row is made from. */
export type CheckResult = {
  pass: boolean;
  /** Wall time of the check, or of the measured operation (the HTTP exchange, the ping). */
  durationMs: number;
  /** Why it passed or failed, written for a responder: `expected status 200, got 503`. */
  message: string;
  /** The low-level error text when the check could not complete (refused, timed out, bad SQL). */
  error?: string;
  /** What the check saw (status, rows, files, alerts), JSON-safe, for the drawer's detail view. */
  detail?: unknown;
  /** Results of the `transform` expression: each becomes a derived check later. */
  transformed?: unknown[];
};

/**
 * Reads one key of a secret or config map. The real resolver (encrypted secrets, config maps)
 * comes with the connections work; runners only ever see this function.
 */
export type SecretResolver = (ref: ValueFromRef) => Promise<string>;

/** Everything a runner gets besides its check. */
export type CheckRunContext = {
  /** Aborts when the check's time is up or the caller cancels; runners stop their I/O on it. */
  signal: AbortSignal;
  /** The budget behind `signal`, so a timeout can say `timed out after N ms`. */
  timeoutMs: number;
  resolveSecret: SecretResolver;
  /**
   * Where exec scripts run, isolated from Lookout, and which paths (the data directory) no
   * check may read or list.
   */
  sandbox: Sandbox;
};

/** A check runner: never throws; every problem becomes a failed {@link CheckResult}. */
export type CheckRunner<K extends CanaryCheckType> = {
  readonly type: K;
  run(check: CanaryCheckSpecs[K], context: CheckRunContext): Promise<CheckResult>;
};

/**
 * What a runner's own probe returns before the shared steps (CEL test/display/transform,
 * duration, timeout handling) finish it into a {@link CheckResult}.
 */
export type ProbeOutcome = {
  pass: boolean;
  message: string;
  error?: string;
  detail?: unknown;
  /** Overrides the measured wall time when the probe timed something narrower. */
  durationMs?: number;
  /**
   * Variables for the check's CEL expressions (`code`, `json`, `results`, ...). Absent when the
   * probe failed before it saw anything to test, so expressions are not evaluated then.
   */
  celVariables?: Record<string, unknown>;
};
