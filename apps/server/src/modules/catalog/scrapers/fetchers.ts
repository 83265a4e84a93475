import type { ScrapeFetchers } from '../scrape-engine.js';
import { scrapeFiles, type FileEntry } from './file-scraper.js';

/**
 * The scraper types this build runs, by spec list name. Types without a fetcher are accepted
 * (validated, stored, shown) and their run says 'the <type> scraper is not supported by this build'.
 */
export function scrapeFetchers(options: { baseDir?: string } = {}): ScrapeFetchers {
  return {
    file: (entry) => scrapeFiles(entry as unknown as FileEntry, options.baseDir),
  };
}
