import {
  DIFF_CHANGE_TYPE,
  parseDurationMs,
  parseScrapeConfigSpec,
  SCRAPE_ENGINE_LIMITS,
  SCRAPE_MESSAGES,
  SCRAPER_TYPES,
  type ScrapeConfigSpec,
  type ScraperType,
  type ScrapeTypeSummary,
} from '@lookout/contracts';
import { computeChange, normalise } from './change-fns.js';
import { applyScrapeExtras, refKey, type ExtrasResult, type ScrapedChange, type ScrapedLink } from './scrape-extras.js';
import type { ScrapeExtrasRepository } from './scrape-extras-repository.js';
import { loadJavascriptEngine, usesJavascript } from './scrape-javascript.js';
import { buildItems, type ScrapedDocument, type ScrapedItem, type ScraperEntry } from './scrape-item-fns.js';
import type { ChangeWrite, ItemWrite, LiveScraper, ScrapeRepository, StoredItem } from './scrape-repository.js';

/**
 * One run of one scraper: validate its spec, fetch documents with each entry's scraper type,
 * turn them into items, reconcile them with the stored items (added, updated with a `diff`
 * change, unchanged, deleted when gone), then apply the spec's retention. Problems of an entry,
 * a file or an item are the run's errors, named; they never stop the other entries.
 */

/**
 * Fetches the documents of one entry of a scraper type, with the changes its source reported
 * and the links it knows between them (items named by config type and external id).
 */
export type FetchResult = {
  documents: ScrapedDocument[];
  errors: string[];
  changes?: ScrapedChange[];
  links?: ScrapedLink[];
};
export type DocumentFetcher = (entry: Record<string, unknown>, scraper: LiveScraper) => Promise<FetchResult>;

export type ScrapeFetchers = Partial<Record<ScraperType, DocumentFetcher>>;

export type ScrapeResult = {
  /** Counts per config type (job_history.details.scrape_summary). */
  summary: Record<string, ScrapeTypeSummary>;
  errors: string[];
  itemsSeen: number;
  deleted: number;
  changesPruned: number;
  /** Reported changes, relationships and insights written (when the engine has the extras repository). */
  extras?: Omit<ExtrasResult, 'errors'>;
  /** Scraper types of the spec that this build does not run. */
  unsupportedTypes: ScraperType[];
};

export class InvalidScraperSpecError extends Error {}

const emptyCounts = (): ScrapeTypeSummary => ({
  added: 0,
  updated: 0,
  unchanged: 0,
  deleted: 0,
  changes: 0,
  errors: 0,
});

const key = (type: string, externalId: string) => refKey({ type, externalId });

const same = (a: unknown, b: unknown) => JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));

/** The validated spec, or an error naming every wrong field. */
export function validSpec(spec: unknown): ScrapeConfigSpec {
  const parsed = parseScrapeConfigSpec(spec);
  if (!parsed.ok) {
    throw new InvalidScraperSpecError(
      `Invalid scraper spec: ${parsed.errors.map((error) => error.message).join('; ')}`,
    );
  }
  return parsed.spec;
}

