import {
  errorEnvelopeSchema,
  RESOURCE_SEARCH_KINDS,
  resourceSearchRequestSchema,
  resourceSearchResponseSchema,
  type ResourceSearchRequest,
  type ResourceSearchResponse,
  type SelectedResource,
} from '@lookout/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { AppError } from '../../http/app-error.js';
import { SelectorError, selectorQuery } from './resource-search-fns.js';

/**
 * Runs every selector of every kind and merges the rows of one kind, first match first,
 * without duplicates. Throws 400 naming the selector a selector error comes from.
 */
export async function searchResources(pool: pg.Pool, request: ResourceSearchRequest): Promise<ResourceSearchResponse> {
  const answer: ResourceSearchResponse = { checks: [], components: [], configs: [] };
  for (const kind of RESOURCE_SEARCH_KINDS) {
    const seen = new Set<string>();
    for (const [index, selector] of (request[kind] ?? []).entries()) {
      let query: { text: string; params: unknown[] };
      try {
        query = selectorQuery(kind, selector, `${kind}[${index}]`);
      } catch (error) {
        if (error instanceof SelectorError) throw AppError.badRequest(error.message);
        throw error;
      }
      const rows = await pool.query<SelectedResource>(query.text, query.params);
      for (const row of rows.rows) {
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        answer[kind].push(row);
      }
    }
  }
  return answer;
}

export const resourceSearchRoutes: FastifyPluginAsyncZod<{ pool: pg.Pool }> = async (app, { pool }) => {
  app.post(
    '/resources/search',
    {
      // access: the original reads it with catalog read; here reading the catalog is read on
      // config_scrapers (as the data API maps the catalog), which every role has.
      config: { rbac: { resource: 'config_scrapers', action: 'read' } },
      schema: {
        tags: ['resources'],
        summary: 'Find checks, components and config items by selectors',
        description:
          'Each of `checks`, `components` and `configs` holds selectors (`id`, `name` with `*` at either end or a ' +
          'leading `!`, `namespace`, `agent` (`all`, `local` or an agent id or name), `types`, `statuses` (a leading ' +
          '`!` excludes), `labelSelector` and `fieldSelector` in the Kubernetes grammar, `search` (text inside the ' +
          "name), `includeDeleted`, `limit` (default 50)). The answer lists each kind's matches, ordered by name.",
        body: resourceSearchRequestSchema,
        response: {
          200: resourceSearchResponseSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
        },
      },
    },
    async (request) => searchResources(pool, request.body),
  );
};
