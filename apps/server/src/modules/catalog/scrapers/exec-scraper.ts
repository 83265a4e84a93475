import { SandboxRefusedError, type Sandbox } from '../../../sandbox/sandbox.js';
import type { FetchResult } from '../scrape-engine.js';
import { plainValue } from './scraper-connections.js';

/**
 * The `exec` scraper: a bash script run in the server's sandbox (ADR 0010: bubblewrap or
 * `nobody`, a scratch folder, a clean environment, killed after its time) whose standard output
 * is JSON: a list gives one document per entry, anything else one document. A script that
 * exits non-zero, or prints no JSON, is the entry's error.
 */

export type ExecEntry = {
  script: string;
  env?: Array<{ name: string; value?: unknown }> | undefined;
};

const SCRIPT_TIMEOUT_MS = 60_000;
/** Output kept of a script: more than the items of a scraper may need. */
const MAX_OUTPUT_BYTES = 20 * 1024 * 1024;
const STDERR_SHOWN = 500;

const tail = (text: string) => {
  const trimmed = text.trim();
  return trimmed.length <= STDERR_SHOWN ? trimmed : `…${trimmed.slice(trimmed.length - STDERR_SHOWN)}`;
};

export async function scrapeExec(entry: ExecEntry, sandbox: Sandbox | undefined): Promise<FetchResult> {
  // Without the sandbox a script would run as the server: refuse (fail closed).
  if (!sandbox) throw new Error('exec scrapers need the script sandbox, which this server did not set up');
  const env: Record<string, string> = {};
  for (const [index, variable] of (entry.env ?? []).entries()) {
    const value = plainValue(`env[${index}]`, variable.value);
    if (value !== undefined) env[variable.name] = value;
  }
  let run;
  try {
    run = await sandbox.run({
      argv: ['bash', '-c', entry.script],
      env,
      signal: AbortSignal.timeout(SCRIPT_TIMEOUT_MS),
      maxOutputBytes: MAX_OUTPUT_BYTES,
    });
  } catch (error) {
    if (error instanceof SandboxRefusedError) throw new Error(error.message);
    throw error;
  }
  if (run.signal)
    throw new Error(`the script was killed by ${run.signal} (it may run at most ${SCRIPT_TIMEOUT_MS / 1000} s)`);
  if (run.exitCode !== 0) {
    const output = tail(run.stderr) || tail(run.stdout);
    throw new Error(`the script exited with code ${run.exitCode}${output ? `: ${output}` : ''}`);
  }
  if (run.truncated) throw new Error(`the script printed more than ${MAX_OUTPUT_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(run.stdout);
  } catch (error) {
    throw new Error(`the script did not print JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const values = Array.isArray(parsed) ? parsed : [parsed];
  return {
    documents: values.map((document, index) => ({
      source: values.length > 1 ? `exec output item ${index}` : 'exec output',
      document,
    })),
    errors: [],
  };
}
