import { parseScrapeConfigDocument, SCRAPE_CONFIG_KIND } from '@lookout/contracts';
import type { DocumentApplierFactory } from '../../cli/document-applier.js';
import type { AllowedRoots } from '../../files/allowed-roots.js';
import { createCatalogRepository } from './catalog-repository.js';
import { scrapeSpecRootProblems } from './scrapers/scrape-file-roots.js';

/**
 * `lookout apply -f scraper.yaml`: a ScrapeConfig document is validated (every problem named by
 * its field) and created or updated in config_scrapers with the command's source (ConfigFile
 * by default: read-only in the console, so the file stays the source of truth). With `roots`
 * (the kubectl API, where an editor's token applies documents) a host path outside
 * LOOKOUT_SCRAPE_FILE_ROOTS is refused as the data API guard refuses it; the command itself is
 * the operator's and leaves that to the run (ADR 0046).
 */
export const scrapeConfigApplierWithin =
  (roots: AllowedRoots | undefined): DocumentApplierFactory =>
  ({ pool }) => {
    const repository = createCatalogRepository(pool);
    return {
      async apply(document, source) {
        const parsed = parseScrapeConfigDocument(document);
        if (!parsed.ok) {
          throw new Error(`invalid ${SCRAPE_CONFIG_KIND}: ${parsed.errors.map((error) => error.message).join('; ')}`);
        }
        const outside = roots ? await scrapeSpecRootProblems(parsed.document.spec, roots) : [];
        if (outside.length > 0) throw new Error(`invalid ${SCRAPE_CONFIG_KIND}: ${outside.join('; ')}`);
        const { scraper, created } = await repository.upsertScraper(parsed.document, source);
        const spec = parsed.document.spec as Record<string, unknown>;
        const types = Object.entries(spec)
          .filter(([, value]) => Array.isArray(value))
          .map(([type, value]) => `${type}: ${(value as unknown[]).length}`)
          .join(', ');
        return `scraper ${scraper.namespace}/${scraper.name} ${created ? 'created' : 'configured'} (${types})`;
      },
    };
  };

/** `lookout apply -f`: the operator's command, checked by the run alone. */
export const scrapeConfigApplier: DocumentApplierFactory = scrapeConfigApplierWithin(undefined);
