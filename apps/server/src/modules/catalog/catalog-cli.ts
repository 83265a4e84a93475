import { parseScrapeConfigDocument, SCRAPE_CONFIG_KIND } from '@lookout/contracts';
import type { DocumentApplierFactory } from '../../cli/document-applier.js';
import { createCatalogRepository } from './catalog-repository.js';

/**
 * `lookout apply -f scraper.yaml`: a ScrapeConfig document is validated (every problem named by
 * its field) and created or updated in config_scrapers with the command's source (ConfigFile
 * by default: read-only in the console, so the file stays the source of truth).
 */
export const scrapeConfigApplier: DocumentApplierFactory = ({ pool }) => {
  const repository = createCatalogRepository(pool);
  return {
    async apply(document, source) {
      const parsed = parseScrapeConfigDocument(document);
      if (!parsed.ok) {
        throw new Error(`invalid ${SCRAPE_CONFIG_KIND}: ${parsed.errors.map((error) => error.message).join('; ')}`);
      }
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
