import { stripAnsi } from './linkify';

/** What the output pane shows for a step: its streams, or the whole result when it has none. */
export interface StepOutput {
  stdout?: string;
  stderr?: string;
  logs?: string;
  /** A result without those streams (an http response, sql rows), as JSON. */
  json?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? stripAnsi(value) : undefined);

/**
 * A step's output (ui-calls 3.7): `result.stdout`, `stderr` and `logs` when present, else the
 * whole result as JSON; undefined for an empty result ('No result').
 */
export function stepOutput(result: unknown): StepOutput | undefined {
  if (result === null || result === undefined) return undefined;
  if (isRecord(result)) {
    const output: StepOutput = {};
    const stdout = textOf(result.stdout);
    const stderr = textOf(result.stderr);
    const logs = textOf(result.logs);
    if (stdout) output.stdout = stdout;
    if (stderr) output.stderr = stderr;
    if (logs) output.logs = logs;
    if (stdout || stderr || logs) return output;
    if (Object.keys(result).length === 0) return undefined;
  }
  if (typeof result === 'string') return result ? { stdout: stripAnsi(result) } : undefined;
  return { json: JSON.stringify(result, null, 2) };
}