export function createScrapeEngine(deps: {
  repository: ScrapeRepository;
  fetchers: ScrapeFetchers;
  /** Writes reported changes, relationships and insights; without it they are left out. */
  extras?: ScrapeExtrasRepository;
}) {
  const { repository } = deps;

  async function collect(scraper: LiveScraper, spec: ScrapeConfigSpec) {
    const items: ScrapedItem[] = [];
    const errors: string[] = [];
    const changes: ScrapedChange[] = [];
    const links: ScrapedLink[] = [];
    const unsupportedTypes: ScraperType[] = [];
    if (usesJavascript(spec)) await loadJavascriptEngine();
    for (const type of SCRAPER_TYPES) {
      const entries = (spec[type] ?? []) as Array<Record<string, unknown>>;
      if (entries.length === 0) continue;
      const fetch = deps.fetchers[type];
      if (!fetch) {
        errors.push(SCRAPE_MESSAGES.unsupportedType(type));
        unsupportedTypes.push(type);
        continue;
      }
      for (const [index, entry] of entries.entries()) {
        const where = `${type}[${index}]`;
        try {
          const fetched = await fetch(entry, scraper);
          errors.push(...fetched.errors.map((error) => `${where}: ${error}`));
          changes.push(...(fetched.changes ?? []));
          links.push(...(fetched.links ?? []));
          const built = buildItems(entry as ScraperEntry, fetched.documents);
          errors.push(...built.errors.map((error) => `${where}: ${error}`));
          items.push(...built.items);
        } catch (error) {
          errors.push(`${where}: ${(error as Error).message}`);
        }
      }
    }
    return { items, errors, changes, links, unsupportedTypes };
  }

  async function applyRetention(scraper: LiveScraper, spec: ScrapeConfigSpec): Promise<number> {
    let pruned = 0;
    for (const rule of spec.retention?.changes ?? []) {
      const ageMs = rule.age === undefined ? undefined : parseDurationMs(rule.age);
      pruned += await repository.pruneChanges(scraper.id, {
        changeType: rule.name,
        ...(ageMs !== undefined ? { ageMs } : {}),
        ...(rule.count !== undefined ? { count: rule.count } : {}),
      });
    }
    for (const rule of spec.retention?.types ?? []) {
      const ageMs = rule.deletedAge === undefined ? undefined : parseDurationMs(rule.deletedAge);
      if (ageMs !== undefined) await repository.purgeDeletedItems(scraper.id, rule.name, ageMs);
    }
    return pruned;
  }

  /** Runs one scraper; throws InvalidScraperSpecError when its spec is not valid. */
  async function run(scraper: LiveScraper): Promise<ScrapeResult> {
    const spec = validSpec(scraper.spec);
    const { items, errors, changes: reported, links, unsupportedTypes } = await collect(scraper, spec);
    const summary: Record<string, ScrapeTypeSummary> = {};
    const counts = (type: string) => (summary[type] ??= emptyCounts());

    const stored = new Map<string, StoredItem>();
    for (const item of await repository.items(scraper.id)) stored.set(key(item.type, item.externalId), item);

    const inserts: ItemWrite[] = [];
    const updates: ItemWrite[] = [];
    const changes: ChangeWrite[] = [];
    const seenIds: string[] = [];
    const seenKeys = new Set<string>();
    const kept: ScrapedItem[] = [];
    for (const item of items) {
      const itemKey = key(item.type, item.externalId);
      if (seenKeys.has(itemKey)) {
        errors.push(
          `${item.source}: another item has type '${item.type}' and id '${item.externalId}'; this one was left out`,
        );
        counts(item.type).errors += 1;
        continue;
      }
      seenKeys.add(itemKey);
      const write: ItemWrite = {
        type: item.type,
        externalId: item.externalId,
        name: item.name,
        configClass: item.configClass,
        config: item.config,
        source: item.source,
        status: item.status,
        health: item.health,
        description: item.description,
        labels: item.labels,
        tags: item.tags,
        properties: item.properties,
      };
      const previous = stored.get(itemKey);
      kept.push(item);
      if (!previous) {
        inserts.push(write);
        counts(item.type).added += 1;
        continue;
      }
      seenIds.push(previous.id);
      const change = computeChange(previous.config, item.config, DIFF_CHANGE_TYPE);
      const metadataSame =
        previous.name === item.name &&
        previous.configClass === item.configClass &&
        previous.status === item.status &&
        previous.health === item.health &&
        previous.description === item.description &&
        same(previous.labels, item.labels) &&
        same(previous.tags, item.tags) &&
        same(previous.properties, item.properties);
      if (change) {
        changes.push({ configId: previous.id, severity: 'info', ...change });
        counts(item.type).changes += 1;
      }
      if (change || !metadataSame || previous.deleted) {
        updates.push({ ...write, id: previous.id });
        counts(item.type).updated += 1;
      } else {
        counts(item.type).unchanged += 1;
      }
    }
    // An item is marked deleted only after a scrape without errors: a file that failed to
    // parse, or an endpoint that did not answer, does not mean its items are gone.
    const deleteMissing = errors.length === 0;
    const missingTypes = new Map<string, number>();
    if (deleteMissing) {
      for (const [itemKey, item] of stored) {
        if (!seenKeys.has(itemKey) && !item.deleted)
          missingTypes.set(item.type, (missingTypes.get(item.type) ?? 0) + 1);
      }
    }
    const applied = await repository.applyScrape({
      scraperId: scraper.id,
      inserts,
      updates,
      changes,
      seenIds,
      deleteMissing,
    });
    for (const [type, n] of missingTypes) counts(type).deleted += n;

    let extras: ScrapeResult['extras'];
    if (deps.extras) {
      const idOf = new Map<string, string>();
      for (const [itemKey, item] of stored) idOf.set(itemKey, item.id);
      for (const row of applied.inserted) idOf.set(key(row.type, row.externalId), row.id);
      const withIds = kept.flatMap((item) => {
        const id = idOf.get(key(item.type, item.externalId));
        return id ? [{ item, id }] : [];
      });
      const { errors: extraErrors, ...written } = await applyScrapeExtras({
        repository: deps.extras,
        scraperId: scraper.id,
        items: withIds,
        idOf,
        changes: reported,
        links,
        clean: deleteMissing,
      });
      errors.push(...extraErrors);
      extras = written;
    }
    const changesPruned = await applyRetention(scraper, spec);
    return {
      summary,
      errors: errors.slice(0, SCRAPE_ENGINE_LIMITS.errorsKept),
      itemsSeen: seenKeys.size,
      deleted: applied.deleted,
      changesPruned,
      unsupportedTypes,
      ...(extras ? { extras } : {}),
    };
  }

  return { run };
}

export type ScrapeEngine = ReturnType<typeof createScrapeEngine>;
