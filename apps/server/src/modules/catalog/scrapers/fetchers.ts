import type { ScrapeFetchers } from '../scrape-engine.js';
import { scrapeFiles, type FileEntry } from './file-scraper.js';
import { scrapeHttp, type HttpEntry } from './http-scraper.js';
import type { ScrapeConnectionResolver } from './scraper-connections.js';
import { scrapeSql, type SqlEntry } from './sql-scraper.js';

/**
 * The scraper types this build runs, by spec list name. Types without a fetcher are accepted
 * (validated, stored, shown) and their run says 'the <type> scraper is not supported by this build'.
 */
export function scrapeFetchers(
  options: { baseDir?: string; resolveConnection?: ScrapeConnectionResolver } = {},
): ScrapeFetchers {
  return {
    file: (entry) => scrapeFiles(entry as unknown as FileEntry, options.baseDir),
    http: (entry, scraper) =>
      scrapeHttp(entry as unknown as HttpEntry, {
        namespace: scraper.namespace,
        resolveConnection: options.resolveConnection,
      }),
    sql: (entry, scraper) =>
      scrapeSql(entry as unknown as SqlEntry, {
        namespace: scraper.namespace,
        resolveConnection: options.resolveConnection,
      }),
  };
}
