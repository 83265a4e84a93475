import {
  RELATIONSHIP_SELECTOR_FIELDS,
  type AnalysisRule,
  type AnalysisSeverity,
  type AnalysisType,
  type RelationshipRule,
  type ValueExpression,
} from '@lookout/contracts';
import { evaluateScrapeExpression, evaluateScrapeText } from './scrape-expression-fns.js';

/**
 * The scraper spec's rules over one item (docs/catalog.md, "Insights and relationships from
 * rules"): insight rules say whether the item has a finding now, relationship rules which
 * items it is linked to. Pure: the engine looks the selectors up and writes the rows.
 */

/** What one insight rule says of one item: a finding (open), or none (resolve an open one). */
export type AnalysisOutcome = {
  analyzer: string;
  matched: boolean;
  analysisType: AnalysisType;
  severity: AnalysisSeverity;
  message: string | null;
  summary: string | null;
};

/** Which items a relationship rule links to: every field given must match. */
export type ItemSelector = {
  id?: string;
  external_id?: string;
  name?: string;
  namespace?: string;
  type?: string;
  labels?: Record<string, string>;
};

/** Runs a CEL expression (no prefix) with the item as `config`. */
const cel = (body: string, config: unknown) => evaluateScrapeExpression(`expr: ${body}`, config);

/** Each rule's outcome for an item; a rule whose filter is not a boolean is an error naming it. */
export function evaluateAnalysisRules(
  rules: readonly AnalysisRule[],
  config: unknown,
): { outcomes: AnalysisOutcome[]; errors: string[] } {
  const outcomes: AnalysisOutcome[] = [];
  const errors: string[] = [];
  for (const rule of rules) {
    try {
      const matched = cel(rule.filter, config);
      if (typeof matched !== 'boolean') {
        throw new Error(`filter '${rule.filter}' gave ${JSON.stringify(matched)}, not true or false`);
      }
      const text = (expression: string | undefined) =>
        matched && expression !== undefined ? (evaluateScrapeText(expression, config) ?? null) : null;
      outcomes.push({
        analyzer: rule.name,
        matched,
        analysisType: rule.type ?? 'other',
        severity: rule.severity ?? 'info',
        message: text(rule.message),
        summary: text(rule.summary) ?? (matched ? rule.name : null),
      });
    } catch (error) {
      errors.push(`analysis '${rule.name}': ${(error as Error).message}`);
    }
  }
  return { outcomes, errors };
}

function fieldValue(field: ValueExpression, config: unknown): string | undefined {
  if (field.value !== undefined) return field.value;
  const value = cel(field.expr!, config);
  if (value === null || value === undefined || value === '') return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function asSelector(value: unknown): ItemSelector {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`expr gave ${JSON.stringify(value)}, not a selector object`);
  }
  const raw = value as Record<string, unknown>;
  const selector: ItemSelector = {};
  for (const field of RELATIONSHIP_SELECTOR_FIELDS) {
    if (typeof raw[field] === 'string' && raw[field] !== '') selector[field] = raw[field];
  }
  if (raw.labels && typeof raw.labels === 'object') {
    selector.labels = Object.fromEntries(Object.entries(raw.labels).map(([k, v]) => [k, String(v)]));
  }
  return selector;
}

const isEmpty = (selector: ItemSelector) =>
  RELATIONSHIP_SELECTOR_FIELDS.every((field) => selector[field] === undefined) &&
  (!selector.labels || Object.keys(selector.labels).length === 0);

/**
 * The selectors a rule gives for an item (none when its filter is false). A selector whose
 * fields all came out empty is dropped: it would match every item.
 */
export function relationshipSelectors(rule: RelationshipRule, config: unknown): ItemSelector[] {
  if (rule.filter !== undefined) {
    const pass = cel(rule.filter, config);
    if (typeof pass !== 'boolean')
      throw new Error(`filter '${rule.filter}' gave ${JSON.stringify(pass)}, not true or false`);
    if (!pass) return [];
  }
  const selectors: ItemSelector[] = [];
  if (rule.expr !== undefined) {
    const value = cel(rule.expr, config);
    const list = Array.isArray(value) ? value : value === null ? [] : [value];
    selectors.push(...list.map(asSelector));
  }
  const fixed: ItemSelector = {};
  for (const field of RELATIONSHIP_SELECTOR_FIELDS) {
    const template = rule[field];
    if (!template) continue;
    const value = fieldValue(template, config);
    // A field that evaluates to nothing cannot match: the whole selector is dropped.
    if (value === undefined) return selectors.filter((selector) => !isEmpty(selector));
    fixed[field] = value;
  }
  if (rule.labels) fixed.labels = rule.labels;
  selectors.push(fixed);
  return selectors.filter((selector) => !isEmpty(selector));
}
