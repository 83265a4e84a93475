import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { LogBackendSpec } from '@lookout/contracts';
import { DEFAULT_LOG_FILE_ROOTS, SETTINGS } from '../../config/config.js';
import { LogSourceError } from './log-source.js';

/**
 * The directories file and journald log backends may read (LOOKOUT_LOG_FILE_ROOTS, ADR 0043):
 * whoever may write `logging_backends` must not be able to read every file the server can
 * (/etc/shadow, the data directory's secret key) through POST /api/logs.
 *
 * Two checks: on save, each glob's fixed prefix and the journal directory are compared as
 * written (after `..` is folded), so a wrong backend is refused at once with a 400; on read,
 * every file and directory is compared after fs.realpath, so symbolic links and `..` inside a
 * glob cannot escape, and the resolved path is what gets opened.
 */

/** Absolute, normalised directories (config.ts parses them). */
export type LogFileRoots = readonly string[];

export const DEFAULT_ROOTS: LogFileRoots = [DEFAULT_LOG_FILE_ROOTS];

/** Whether `target` is `root` or lies below it: `/var/log2` is not inside `/var/log`. */
export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** Characters that start glob syntax (wildcards, classes, braces, extglobs) or escape it. */
const GLOB_SYNTAX = /[*?[\]{}()\\]/;

/**
 * The directory a glob cannot reach above: its text up to the last `/` before the first glob
 * character, as an absolute path with `..` folded. Cutting at a character rather than at a
 * segment keeps braces that span slashes (`{/etc,/var/log}/x`) from hiding a way out.
 */
export function fixedPrefix(pattern: string): string {
  const magic = pattern.search(GLOB_SYNTAX);
  if (magic < 0) return path.resolve(pattern);
  const slash = pattern.lastIndexOf('/', magic);
  return path.resolve(slash < 0 ? '.' : slash === 0 ? '/' : pattern.slice(0, slash));
}

/** "<what> is outside the directories log backends may read (LOOKOUT_LOG_FILE_ROOTS=...); ..." */
export function outsideRoots(what: string, roots: LogFileRoots): string {
  return (
    `${what} is outside the directories log backends may read ` +
    `(${SETTINGS.logFileRoots.env}=${roots.join(',')}); add its directory there to allow it`
  );
}

const insideAny = (roots: readonly string[], target: string) => roots.some((root) => isInside(root, target));

/** A `..` segment (also inside braces) in the glob part: the glob engine follows it up and out. */
const CLIMB = /(^|[/{,])\.\.($|[/},])/;

/**
 * What is wrong with a glob, or undefined: its fixed part outside every allowed directory, or a
 * `..` segment after a wildcard (the glob engine follows it), which would list files outside
 * and name them in the refusal of the read.
 */
function patternProblem(pattern: string, allowed: readonly string[], roots: LogFileRoots): string | undefined {
  const magic = pattern.search(GLOB_SYNTAX);
  if (magic >= 0 && CLIMB.test(pattern.slice(magic))) {
    return `${pattern} goes up with .. after a wildcard, which could leave the directories log backends may read; write it without ..`;
  }
  return insideAny(allowed, fixedPrefix(pattern)) ? undefined : outsideRoots(pattern, roots);
}

/**
 * The save-time problems of a spec, each naming its field: a file glob whose fixed prefix, or a
 * journal directory, lies outside every root, or a glob that climbs with `..` after a wildcard. The default journal (no directory) is allowed:
 * journalctl reads the system journal under its own permissions.
 */
export async function specRootProblems(spec: LogBackendSpec, roots: LogFileRoots): Promise<string[]> {
  if (!spec.file && spec.journald?.directory === undefined) return [];
  const allowed = await writtenOrReal(roots);
  const problems: string[] = [];
  spec.file?.paths.forEach((pattern, index) => {
    const problem = patternProblem(pattern, allowed, roots);
    if (problem) problems.push(`spec.file.paths[${index}]: ${problem}`);
  });
  const directory = spec.journald?.directory;
  if (directory !== undefined && !insideAny(allowed, path.resolve(directory))) {
    problems.push(`spec.journald.directory: ${outsideRoots(directory, roots)}`);
  }
  return problems;
}

/** The roots with their symbolic links resolved; a root that does not exist holds nothing yet. */
async function realRoots(roots: LogFileRoots): Promise<string[]> {
  return Promise.all(roots.map((root) => realpath(root).catch(() => root)));
}

/** The roots as configured and as resolved: a glob may be written either way (/tmp or /private/tmp). */
async function writtenOrReal(roots: LogFileRoots): Promise<string[]> {
  return [...new Set([...roots, ...(await realRoots(roots))])];
}

/** A backend whose stored spec asks for more than the roots allow: a conflict with the server's settings. */
const refused = (message: string) => new LogSourceError(message, 409);

/**
 * Where the read-time checks of one request live: the roots are resolved once per request (a
 * root created or re-linked since start counts), then each path is resolved and compared.
 */
export async function logFileGate(roots: LogFileRoots) {
  const real = await realRoots(roots);
  const allowed = [...new Set([...roots, ...real])];
  return {
    /** Refuses a glob whose fixed prefix is outside, before anything outside is listed. */
    checkPattern(pattern: string, field: string): void {
      const problem = patternProblem(pattern, allowed, roots);
      if (problem) throw refused(`${field}: ${problem}`);
    },
    /** The real path of a file or directory inside a root, else a refusal naming it. */
    async resolve(target: string, field: string): Promise<string> {
      let resolved: string;
      try {
        resolved = await realpath(target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new LogSourceError(`${field}: ${target} cannot be read (${code ?? String(error)})`);
      }
      if (!insideAny(real, resolved)) {
        const shown = resolved === target ? target : `${target} (really ${resolved})`;
        throw refused(`${field}: ${outsideRoots(shown, roots)}`);
      }
      return resolved;
    },
  };
}
