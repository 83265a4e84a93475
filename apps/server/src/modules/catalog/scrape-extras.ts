import type { ScrapedItem } from './scrape-item-fns.js';
import type {
  AnalysisWrite,
  ExternalChangeWrite,
  RelationshipWrite,
  ScrapeExtrasRepository,
} from './scrape-extras-repository.js';
import { evaluateAnalysisRules, relationshipSelectors } from './scrape-rules-fns.js';

/**
 * After a scrape stored its items: the changes its sources reported, the relationships its
 * sources and rules found, and the insights of its rules, written for the stored items.
 */

/** An item of this scrape by its config type and external id (as fetchers name them). */
export type ItemRef = { type: string; externalId: string };

/** A change a source reported (a Kubernetes event) for an item of the scrape. */
export type ScrapedChange = Omit<ExternalChangeWrite, 'configId'> & { item: ItemRef };

/** An edge between two items of the scrape (an owner reference: owner → owned). */
export type ScrapedLink = { from: ItemRef; to: ItemRef; relation: string };

export type ExtrasResult = {
  externalChanges: number;
  relationships: number;
  relationshipsEnded: number;
  insightsOpened: number;
  insightsResolved: number;
  errors: string[];
};

export const refKey = (ref: ItemRef) => `${ref.type}\u0000${ref.externalId}`;

/** Relation of an edge a relationship rule found (config-db's rules carry none). */
const RULE_RELATION = '';

export async function applyScrapeExtras(input: {
  repository: ScrapeExtrasRepository;
  scraperId: string;
  /** The items of this scrape with their stored ids. */
  items: ReadonlyArray<{ item: ScrapedItem; id: string }>;
  /** Stored ids by refKey, for changes and links that name items. */
  idOf: ReadonlyMap<string, string>;
  changes: readonly ScrapedChange[];
  links: readonly ScrapedLink[];
  /** The scrape had no errors: relationships not found again may be ended. */
  clean: boolean;
}): Promise<ExtrasResult> {
  const { repository } = input;
  const errors: string[] = [];

  const changeRows: ExternalChangeWrite[] = [];
  for (const change of input.changes) {
    const configId = input.idOf.get(refKey(change.item));
    // An event about an object this scraper does not keep (a kind it does not list) is dropped.
    if (!configId) continue;
    const { item: _item, ...rest } = change;
    changeRows.push({ ...rest, configId });
  }
  const externalChanges = await repository.insertExternalChanges(changeRows);

  const edges: RelationshipWrite[] = [];
  for (const link of input.links) {
    const configId = input.idOf.get(refKey(link.from));
    const relatedId = input.idOf.get(refKey(link.to));
    if (configId && relatedId) edges.push({ configId, relatedId, relation: link.relation, selectorId: 'owner' });
  }

  const findings = new Map<string, AnalysisWrite>();
  for (const { item, id } of input.items) {
    for (const [index, rule] of item.relationshipRules.entries()) {
      try {
        for (const selector of relationshipSelectors(rule, item.config)) {
          for (const found of await repository.findItems(selector)) {
            if (found === id) continue;
            const [configId, relatedId] = rule.parent ? [found, id] : [id, found];
            edges.push({ configId, relatedId, relation: RULE_RELATION, selectorId: `relationship[${index}]` });
          }
        }
      } catch (error) {
        errors.push(`${item.source}: transform.relationship[${index}]: ${(error as Error).message}`);
      }
    }
    const analysis = evaluateAnalysisRules(item.analysisRules, item.config);
    errors.push(...analysis.errors.map((error) => `${item.source}: ${error}`));
    for (const outcome of analysis.outcomes)
      findings.set(`${id}\u0000${outcome.analyzer}`, { ...outcome, configId: id });
  }
  // Rule errors leave edges unknown, so nothing is ended then either.
  const synced = await repository.syncRelationships(input.scraperId, edges, input.clean && errors.length === 0);
  const insights = await repository.syncAnalysis(input.scraperId, [...findings.values()]);
  return {
    externalChanges,
    relationships: edges.length,
    relationshipsEnded: synced.ended,
    insightsOpened: insights.opened,
    insightsResolved: insights.resolved,
    errors,
  };
}
