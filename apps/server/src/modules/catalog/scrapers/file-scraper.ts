import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { SCRAPE_ENGINE_LIMITS } from '@lookout/contracts';
import { glob } from 'tinyglobby';
import { parseAllDocuments } from 'yaml';
import type { AllowedRoots } from '../../../files/allowed-roots.js';
import type { ScrapedDocument } from '../scrape-item-fns.js';
import { checkout, type GitSource } from './git-checkout.js';
import type { ScrapeConnectionResolver } from './scraper-connections.js';
import { DEFAULT_SCRAPE_ROOTS, OutsideScrapeRootsError, scrapeFileGate } from './scrape-file-roots.js';

/**
 * The `file` scraper: local paths and globs of YAML or JSON files. Each file gives one document
 * per YAML document (`---`), or one for JSON; an empty document is skipped. Without an `id`
 * expression a document is identified by its file path (with `#n` for the n-th document).
 * A path or glob that matches nothing is not an error: its files are gone, so are their items.
 * With `url` (and a git `connection` for credentials and ref) the paths are read inside a
 * shallow checkout of that repository (git-checkout.ts), and never outside it. Without, only
 * files whose real path lies under LOOKOUT_SCRAPE_FILE_ROOTS are read (scrape-file-roots.ts): a
 * glob or a link reaching further fails the entry, naming the file and the setting.
 */

export type FileEntry = {
  paths: string[];
  ignore?: string[] | undefined;
  url?: string | undefined;
  connection?: string | undefined;
  format?: 'json' | 'yaml' | 'properties' | undefined;
};

export type FileScrape = { documents: ScrapedDocument[]; errors: string[] };

function parseFile(file: string, text: string, format: FileEntry['format']): unknown[] {
  const asJson = format === 'json' || (format === undefined && file.toLowerCase().endsWith('.json'));
  if (asJson) return [JSON.parse(text) as unknown];
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents)) return []; // an empty stream
  const values: unknown[] = [];
  for (const document of documents) {
    if (document.errors.length > 0) throw new Error(document.errors[0]!.message.split('\n')[0]);
    const value = document.toJS({ maxAliasCount: 100 }) as unknown;
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}

/** The repository of an entry: its url (go-getter's `git::` prefix and `?ref=` understood) and its connection. */
async function gitSource(
  entry: FileEntry,
  context: { namespace: string; resolveConnection?: ScrapeConnectionResolver | undefined },
): Promise<GitSource> {
  let url = entry.url?.replace(/^git::/, '');
  let ref: string | undefined;
  let username: string | undefined;
  let password: string | undefined;
  if (entry.connection) {
    if (!context.resolveConnection)
      throw new Error(`connection '${entry.connection}': connections are not available here`);
    const connection = await context.resolveConnection(entry.connection, context.namespace);
    if (connection.type !== 'git')
      throw new Error(`connection '${entry.connection}' is a ${connection.type} connection, not git`);
    url ??= connection.url;
    ref = connection.properties?.ref?.trim() || undefined;
    username = connection.username;
    password = connection.password;
  }
  if (!url) throw new Error('url: the entry and its connection have no repository url');
  const query = /^(.*)\?ref=([^&]+)$/.exec(url);
  if (query) {
    url = query[1]!;
    ref = decodeURIComponent(query[2]!);
  }
  return { url, ref: ref ?? 'main', username, password };
}

export type FileScrapeContext = {
  namespace: string;
  resolveConnection?: ScrapeConnectionResolver | undefined;
  /** Where the checkouts of entries with `url` are kept. */
  gitCacheDir?: string | undefined;
  /** LOOKOUT_SCRAPE_FILE_ROOTS: the only host directories read (default /etc/lookout/catalog). */
  fileRoots?: AllowedRoots | undefined;
  /** How refusals name the entry's paths (`paths`, kubernetesFile's `files.path`). */
  field?: string;
};

/** The documents of a file entry; unreadable or malformed files are errors naming the file. */
export async function scrapeFiles(
  entry: FileEntry,
  baseDir = process.cwd(),
  context: FileScrapeContext = { namespace: 'default' },
): Promise<FileScrape> {
  const field = context.field ?? 'paths';
  let root: string | undefined;
  let gate: Awaited<ReturnType<typeof scrapeFileGate>> | undefined;
  if (entry.url || entry.connection) {
    const outside = entry.paths.find((pattern) => path.isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..'));
    if (outside) throw new Error(`paths: '${outside}' is outside the repository; give paths relative to its root`);
    baseDir = await checkout(await gitSource(entry, context), context.gitCacheDir);
    root = await realpath(baseDir);
  } else {
    gate = await scrapeFileGate(context.fileRoots ?? DEFAULT_SCRAPE_ROOTS);
  }
  const errors: string[] = [];
  const files = new Set<string>();
  for (const [index, pattern] of entry.paths.entries()) {
    const absolute = path.isAbsolute(pattern) ? pattern : path.join(baseDir, pattern);
    // Before anything is listed: a glob outside the roots would name files outside in its errors.
    gate?.checkPattern(absolute, `${field}[${index}]`);
    const matches = await glob(absolute, {
      absolute: true,
      onlyFiles: true,
      dot: false,
      ignore: entry.ignore ?? [],
      expandDirectories: false,
    });
    for (const match of matches.sort()) files.add(match);
  }
  const documents: ScrapedDocument[] = [];
  let read = 0;
  for (const file of files) {
    if (++read > SCRAPE_ENGINE_LIMITS.filesPerScraper) {
      errors.push(`more than ${SCRAPE_ENGINE_LIMITS.filesPerScraper} files matched; the rest were left out`);
      break;
    }
    try {
      // A link in a repository must not lead the scraper to a file of this server.
      if (root && !(await realpath(file)).startsWith(root + path.sep)) {
        errors.push(`${path.relative(baseDir, file)}: links outside the repository; left out`);
        continue;
      }
      // A host file is read at its real path, checked under the roots (a link swapped later cannot redirect it).
      const real = gate ? await gate.resolve(file, field) : file;
      const info = await stat(real);
      if (info.size > SCRAPE_ENGINE_LIMITS.fileBytes) {
        errors.push(`${file}: ${info.size} bytes is more than the ${SCRAPE_ENGINE_LIMITS.fileBytes} a file may have`);
        continue;
      }
      const values = parseFile(file, await readFile(real, 'utf8'), entry.format);
      // In a checkout the path inside the repository names the file (the cache folder may move).
      const name = root ? path.relative(baseDir, file) : file;
      for (const [index, document] of values.entries()) {
        const source = values.length > 1 ? `${name}#${index}` : name;
        documents.push({ source, document, defaults: { id: source, name: path.basename(file) } });
      }
    } catch (error) {
      if (error instanceof OutsideScrapeRootsError) throw error;
      errors.push(`${file}: ${(error as Error).message}`);
    }
  }
  return { documents, errors };
}
