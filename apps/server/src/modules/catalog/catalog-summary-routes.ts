import {
  catalogChangesRequestSchema,
  catalogChangesResponseSchema,
  catalogSummaryRequestSchema,
  catalogSummaryResponseSchema,
  errorEnvelopeSchema,
} from '@lookout/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CatalogSummaryRepository } from './catalog-summary-repository.js';

export type CatalogSummaryRoutesOptions = { repository: CatalogSummaryRepository };

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };
// Reading the catalog is read on config_scrapers, as the data API maps every catalog relation.
const access = { rbac: { resource: 'config_scrapers', action: 'read' }, feature: 'config' } as const;

/**
 * The catalog endpoints that are not /api/db (ui-calls 3.5): the summary rows of the catalog
 * list and the changes list (global and per item). Mounted under /api/catalog.
 */
export const catalogSummaryRoutes: FastifyPluginAsyncZod<CatalogSummaryRoutesOptions> = async (app, { repository }) => {
  app.post(
    '/summary',
    {
      config: access,
      schema: {
        tags: ['catalog'],
        summary: 'Catalog items grouped by type and group-by keys',
        description:
          'One row per type (and per value of each `groupBy` key: a column name, type, status or health, or a tag key) ' +
          'with item count, counts by health, changes and open insights by type within `changes.since` and ' +
          '`analysis.since` (default 30d), and summed costs. Deleted items only with `deleted: true`. `health` and ' +
          '`status` are "a,!b" lists; `filter` maps label keys to such lists. Needs read on config_scrapers.',
        body: catalogSummaryRequestSchema,
        response: { 200: catalogSummaryResponseSchema, ...errors },
      },
    },
    async (request) => repository.summary(request.body),
  );

  app.post(
    '/changes',
    {
      config: access,
      schema: {
        tags: ['catalog'],
        summary: 'Catalog changes, paged',
        description:
          'Changes between `from` (default now-2d) and `to` (default now), as date-math or ISO times, filtered by ' +
          '`config_type`, `type` (change types), `severity`, `source` ("a,!b" lists), `summary` (contains), ' +
          '`created_by` (person id or external creator) and `tags` ("k=v", "k!=v", "k in (a,b)", "k notin (a,b)"). ' +
          "With `id`: that item's changes, and with `recursive` upstream, downstream or all those of related items " +
          'to `depth` (default 5). Pages from 1 (`page_size` default 200); `sort_by` a column, `-` first for ' +
          'descending (default -created_at). Answers the page, the total and counts by change type. Needs read on ' +
          'config_scrapers.',
        body: catalogChangesRequestSchema,
        response: { 200: catalogChangesResponseSchema, ...errors },
      },
    },
    async (request) => repository.changes(request.body),
  );
};
