import {
  CONFIG_HEALTHS,
  SCRAPE_ENGINE_LIMITS,
  type AnalysisRule,
  type ConfigHealth,
  type RelationshipRule,
} from '@lookout/contracts';
import { evaluateScrapeText, splitItems } from './scrape-expression-fns.js';

/**
 * From scraped documents to catalog items: each document is split by the entry's `items`
 * expression, and each item gets its `id`, `type`, `name` and `class` from the entry's
 * expressions, plus the entry's labels, tags and properties. An item whose expressions fail or
 * give no id or type is an error naming its source, not a crash of the scrape.
 */

/** The fields every scraper entry shares (contracts' commonShape). */
export type ScraperEntry = {
  id?: string | undefined;
  type?: string | undefined;
  name?: string | undefined;
  class?: string | undefined;
  items?: string | undefined;
  status?: string | undefined;
  health?: string | undefined;
  description?: string | undefined;
  labels?: Record<string, string> | undefined;
  tags?: Record<string, string> | undefined;
  properties?: Array<Record<string, unknown>> | undefined;
  analysis?: AnalysisRule[] | undefined;
  transform?: { relationship?: RelationshipRule[] | undefined } | undefined;
};

/**
 * What a scraper type knows of a document before the entry's expressions: an id, name, type and
 * class of its own (a Kubernetes object's uid, name and `Kubernetes::<Kind>`), and labels and
 * tags (the entry's win on the same key).
 */
export type DocumentDefaults = {
  id?: string;
  name?: string;
  type?: string;
  class?: string;
  labels?: Record<string, string>;
  tags?: Record<string, string>;
  status?: string;
  health?: ConfigHealth;
};

/** A scraped document and where it came from (`/etc/app/config.yaml#2`, a URL, a query). */
export type ScrapedDocument = { source: string; document: unknown; defaults?: DocumentDefaults };

export type ScrapedItem = {
  externalId: string;
  type: string;
  name: string;
  configClass: string;
  config: unknown;
  source: string;
  status: string | null;
  health: ConfigHealth | null;
  description: string | null;
  labels: Record<string, string> | null;
  tags: Record<string, string> | null;
  properties: Array<Record<string, unknown>> | null;
  /** The entry's insight and relationship rules, evaluated once the item is stored. */
  analysisRules: AnalysisRule[];
  relationshipRules: RelationshipRule[];
};

export type BuiltItems = { items: ScrapedItem[]; errors: string[] };

const nonEmpty = (...values: Array<Record<string, string> | undefined>) => {
  const merged = Object.assign({}, ...values.filter(Boolean)) as Record<string, string>;
  return Object.keys(merged).length > 0 ? merged : null;
};

function healthOf(value: string | undefined): ConfigHealth | null {
  if (value === undefined) return null;
  const health = value.toLowerCase();
  if (!(CONFIG_HEALTHS as readonly string[]).includes(health)) {
    throw new Error(`health: '${value}' is not one of ${CONFIG_HEALTHS.join(', ')}`);
  }
  return health as ConfigHealth;
}

/** An expression's text for one item; a failure names the field (`id: javascript '...': ...`). */
function fieldText(field: string, expression: string, item: unknown): string | undefined {
  try {
    return evaluateScrapeText(expression, item);
  } catch (error) {
    throw new Error(`${field}: ${(error as Error).message}`);
  }
}

/** The items of documents for one entry; `errors` names each document or item that failed. */
export function buildItems(entry: ScraperEntry, documents: readonly ScrapedDocument[]): BuiltItems {
  const items: ScrapedItem[] = [];
  const errors: string[] = [];
  for (const scraped of documents) {
    let parts: unknown[];
    try {
      parts = splitItems(entry.items, scraped.document);
    } catch (error) {
      errors.push(`${scraped.source}: items: ${(error as Error).message}`);
      continue;
    }
    for (const [index, part] of parts.entries()) {
      if (items.length >= SCRAPE_ENGINE_LIMITS.itemsPerScraper) {
        errors.push(
          `${scraped.source}: more than ${SCRAPE_ENGINE_LIMITS.itemsPerScraper} items; the rest were left out`,
        );
        return { items, errors };
      }
      const where = parts.length > 1 ? `${scraped.source} item ${index}` : scraped.source;
      try {
        const fallbackId =
          parts.length > 1 ? `${scraped.defaults?.id ?? scraped.source}#${index}` : scraped.defaults?.id;
        const externalId = entry.id ? fieldText('id', entry.id, part) : fallbackId;
        const type = entry.type ? fieldText('type', entry.type, part) : scraped.defaults?.type;
        if (!externalId) throw new Error(`id: '${entry.id ?? ''}' gave no value`);
        if (!type) throw new Error(`type: '${entry.type ?? ''}' gave no value`);
        const name =
          (entry.name ? fieldText('name', entry.name, part) : undefined) ?? scraped.defaults?.name ?? externalId;
        const configClass =
          (entry.class ? fieldText('class', entry.class, part) : undefined) ?? scraped.defaults?.class ?? type;
        const status = entry.status ? fieldText('status', entry.status, part) : scraped.defaults?.status;
        const health = entry.health ? healthOf(fieldText('health', entry.health, part)) : scraped.defaults?.health;
        const description = entry.description ? fieldText('description', entry.description, part) : undefined;
        items.push({
          externalId,
          type,
          name,
          configClass,
          config: part,
          source: scraped.source,
          status: status ?? null,
          health: health ?? null,
          description: description ?? null,
          labels: nonEmpty(scraped.defaults?.labels, entry.labels),
          tags: nonEmpty(scraped.defaults?.tags, entry.tags),
          properties: entry.properties && entry.properties.length > 0 ? entry.properties : null,
          analysisRules: entry.analysis ?? [],
          relationshipRules: entry.transform?.relationship ?? [],
        });
      } catch (error) {
        errors.push(`${where}: ${(error as Error).message}`);
      }
    }
  }
  return { items, errors };
}
