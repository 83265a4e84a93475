import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { SCRAPE_ENGINE_LIMITS } from '@lookout/contracts';
import { glob } from 'tinyglobby';
import { parseAllDocuments } from 'yaml';
import type { ScrapedDocument } from '../scrape-item-fns.js';

/**
 * The `file` scraper: local paths and globs of YAML or JSON files. Each file gives one document
 * per YAML document (`---`), or one for JSON; an empty document is skipped. Without an `id`
 * expression a document is identified by its file path (with `#n` for the n-th document).
 * A path or glob that matches nothing is not an error: its files are gone, so are their items.
 */

export type FileEntry = {
  paths: string[];
  ignore?: string[] | undefined;
  url?: string | undefined;
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

/** The documents of a file entry; unreadable or malformed files are errors naming the file. */
export async function scrapeFiles(entry: FileEntry, baseDir = process.cwd()): Promise<FileScrape> {
  if (entry.url) {
    return {
      documents: [],
      errors: [`file scraper with url '${entry.url}': git checkouts are not supported by this build; use local paths`],
    };
  }
  const errors: string[] = [];
  const files = new Set<string>();
  for (const pattern of entry.paths) {
    const absolute = path.isAbsolute(pattern) ? pattern : path.join(baseDir, pattern);
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
      const info = await stat(file);
      if (info.size > SCRAPE_ENGINE_LIMITS.fileBytes) {
        errors.push(`${file}: ${info.size} bytes is more than the ${SCRAPE_ENGINE_LIMITS.fileBytes} a file may have`);
        continue;
      }
      const values = parseFile(file, await readFile(file, 'utf8'), entry.format);
      for (const [index, document] of values.entries()) {
        const source = values.length > 1 ? `${file}#${index}` : file;
        documents.push({ source, document, defaults: { id: source, name: path.basename(file) } });
      }
    } catch (error) {
      errors.push(`${file}: ${(error as Error).message}`);
    }
  }
  return { documents, errors };
}
