import { execFile } from 'node:child_process';
import type { LogBackendSpec, LogLine, LogsResponse } from '@lookout/contracts';
import { logFileGate, type LogFileRoots } from './log-file-roots.js';
import { LogSourceError, type LogSourceQuery } from './log-source.js';

const TIMEOUT_MS = 30_000;
const MAX_OUTPUT = 64 * 1024 * 1024;
const LABEL_FIELDS = ['_SYSTEMD_UNIT', 'SYSLOG_IDENTIFIER', 'PRIORITY', '_HOSTNAME', '_PID', '_COMM'];

/** The arguments of `journalctl` for a query: newest first, JSON, the selector's labels as field matches. */
export function journalctlArgs(spec: NonNullable<LogBackendSpec['journald']>, query: LogSourceQuery): string[] {
  const args = ['--output=json', '--no-pager', '--reverse', `--lines=${query.limit}`, '--quiet'];
  if (spec.directory) args.push(`--directory=${spec.directory}`);
  if (spec.namespace) args.push(`--namespace=${spec.namespace}`);
  if (spec.unit) args.push(`--unit=${spec.unit}`);
  if (query.startMs !== undefined) args.push(`--since=@${Math.floor(query.startMs / 1000)}`);
  if (query.endMs !== undefined) args.push(`--until=@${Math.ceil(query.endMs / 1000)}`);
  // --grep takes a PCRE2 pattern: the query is searched as written, so it is escaped.
  if (query.query) args.push(`--grep=${query.query.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')}`, '--case-sensitive=true');
  for (const [key, value] of Object.entries(query.labels ?? {})) {
    if (/^[A-Z0-9_]+$/.test(key)) args.push(`${key}=${value}`);
  }
  return args;
}

/** One entry of `journalctl --output=json`: MESSAGE may be text or a byte array. */
export function journalLine(text: string): LogLine | undefined {
  if (text.trim() === '') return undefined;
  const entry = JSON.parse(text) as Record<string, unknown>;
  const raw = entry.MESSAGE;
  const message = Array.isArray(raw) ? Buffer.from(raw as number[]).toString('utf8') : String(raw ?? '');
  const micros = Number(entry.__REALTIME_TIMESTAMP);
  const labels: Record<string, string> = {};
  for (const field of LABEL_FIELDS) if (typeof entry[field] === 'string') labels[field] = entry[field] as string;
  return { timestamp: new Date(Number.isFinite(micros) ? micros / 1000 : 0).toISOString(), message, labels };
}

/**
 * journald through `journalctl` on the machine Lookout runs on. A journal `directory` must lie
 * under LOOKOUT_LOG_FILE_ROOTS once its links are resolved, and the resolved one is passed on;
 * the default journal is journalctl's to open under its own permissions.
 */
export async function readJournalLogs(
  spec: NonNullable<LogBackendSpec['journald']>,
  query: LogSourceQuery,
  roots: LogFileRoots,
): Promise<LogsResponse> {
  const directory =
    spec.directory === undefined
      ? undefined
      : await (await logFileGate(roots)).resolve(spec.directory, 'spec.journald.directory');
  const args = journalctlArgs({ ...spec, ...(directory === undefined ? {} : { directory }) }, query);
  return new Promise((resolve, reject) => {
    execFile(
      'journalctl',
      args,
      { timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT, encoding: 'utf8' },
      (error, stdout, stderr) => {
        // journalctl exits 1 when --grep finds nothing: that is an empty answer, not a failure.
        if (error && !(query.query && stdout === '' && stderr.trim() === '')) {
          const reason =
            (error as NodeJS.ErrnoException).code === 'ENOENT'
              ? 'journalctl is not installed here'
              : stderr.trim() || error.message;
          reject(new LogSourceError(`journald: ${reason}`));
          return;
        }
        try {
          const lines = stdout
            .split('\n')
            .map(journalLine)
            .filter((line): line is LogLine => line !== undefined);
          resolve({ total: lines.length, results: lines });
        } catch (parseError) {
          reject(new LogSourceError(`journald: unreadable journalctl output (${String(parseError)})`));
        }
      },
    );
  });
}
