import { classifyScrapeExpression } from '@lookout/contracts';
import { JSONPath } from 'jsonpath-plus';
import { evaluateCel } from '../../cel/cel-program.js';
import { fromCel } from '../../cel/cel-values.js';
import { renderFieldTemplate } from '../../templates/field-template.js';
import { evaluateJavascript } from './scrape-javascript.js';

/**
 * Evaluates the scrape expressions of a scraper entry (`id`, `type`, `name`, `class`, `items`)
 * against one scraped document, by kind (spec 2 section 3.1; contracts' scrape-config-expressions):
 *
 * - jsonpath (`$.metadata.name`): jsonpath-plus, whose filter expressions run in its own
 *   interpreter (`eval: 'safe'`), never through `eval`;
 * - expr (`expr: config.kind + '/' + config.name`): CEL with the document as `config`;
 * - template (`{{ .metadata.name }}-{{ .kind }}`): field paths with optional `lower`, `upper`,
 *   `trim` pipes, the subset of Go templates that names things (templates/field-template.ts);
 * - none: the text itself;
 * - javascript (`javascript: config.kind.toLowerCase()`): the item as `config`, run in a
 *   WebAssembly QuickJS sandbox with time and memory limits (scrape-javascript.ts, ADR 0039).
 */

/** An expression could not be evaluated; the message names the expression. */
export class ScrapeExpressionError extends Error {}

/** The first line of an error: jsonpath-plus and QuickJS errors may add a source excerpt. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'invalid expression';
}

function evaluateExpr(body: string, document: unknown): unknown {
  const outcome = evaluateCel(body, { config: document });
  if (!outcome.ok) throw new ScrapeExpressionError(`expr '${body}': ${outcome.error}`);
  return fromCel(outcome.value);
}

/** Every match of a jsonpath (a list, possibly empty). */
export function jsonPathAll(path: string, document: unknown): unknown[] {
  try {
    const found = JSONPath({ path, json: document as object, wrap: true, eval: 'safe' }) as unknown;
    return Array.isArray(found) ? found : [];
  } catch (error) {
    throw new ScrapeExpressionError(`jsonpath '${path}': ${firstLine(error)}`);
  }
}

/** The value of an expression for a document (jsonpath: its first match, or undefined). */
export function evaluateScrapeExpression(expression: string, document: unknown): unknown {
  const { kind, body } = classifyScrapeExpression(expression);
  switch (kind) {
    case 'jsonpath':
      return jsonPathAll(body, document)[0];
    case 'expr':
      return evaluateExpr(body, document);
    case 'template':
      return renderFieldTemplate(body, document, ScrapeExpressionError);
    case 'javascript':
      try {
        return evaluateJavascript(body, document);
      } catch (error) {
        throw new ScrapeExpressionError(`javascript '${body}': ${firstLine(error)}`);
      }
    default:
      return body;
  }
}

/** An expression's value as text (for id, type, name, class); undefined when it is empty. */
export function evaluateScrapeText(expression: string, document: unknown): string | undefined {
  const value = evaluateScrapeExpression(expression, document);
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text === '' ? undefined : text;
}

/**
 * The items of a document split by an `items` expression: a jsonpath gives each match (a match
 * that is a list gives each of its entries); expr gives its list; no expression gives the document.
 */
export function splitItems(expression: string | undefined, document: unknown): unknown[] {
  if (expression === undefined) return [document];
  const { kind, body } = classifyScrapeExpression(expression);
  const found = kind === 'jsonpath' ? jsonPathAll(body, document) : [evaluateScrapeExpression(expression, document)];
  return found.flatMap((value) =>
    Array.isArray(value) ? value : value === undefined || value === null ? [] : [value],
  );
}
