import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Directories an area may read host files from (ADR 0043, 0046): whoever may write the rows
 * that name files (log backends, catalog scrapers) must not be able to read every file the
 * server can (/etc/shadow, the data directory's secret key). One setting per area lists the
 * roots; this module holds the checks they share.
 *
 * Two checks: on save, a glob's fixed prefix (or a directory) is compared as written (after
 * `..` is folded), so a wrong row is refused at once; on read, every file and directory is
 * compared after fs.realpath, so symbolic links and `..` inside a glob cannot escape, and the
 * resolved path is what gets opened.
 */

/** Absolute, normalised directories (config.ts parses them). */
export type AllowedRoots = readonly string[];

/** Whose roots: the setting that lists them and who reads under them, as messages name them. */
export type RootsRule = { setting: string; readers: string };

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

/** "<what> is outside the directories <readers> may read (<SETTING>=...); add its directory there to allow it" */
export function outsideRoots(what: string, roots: AllowedRoots, rule: RootsRule): string {
  return (
    `${what} is outside the directories ${rule.readers} may read ` +
    `(${rule.setting}=${roots.join(',')}); add its directory there to allow it`
  );
}

const insideAny = (roots: readonly string[], target: string) => roots.some((root) => isInside(root, target));

/** A `..` segment (also inside braces) in the glob part: the glob engine follows it up and out. */
const CLIMB = /(^|[/{,])\.\.($|[/},])/;

/** The roots with their symbolic links resolved; a root that does not exist holds nothing yet. */
async function realRoots(roots: AllowedRoots): Promise<string[]> {
  return Promise.all(roots.map((root) => realpath(root).catch(() => root)));
}

/**
 * The checks of paths as written, with the roots resolved once: a glob or directory may be
 * written through a root or its real path (/tmp or /private/tmp). Each answers the problem, or
 * undefined.
 */
export async function writtenPathChecks(roots: AllowedRoots, rule: RootsRule) {
  const allowed = [...new Set([...roots, ...(await realRoots(roots))])];
  return {
    /**
     * A glob whose fixed part is outside every root, or one with a `..` segment after a
     * wildcard (the glob engine follows it, and would list and name files outside).
     */
    glob(pattern: string): string | undefined {
      const magic = pattern.search(GLOB_SYNTAX);
      if (magic >= 0 && CLIMB.test(pattern.slice(magic))) {
        return `${pattern} goes up with .. after a wildcard, which could leave the directories ${rule.readers} may read; write it without ..`;
      }
      return insideAny(allowed, fixedPrefix(pattern)) ? undefined : outsideRoots(pattern, roots, rule);
    },
    /** A directory outside every root. */
    directory(directory: string): string | undefined {
      return insideAny(allowed, path.resolve(directory)) ? undefined : outsideRoots(directory, roots, rule);
    },
  };
}

/** How a gate reports a refusal: each area throws its own error type (a log source's status, a scrape's). */
export type GateErrors = {
  /** A path outside every root (the message names it, the setting and how to allow it). */
  outside: (message: string) => Error;
  /** A path that cannot be resolved (missing, unreadable). */
  unreadable: (message: string) => Error;
};

/**
 * The read-time checks of one read: the roots are resolved once per read (a root created or
 * re-linked since start counts), then each path is resolved and compared.
 */
export async function allowedRootsGate(roots: AllowedRoots, rule: RootsRule, errors: GateErrors) {
  const real = await realRoots(roots);
  const written = await writtenPathChecks(roots, rule);
  return {
    /** Refuses a glob whose fixed prefix is outside, before anything outside is listed. */
    checkPattern(pattern: string, field: string): void {
      const problem = written.glob(pattern);
      if (problem) throw errors.outside(`${field}: ${problem}`);
    },
    /** The real path of a file or directory inside a root, else a refusal naming it. */
    async resolve(target: string, field: string): Promise<string> {
      let resolved: string;
      try {
        resolved = await realpath(target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw errors.unreadable(`${field}: ${target} cannot be read (${code ?? String(error)})`);
      }
      if (!insideAny(real, resolved)) {
        const shown = resolved === target ? target : `${target} (really ${resolved})`;
        throw errors.outside(`${field}: ${outsideRoots(shown, roots, rule)}`);
      }
      return resolved;
    },
  };
}
