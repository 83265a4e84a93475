import { can, dataApiResource, type Role } from '@lookout/contracts';
import { requestBodyText, type PgrestRequest, type PgrestResponse } from '@lookout/pgrest';
import type { DataApiService } from '../data-api/data-api-service.js';
import { guardDataApiWrites } from '../../http/data-api-write-guard.js';
import { validateScraperWriteBody } from './catalog-scraper-fns.js';

/**
 * The catalog's rule for writes through /api/db, applied before the data API runs them: a
 * `config_scrapers` row's name, namespace and spec must form a valid ScrapeConfig document; a
 * refusal is a PostgREST-style 400 whose message names each wrong field
 * (`Invalid scraper: spec.file[0].paths: is required`). Validating here rather than in a
 * database trigger gives the schema's own messages (every problem, with its path) and keeps one
 * validator for /api/db and `lookout apply -f`. Only JSON bodies are accepted, so nothing
 * reaches the table unvalidated. Callers who may not write the relation are left to the data
 * API, which answers 403.
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

function refusal(status: number, code: string, message: string, details: string | null = null): PgrestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ code, message, details, hint: null }),
  };
}

/** The refusal for a scraper write, or undefined when the data API may run it. */
export function checkCatalogWrite(request: PgrestRequest, roles: readonly Role[]): PgrestResponse | undefined {
  if (!WRITES.has(request.method)) return undefined;
  const relation = decodeURIComponent(request.path.replace(/^\/+/, '').split('/')[0] ?? '');
  if (relation !== 'config_scrapers') return undefined;
  const resource = dataApiResource(relation);
  if (!resource || !can(roles, resource, 'write')) return undefined;

  const contentType = (request.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    return refusal(415, 'PGRST107', 'config_scrapers accept JSON bodies only, so that their spec can be validated.');
  }
  const text = requestBodyText(request.body ?? '');
  if (text === undefined) return undefined;
  const problems = validateScraperWriteBody(request.method as 'POST' | 'PUT' | 'PATCH', text);
  if (!problems || problems.length === 0) return undefined;
  const messages = problems.map((problem) => problem.message);
  return refusal(400, '23514', `Invalid scraper: ${messages.join('; ')}`, messages.join('\n'));
}

/** The data API with the catalog's write rule in front of it. */
export function guardCatalogWrites(dataApi: DataApiService): DataApiService {
  return guardDataApiWrites(dataApi, checkCatalogWrite);
}
