import type { ScrapeConfigSpec } from '@lookout/contracts';
import { DEFAULT_SCRAPE_FILE_ROOTS, SETTINGS } from '../../../config/config.js';
import {
  allowedRootsGate,
  writtenPathChecks,
  type AllowedRoots,
  type RootsRule,
} from '../../../files/allowed-roots.js';

/**
 * The directories the catalog's `file` and `kubernetesFile` scrapers may read on this host
 * (LOOKOUT_SCRAPE_FILE_ROOTS, ADR 0046): whoever may write `config_scrapers` must not be able to
 * copy /etc/shadow or the data directory's secret key into a config item. The checks are the
 * log backends' (files/allowed-roots.ts) with the catalog's setting. A file entry with `url` or
 * `connection` reads inside a git checkout instead, which file-scraper.ts keeps it inside.
 */

export const DEFAULT_SCRAPE_ROOTS: AllowedRoots = [DEFAULT_SCRAPE_FILE_ROOTS];

export const SCRAPE_ROOTS_RULE: RootsRule = { setting: SETTINGS.scrapeFileRoots.env, readers: 'file scrapers' };

/** A file entry that reads host paths rather than a repository's. */
export const readsHostFiles = (entry: { url?: string | undefined; connection?: string | undefined }) =>
  !entry.url && !entry.connection;

/** Every host path or glob of a spec, with the field that holds it (`spec.file[0].paths[1]`). */
function hostPaths(spec: ScrapeConfigSpec): Array<{ field: string; pattern: string }> {
  const file = (spec.file ?? []).flatMap((entry, i) =>
    readsHostFiles(entry) ? entry.paths.map((pattern, j) => ({ field: `spec.file[${i}].paths[${j}]`, pattern })) : [],
  );
  const kubernetesFile = (spec.kubernetesFile ?? []).flatMap((entry, i) =>
    entry.files.flatMap((files, k) =>
      files.path.map((pattern, j) => ({ field: `spec.kubernetesFile[${i}].files[${k}].path[${j}]`, pattern })),
    ),
  );
  return [...file, ...kubernetesFile];
}

/**
 * The save-time problems of a valid spec, each naming its field: a host path or glob whose
 * fixed part lies outside every root (relative ones are taken from the server's working
 * directory, as the scraper reads them), or a glob that climbs with `..` after a wildcard.
 */
export async function scrapeSpecRootProblems(spec: ScrapeConfigSpec, roots: AllowedRoots): Promise<string[]> {
  const paths = hostPaths(spec);
  if (paths.length === 0) return [];
  const check = await writtenPathChecks(roots, SCRAPE_ROOTS_RULE);
  return paths.flatMap(({ field, pattern }) => {
    const problem = check.glob(pattern);
    return problem ? [`${field}: ${problem}`] : [];
  });
}

/**
 * The read-time checks of one entry: a glob outside is refused before it is listed, and each
 * matched file must resolve (links followed) to a path under a root. A refusal fails the whole
 * entry, so the run reports it and deletes nothing it stored before.
 */
export function scrapeFileGate(roots: AllowedRoots) {
  return allowedRootsGate(roots, SCRAPE_ROOTS_RULE, {
    outside: (message) => new OutsideScrapeRootsError(message),
    unreadable: (message) => new Error(message),
  });
}

/** A path outside LOOKOUT_SCRAPE_FILE_ROOTS: the entry fails, unlike one file that cannot be read. */
export class OutsideScrapeRootsError extends Error {
  override name = 'OutsideScrapeRootsError';
}
