import {
  errorEnvelopeSchema,
  TOPOLOGY_API_ALIAS_PATH,
  TOPOLOGY_API_PATH,
  TOPOLOGY_SNAPSHOT_PATH,
  TOPOLOGY_TEXTS,
  TOPOLOGY_WHAT_CHANGED_PATH,
  topologyQuerySchema,
  topologySnapshotFileName,
  topologySnapshotQuerySchema,
  type TopologyResponse,
  type WhatChangedResponse,
  whatChangedParamsSchema,
} from '@lookout/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { fetchTopology } from './topology-query.js';
import { LabelFilterError } from './topology-query-fns.js';
import { whatChanged } from './topology-changes.js';
import { buildSnapshot, SnapshotStartError } from './topology-snapshot.js';

export type TopologyRoutesOptions = { pool: pg.Pool };

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };
// Reading the topology is read on topologies (spec 1 section 6), behind the topology flag.
const access = { rbac: { resource: 'topologies', action: 'read' }, feature: 'topology' } as const;

// The answer is large and nested; its shape is TopologyResponse (contracts), checked by tests.
const topologyResponseSchema = z.custom<TopologyResponse>(() => true);

/**
 * The topology endpoints that are not /api/db (ui-calls 3.4 and 3.16): the topology fetch, at
 * the original's proxied path and at /api/topology, the snapshot zip, and 'What changed'.
 */
export const topologyRoutes: FastifyPluginAsyncZod<TopologyRoutesOptions> = async (app, { pool }) => {
  for (const url of [TOPOLOGY_API_PATH, TOPOLOGY_API_ALIAS_PATH]) {
    app.get(
      url,
      {
        config: access,
        schema: {
          tags: ['topology'],
          summary: 'Topology components with their health and summaries',
          description:
            'Without `id`: the top-level components; with `id`: that component with its children (`depth` levels, ' +
            'default 1) in `components[0].components`. `flatten=true` lists every component that matches at any depth. ' +
            'Filters: `status` (healths or statuses, comma separated), `type`, `team` (names), `labels` (k=v,...), ' +
            '`owner`, `hidden`, `agent_id`; `All` is no filter. `sortBy` a column (name, type, status, health, ' +
            'created_at, updated_at) or a property name, `sortOrder` asc or desc. Health and summary are the stored ' +
            'roll-up. Also answers `healthStatuses`, `tags`, `teams` and `types` of the components listed. Needs read on topologies.',
          querystring: topologyQuerySchema,
          response: { 200: topologyResponseSchema, ...errors },
        },
      },
      async (request) => {
        try {
          return await fetchTopology(pool, request.query);
        } catch (error) {
          if (error instanceof LabelFilterError)
            throw AppError.badRequest(error.message, [{ field: 'labels', message: error.message }]);
          throw error;
        }
      },
    );
  }

  app.get(
    `${TOPOLOGY_SNAPSHOT_PATH}/:id`,
    {
      config: access,
      schema: {
        tags: ['topology'],
        summary: 'Download a snapshot of a component',
        description:
          'A zip named `<component>-snapshot.zip`: the component (and with `related=true` its ancestors, descendants ' +
          'and related components), its checks with their results since `start` (default the first range of the ' +
          'dialog), its config items with their changes since `start`, its incidents, as JSON, and summary.md. ' +
          'Needs read on topologies.',
        params: z.object({ id: z.uuid({ error: 'must be a component id (uuid)' }) }),
        querystring: topologySnapshotQuerySchema,
        response: {
          200: z.custom<Buffer>(() => true).describe('application/zip'),
          404: errorEnvelopeSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      let snapshot;
      try {
        snapshot = await buildSnapshot(pool, request.params.id, {
          ...(request.query.start !== undefined ? { start: request.query.start } : {}),
          related: request.query.related ?? false,
        });
      } catch (error) {
        if (error instanceof SnapshotStartError)
          throw AppError.badRequest(error.message, [{ field: 'start', message: error.message }]);
        throw error;
      }
      if (!snapshot) throw AppError.notFound(TOPOLOGY_TEXTS.notFound);
      const fileName = topologySnapshotFileName(snapshot.name);
      return reply
        .header('content-type', 'application/zip')
        .header(
          'content-disposition',
          `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
        )
        .header('cache-control', 'no-store')
        .send(Buffer.from(snapshot.zip));
    },
  );

  app.get(
    `${TOPOLOGY_WHAT_CHANGED_PATH}/:id`,
    {
      config: access,
      schema: {
        tags: ['topology'],
        summary: 'What changed before a component turned unhealthy',
        description:
          'The config changes (of the config items linked to the component, its parents and its children) and the ' +
          'check transitions (of their linked checks) in the hour before the component turned unhealthy ' +
          '(`unhealthySince`, when its rolled-up health last changed), most severe first and newest first within a ' +
          'severity, at most 50. A component that is not unhealthy answers no items. Needs read on topologies.',
        params: whatChangedParamsSchema,
        response: { 200: z.custom<WhatChangedResponse>(() => true), 404: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => {
      const answer = await whatChanged(pool, request.params.id);
      if (!answer) throw AppError.notFound(TOPOLOGY_TEXTS.notFound);
      return answer;
    },
  );
};
