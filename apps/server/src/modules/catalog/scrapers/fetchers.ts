import path from 'node:path';
import { SELF_DATABASE_CONNECTION, SELF_SCRAPER_SOURCE } from '@lookout/contracts';
import type { AllowedRoots } from '../../../files/allowed-roots.js';
import type { Sandbox } from '../../../sandbox/sandbox.js';
import type { ScrapeFetchers } from '../scrape-engine.js';
import { scrapeExec, type ExecEntry } from './exec-scraper.js';
import { scrapeFiles, type FileEntry } from './file-scraper.js';
import { DEFAULT_GIT_CACHE_DIR } from './git-checkout.js';
import { scrapeKubernetesFiles, type KubernetesFileEntry } from './kubernetes-file-scraper.js';
import { scrapeHttp, type HttpEntry } from './http-scraper.js';
import { scrapeKubernetes, type KubernetesEntry } from './kubernetes-scraper.js';
import type { ScrapeConnectionResolver } from './scraper-connections.js';
import { scrapeSql, type SqlEntry } from './sql-scraper.js';

/**
 * The scraper types this build runs, by spec list name. Types without a fetcher are accepted
 * (validated, stored, shown) and their run says 'the <type> scraper is not supported by this build'.
 */
export function scrapeFetchers(
  options: {
    baseDir?: string;
    resolveConnection?: ScrapeConnectionResolver;
    /** The PostgreSQL this Lookout uses: what the lookout-self scraper's `lookout://database` means. */
    selfDatabaseUrl?: string;
    /** Where exec scripts run (ADR 0010); without it exec scrapers are refused. */
    sandbox?: Sandbox;
    /** Where the file scraper keeps its git checkouts. */
    gitCacheDir?: string;
    /** LOOKOUT_SCRAPE_FILE_ROOTS: the host directories file and kubernetesFile scrapers may read. */
    fileRoots?: AllowedRoots;
  } = {},
): ScrapeFetchers {
  return {
    file: (entry, scraper) =>
      scrapeFiles(entry as unknown as FileEntry, options.baseDir, {
        namespace: scraper.namespace,
        resolveConnection: options.resolveConnection,
        // One cache folder per scraper: two scrapers of one repository never run git in the same checkout.
        gitCacheDir: path.join(options.gitCacheDir ?? DEFAULT_GIT_CACHE_DIR, scraper.id),
        fileRoots: options.fileRoots,
      }),
    kubernetesFile: (entry) =>
      scrapeKubernetesFiles(entry as unknown as KubernetesFileEntry, {
        baseDir: options.baseDir,
        fileRoots: options.fileRoots,
      }),
    exec: (entry) => scrapeExec(entry as unknown as ExecEntry, options.sandbox),
    kubernetes: (entry, scraper) =>
      scrapeKubernetes(entry as unknown as KubernetesEntry, {
        namespace: scraper.namespace,
        resolveConnection: options.resolveConnection,
      }),
    http: (entry, scraper) =>
      scrapeHttp(entry as unknown as HttpEntry, {
        namespace: scraper.namespace,
        resolveConnection: options.resolveConnection,
      }),
    sql: (entry, scraper) => {
      const sql = entry as unknown as SqlEntry;
      if (sql.connection === SELF_DATABASE_CONNECTION) {
        // Only the scraper Lookout created itself may read Lookout's database: no request can
        // write a scraper of that source (the data API's source guard, `lookout apply`).
        if (scraper.source !== SELF_SCRAPER_SOURCE || !options.selfDatabaseUrl) {
          throw new Error(
            `connection '${SELF_DATABASE_CONNECTION}' is reserved for the ${SELF_SCRAPER_SOURCE} scraper`,
          );
        }
        return scrapeSql(
          { ...sql, connection: options.selfDatabaseUrl, driver: 'postgres' },
          { namespace: scraper.namespace },
        );
      }
      return scrapeSql(sql, { namespace: scraper.namespace, resolveConnection: options.resolveConnection });
    },
  };
}
