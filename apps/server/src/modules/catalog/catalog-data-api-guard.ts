import { can, dataApiResource, parseScrapeConfigSpec, type Role } from '@lookout/contracts';
import { requestBodyText, type PgrestRequest, type PgrestResponse } from '@lookout/pgrest';
import type { AllowedRoots } from '../../files/allowed-roots.js';
import type { DataApiService } from '../data-api/data-api-service.js';
import { guardDataApiWrites } from '../../http/data-api-write-guard.js';
import { validateScraperWriteBody } from './catalog-scraper-fns.js';
import { scrapeSpecRootProblems } from './scrapers/scrape-file-roots.js';

/**
 * The catalog's rule for writes through /api/db, applied before the data API runs them: a
 * `config_scrapers` row's name, namespace and spec must form a valid ScrapeConfig document; a
 * refusal is a PostgREST-style 400 whose message names each wrong field
 * (`Invalid scraper: spec.file[0].paths: is required`). Validating here rather than in a
 * database trigger gives the schema's own messages (every problem, with its path) and keeps one
 * validator for /api/db and `lookout apply -f`. Only JSON bodies are accepted, so nothing
 * reaches the table unvalidated. A valid spec whose file or kubernetesFile scraper names a host
 * path outside LOOKOUT_SCRAPE_FILE_ROOTS is refused the same way, naming
 * `spec.file[i].paths[j]` (scrapers/scrape-file-roots.ts). Callers who may not write the
 * relation are left to the data API, which answers 403.
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

function refusal(status: number, code: string, message: string, details: string | null = null): PgrestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ code, message, details, hint: null }),
  };
}

/** The host paths of each written row's spec outside the roots (rows are valid by now). */
async function rootProblems(text: string, roots: AllowedRoots): Promise<string[]> {
  const body = JSON.parse(text) as unknown;
  const rows = Array.isArray(body) ? body : [body];
  const problems = await Promise.all(
    rows.map(async (row: unknown, index) => {
      if (!row || typeof row !== 'object' || !('spec' in row)) return [];
      const parsed = parseScrapeConfigSpec(row.spec);
      if (!parsed.ok) return [];
      const prefix = rows.length > 1 ? `[${index}].` : '';
      return (await scrapeSpecRootProblems(parsed.spec, roots)).map((problem) => `${prefix}${problem}`);
    }),
  );
  return problems.flat();
}

/** The refusal for a scraper write, or undefined when the data API may run it. */
export async function checkCatalogWrite(
  request: PgrestRequest,
  roles: readonly Role[],
  roots: AllowedRoots,
): Promise<PgrestResponse | undefined> {
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
  // Undefined: not JSON, or nested too deep; the data API refuses those itself.
  if (!problems) return undefined;
  const messages = problems.length > 0 ? problems.map((problem) => problem.message) : await rootProblems(text, roots);
  if (messages.length === 0) return undefined;
  return refusal(400, '23514', `Invalid scraper: ${messages.join('; ')}`, messages.join('\n'));
}

/** The data API with the catalog's write rule in front of it, and the host directories file scrapers may read. */
export function guardCatalogWrites(roots: AllowedRoots) {
  return (dataApi: DataApiService): DataApiService =>
    guardDataApiWrites(dataApi, (request, roles) => checkCatalogWrite(request, roles, roots));
}
