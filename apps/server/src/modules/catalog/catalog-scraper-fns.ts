import {
  JSON_BODY_MAX_DEPTH,
  parseScrapeConfigDocument,
  SCRAPE_CONFIG_API_VERSION,
  SCRAPE_CONFIG_KIND,
  type ScrapeConfigValidationError,
} from '@lookout/contracts';
import { jsonNestingExceeds } from '@lookout/pgrest';

/**
 * Validating `config_scrapers` rows written through /api/db: the columns name, namespace,
 * labels-free metadata and spec form a ScrapeConfig document, judged by the contracts' schema
 * (packages/contracts/src/scrape-config.ts), so the console, /api/db and `lookout apply -f`
 * refuse the same specs with the same field-named messages.
 */

/** Columns of `config_scrapers` that carry the document's parts. */
const DOCUMENT_COLUMNS = ['name', 'namespace', 'spec'] as const;

/** Values that pass, standing in for the columns a PATCH does not set. */
const PLACEHOLDER_NAME = 'placeholder';
const PLACEHOLDER_SPEC = { exec: [{ type: 'Placeholder', script: 'echo []' }] };

/** `metadata.name` → `name`: errors name the row's columns. */
function toColumnPath(error: ScrapeConfigValidationError, prefix: string): ScrapeConfigValidationError {
  const path = error.path.startsWith('metadata.') ? error.path.slice('metadata.'.length) : error.path;
  const shown = `${prefix}${path}`;
  return { path: shown, reason: error.reason, message: `${shown}: ${error.reason}` };
}

const required = (path: string): ScrapeConfigValidationError => ({
  path,
  reason: 'is required',
  message: `${path}: is required`,
});

/**
 * One row: `create` (POST, PUT) needs name and spec; `update` (PATCH) is judged on the columns
 * it sets. Returns every problem: `spec.file[0].id: jsonpath expression must start with '$'`.
 */
export function validateScraperRow(
  row: unknown,
  mode: 'create' | 'update',
  prefix = '',
): ScrapeConfigValidationError[] {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    const reason = 'must be an object with name, source and spec';
    return [{ path: prefix || 'row', reason, message: `${prefix || 'row'}: ${reason}` }];
  }
  const values = row as Record<string, unknown>;
  const has = (column: string) => Object.hasOwn(values, column) && values[column] !== undefined;
  if (mode === 'update' && !DOCUMENT_COLUMNS.some(has)) return [];
  const missing = mode === 'create' ? (['spec', 'name'] as const).filter((column) => !has(column)) : [];
  if (missing.length > 0) return missing.map((column) => required(`${prefix}${column}`));

  const metadata: Record<string, unknown> = { name: has('name') ? values.name : PLACEHOLDER_NAME };
  if (has('namespace') && values.namespace !== null) metadata.namespace = values.namespace;
  const parsed = parseScrapeConfigDocument({
    apiVersion: SCRAPE_CONFIG_API_VERSION,
    kind: SCRAPE_CONFIG_KIND,
    metadata,
    spec: has('spec') ? values.spec : PLACEHOLDER_SPEC,
  });
  return parsed.ok ? [] : parsed.errors.map((error) => toColumnPath(error, prefix));
}

/**
 * The JSON body of a write to /api/db/config_scrapers (a row or a list of rows). Undefined when
 * it is not JSON or nested too deep: the data API refuses those itself, in its own words.
 */
export function validateScraperWriteBody(
  method: 'POST' | 'PUT' | 'PATCH',
  body: string,
): ScrapeConfigValidationError[] | undefined {
  if (jsonNestingExceeds(body, JSON_BODY_MAX_DEPTH)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
  const mode = method === 'PATCH' ? 'update' : 'create';
  if (Array.isArray(parsed)) {
    return parsed.flatMap((row, index) => validateScraperRow(row, mode, parsed.length > 1 ? `[${index}].` : ''));
  }
  return validateScraperRow(parsed, mode);
}
