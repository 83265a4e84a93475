import type { LogBackendSpec } from '@lookout/contracts';
import { DEFAULT_LOG_FILE_ROOTS, SETTINGS } from '../../config/config.js';
import {
  allowedRootsGate,
  outsideRoots as outsideAllowedRoots,
  writtenPathChecks,
  type AllowedRoots,
  type RootsRule,
} from '../../files/allowed-roots.js';
import { LogSourceError } from './log-source.js';

/**
 * The directories file and journald log backends may read (LOOKOUT_LOG_FILE_ROOTS, ADR 0043):
 * whoever may write `logging_backends` must not be able to read every file the server can
 * (/etc/shadow, the data directory's secret key) through POST /api/logs. The checks themselves
 * are shared with the catalog's file scrapers (files/allowed-roots.ts); this module applies
 * them to a backend's spec, with the logs' setting, wording and statuses.
 */

/** Absolute, normalised directories (config.ts parses them). */
export type LogFileRoots = AllowedRoots;

export const DEFAULT_ROOTS: LogFileRoots = [DEFAULT_LOG_FILE_ROOTS];

const LOG_ROOTS_RULE: RootsRule = { setting: SETTINGS.logFileRoots.env, readers: 'log backends' };

/** "<what> is outside the directories log backends may read (LOOKOUT_LOG_FILE_ROOTS=...); ..." */
export function outsideRoots(what: string, roots: LogFileRoots): string {
  return outsideAllowedRoots(what, roots, LOG_ROOTS_RULE);
}

/**
 * The save-time problems of a spec, each naming its field: a file glob whose fixed prefix, or a
 * journal directory, lies outside every root, or a glob that climbs with `..` after a wildcard.
 * The default journal (no directory) is allowed: journalctl reads the system journal under its
 * own permissions.
 */
export async function specRootProblems(spec: LogBackendSpec, roots: LogFileRoots): Promise<string[]> {
  if (!spec.file && spec.journald?.directory === undefined) return [];
  const check = await writtenPathChecks(roots, LOG_ROOTS_RULE);
  const problems: string[] = [];
  spec.file?.paths.forEach((pattern, index) => {
    const problem = check.glob(pattern);
    if (problem) problems.push(`spec.file.paths[${index}]: ${problem}`);
  });
  const directory = spec.journald?.directory;
  const problem = directory === undefined ? undefined : check.directory(directory);
  if (problem) problems.push(`spec.journald.directory: ${problem}`);
  return problems;
}

/**
 * The read-time checks of one request. A backend whose stored spec asks for more than the roots
 * allow is a conflict with the server's settings (409); a path that cannot be resolved is the
 * source's failure (502).
 */
export function logFileGate(roots: LogFileRoots) {
  return allowedRootsGate(roots, LOG_ROOTS_RULE, {
    outside: (message) => new LogSourceError(message, 409),
    unreadable: (message) => new LogSourceError(message),
  });
}
