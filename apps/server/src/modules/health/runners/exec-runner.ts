import { spawn } from 'node:child_process';
import type { ExecCheck } from '@lookout/contracts';
import { CheckFailure, resolveValue, runProbe } from './runner-harness.js';
import { truncate } from './runner-fns.js';
import type { CheckRunContext, CheckRunner, ProbeOutcome } from './runner-types.js';

/** Output kept per stream for expressions; a check printing more is cut, not buffered forever. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Output kept per stream in the stored detail. */
const DETAIL_OUTPUT_CHARS = 8192;
const MESSAGE_OUTPUT_CHARS = 500;

type ScriptRun = {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
};

/**
 * The environment a script sees: a few basics plus the check's own `env`. The server's own
 * environment (database URL, encryption key) is deliberately not passed on.
 */
function scriptEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'USER']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

function runScript(script: string, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    // Its own process group, so a timeout kills the script's children (sleep, curl) too;
    // otherwise they would keep the pipes open and the run would never end.
    const child = spawn('bash', ['-c', script], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncated = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (outBytes < MAX_OUTPUT_BYTES) out.push(chunk);
      else truncated = true;
      outBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errBytes < MAX_OUTPUT_BYTES) err.push(chunk);
      else truncated = true;
      errBytes += chunk.length;
    });
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    signal.addEventListener('abort', kill, { once: true });
    child.once('error', (error) => {
      signal.removeEventListener('abort', kill);
      reject(error);
    });
    child.once('close', (exitCode, exitSignal) => {
      signal.removeEventListener('abort', kill);
      resolve({
        exitCode,
        signal: exitSignal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        truncated,
      });
    });
  });
}

/** The last non-empty lines of output, which usually carry the error. */
function tail(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `…${trimmed.slice(trimmed.length - max + 1)}`;
}

async function probe(check: ExecCheck, context: CheckRunContext): Promise<ProbeOutcome> {
  const extra: Record<string, string> = {};
  for (const variable of check.env ?? []) {
    extra[variable.name] = await resolveValue(variable, context, `variable ${variable.name}`);
  }
  let run: ScriptRun;
  try {
    run = await runScript(check.script, scriptEnvironment(extra), context.signal);
  } catch (error) {
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

/** exec checks: a bash script; exit code 0 passes, output becomes the message. */
export const execRunner: CheckRunner<'exec'> = {
  type: 'exec',
  run: (check, context) => runProbe(check, context, () => probe(check, context)),
};
