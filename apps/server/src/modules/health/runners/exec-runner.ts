import type { ExecCheck } from '@lookout/contracts';
import { SandboxRefusedError } from '../../../sandbox/sandbox.js';
import type { CommandOutput } from '../../../sandbox/sandbox-process.js';
import { CheckFailure, resolveValue, runProbe } from './runner-harness.js';
import { truncate } from './runner-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

/** Output kept per stream for expressions; a check printing more is cut, not buffered forever. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Output kept per stream in the stored detail. */
const DETAIL_OUTPUT_CHARS = 8192;
const MESSAGE_OUTPUT_CHARS = 500;

/** The last non-empty lines of output, which usually carry the error. */
function tail(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `…${trimmed.slice(trimmed.length - max + 1)}`;
}

async function probe(check: ExecCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  // The script sees the check's own `env` and a few basics; the server's environment (database
  // URL, secret key) and its files stay out of reach (sandbox.ts, ADR 0010).
  const env: Record<string, string> = {};
  for (const variable of check.env ?? []) {
    env[variable.name] = await resolveValue(variable, context, `variable ${variable.name}`);
  }
  let run: CommandOutput;
  try {
    run = await context.sandbox.run({
      argv: ['bash', '-c', check.script],
      env,
      signal: context.signal,
      maxOutputBytes: MAX_OUTPUT_BYTES,
    });
  } catch (error) {
    if (error instanceof SandboxRefusedError) throw new CheckFailure(error.message);
    if ((error as { code?: unknown }).code === 'ENOENT') {
      throw new CheckFailure('bash is not installed on this server');
    }
    throw error;
  }
  const detail = {
    exitCode: run.exitCode,
    ...(run.signal ? { signal: run.signal } : {}),
    stdout: truncate(run.stdout, DETAIL_OUTPUT_CHARS),
    stderr: truncate(run.stderr, DETAIL_OUTPUT_CHARS),
    ...(run.truncated ? { truncated: true } : {}),
  };
  const celVariables = { results: { stdout: run.stdout, stderr: run.stderr, exitCode: run.exitCode ?? -1 } };
  if (run.signal) {
    return {
      pass: false,
      message: `script was killed by ${run.signal}`,
      error: `killed by ${run.signal}`,
      detail,
      celVariables,
    };
  }
  // With a test expression the test alone decides (canary-checker's default test is
  // `results.exitCode == 0`), so a script may pass on another exit code when asked to.
  const exitOk = run.exitCode === 0;
  const pass = check.test ? true : exitOk;
  if (!pass) {
    const output = tail(run.stderr, MESSAGE_OUTPUT_CHARS) || tail(run.stdout, MESSAGE_OUTPUT_CHARS);
    return {
      pass: false,
      message: `script exited with code ${run.exitCode}${output ? `: ${output}` : ''}`,
      error: tail(run.stderr, MESSAGE_OUTPUT_CHARS) || `exit code ${run.exitCode}`,
      detail,
      celVariables,
    };
  }
  const output = tail(run.stdout, MESSAGE_OUTPUT_CHARS);
  return { pass: true, message: output || `script exited with code ${run.exitCode}`, detail, celVariables };
}

/**
 * exec checks: a bash script, run in the server's sandbox; exit code 0 passes, output becomes
 * the message.
 */
export const execRunner: CheckRunner<'exec'> = {
  type: 'exec',
  run: (check, context) => runProbe(check, context, () => probe(check, context)),
};
