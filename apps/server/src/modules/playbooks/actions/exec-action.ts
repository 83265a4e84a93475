import path from 'node:path';
import { PLAYBOOK_DEFAULTS } from '@lookout/contracts';
import { SandboxRefusedError } from '../../../sandbox/sandbox.js';
import { errorText, keepSecret, type ActionRunner } from './action-types.js';

const envName = (prefix: string, suffix: string) => `${prefix.toUpperCase()}_${suffix}`;

/**
 * `exec`: a bash script run in the server's sandbox (ADR 0010), like exec checks: it sees only
 * the env it declares (values, secret or config map keys) and its connections as
 * `<NAME>_URL` / `_USERNAME` / `_PASSWORD`. `files` are written next to the script first (its
 * working folder), by a prelude that reads them from the environment, so nothing is written
 * outside the sandbox. Aborting (timeout, cancel) kills the script's whole process tree.
 */
export const runExec: ActionRunner<'exec'> = async (spec, context) => {
  if (!context.sandbox)
    return { ok: false, result: {}, error: 'exec actions are not enabled on this server (no sandbox)' };
  const env: Record<string, string> = {};
  try {
    for (const variable of spec.env ?? []) {
      if (variable.value !== undefined) env[variable.name] = variable.value;
      else if (variable.valueFrom && context.resolveValueFrom) {
        const value = await context.resolveValueFrom(variable.valueFrom, context.namespace);
        keepSecret(context, value);
        env[variable.name] = value;
      }
    }
    for (const entry of spec.connections ?? []) {
      const connection = await context.resolveConnection(entry.connection);
      keepSecret(context, connection.password);
      if (connection.url) env[envName(entry.name, 'URL')] = connection.url;
      if (connection.username) env[envName(entry.name, 'USERNAME')] = connection.username;
      if (connection.password) env[envName(entry.name, 'PASSWORD')] = connection.password;
    }
  } catch (error) {
    return { ok: false, result: {}, error: errorText(error) };
  }
  let prelude = '';
  (spec.files ?? []).forEach((file, index) => {
    const key = `LOOKOUT_FILE_${index}`;
    env[key] = file.content;
    const target = path.posix.normalize(file.path);
    if (target.startsWith('..')) return;
    const quoted = `'${target.replace(/'/g, `'\\''`)}'`;
    prelude += `mkdir -p "$(dirname ${quoted})" && printf '%s' "$${key}" > ${quoted} && unset ${key}\n`;
  });
  try {
    const run = await context.sandbox.run({
      argv: ['bash', '-c', `${prelude}${spec.script}`],
      env,
      signal: context.signal,
      maxOutputBytes: PLAYBOOK_DEFAULTS.outputBytes,
    });
    const result = {
      stdout: run.stdout,
      stderr: run.stderr,
      exitCode: run.exitCode,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.truncated ? { truncated: true } : {}),
    };
    if (context.signal.aborted) return { ok: false, result, error: `killed: ${errorText(context.signal.reason)}` };
    if (run.signal) return { ok: false, result, error: `script was killed by ${run.signal}` };
    if (run.exitCode !== 0) {
      const tail = run.stderr.trim().split('\n').slice(-3).join('\n');
      return { ok: false, result, error: `script exited with code ${run.exitCode}${tail ? `: ${tail}` : ''}` };
    }
    return { ok: true, result };
  } catch (error) {
    if (error instanceof SandboxRefusedError) return { ok: false, result: {}, error: error.message };
    return { ok: false, result: {}, error: errorText(error) };
  }
};
