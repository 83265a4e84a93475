import type { CanaryCheckEntry, CanaryCheckType } from '@lookout/contracts';
import type { Sandbox } from '../../../sandbox/sandbox.js';
import { alertmanagerRunner } from './alertmanager-runner.js';
import { resolveCheckConnection, type ConnectionResolver } from './check-connections.js';
import { dnsRunner } from './dns-runner.js';
import { execRunner } from './exec-runner.js';
import { folderRunner } from './folder-runner.js';
import { httpRunner } from './http-runner.js';
import { icmpRunner } from './icmp-runner.js';
import { mysqlRunner } from './mysql-runner.js';
import { postgresRunner } from './postgres-runner.js';
import { prometheusRunner } from './prometheus-runner.js';
import { redisRunner } from './redis-runner.js';
import { createRunContext } from './runner-harness.js';
import type { CheckResult, CheckRunner, SecretResolver } from './runner-types.js';
import { tcpRunner } from './tcp-runner.js';

/** One runner per check type; the type system keeps this table complete. */
export const CHECK_RUNNERS: { readonly [K in CanaryCheckType]: CheckRunner<K> } = {
  http: httpRunner,
  tcp: tcpRunner,
  icmp: icmpRunner,
  dns: dnsRunner,
  exec: execRunner,
  postgres: postgresRunner,
  mysql: mysqlRunner,
  redis: redisRunner,
  folder: folderRunner,
  prometheus: prometheusRunner,
  alertmanager: alertmanagerRunner,
};

/** How long a check may run when its caller does not say: canary-checker's default. */
export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;

/** Options for {@link runCheck}. */
export type RunCheckOptions = {
  resolveSecret: SecretResolver;
  /**
   * Reads the connection a check names (`connection://<namespace>/<name>`); without it such a
   * check fails saying connections are not available (check-connections.ts).
   */
  resolveConnection?: ConnectionResolver;
  /** The check's budget; it fails with `timed out after N ms` beyond it. */
  timeoutMs?: number;
  /** Cancels the run early, e.g. when the server shuts down. */
  signal?: AbortSignal;
  /**
   * Where exec scripts run and which paths are private (sandbox.ts). Without it exec checks
   * are refused; {@link createCheckRunner} binds the server's.
   */
  sandbox?: Sandbox;
};

/**
 * Runs one check of a canary (an entry from `listCanaryChecks`) with a time budget. Never
 * throws: whatever goes wrong comes back as a failed result that says why.
 */
export async function runCheck(given: CanaryCheckEntry, options: RunCheckOptions): Promise<CheckResult> {
  // A named connection is read first; failing to read it fails the check, saying why.
  const prepared = await resolveCheckConnection(given, options.resolveConnection);
  if (!prepared.ok) return { pass: false, durationMs: 0, message: prepared.message, error: prepared.message };
  const { entry } = prepared;
  const context = createRunContext({
    timeoutMs: options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
    resolveSecret: options.resolveSecret,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  // The table pairs each type with its runner; TypeScript cannot follow that through a union.
  const runner = CHECK_RUNNERS[entry.type] as CheckRunner<CanaryCheckType>;
  return runner.run(entry.check as never, context);
}

/**
 * {@link runCheck} bound to the server's sandbox, for the scheduler and Run Now: every check
 * they run gets it, whatever options they pass.
 */
export function createCheckRunner(sandbox: Sandbox): typeof runCheck {
  return (entry, options) => runCheck(entry, { ...options, sandbox });
}
