import { errorEnvelopeSchema, LOGS_API_PATH, logsRequestSchema, type LogsResponse } from '@lookout/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { LogSourceError } from './log-source.js';
import type { LogsService } from './logs-service.js';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  502: errorEnvelopeSchema,
};
// A component's logs are a read of the component (topologies, spec 1 section 6), behind the logs flag.
const access = { rbac: { resource: 'topologies', action: 'read' }, feature: 'logs' } as const;

const logsResponseSchema = z.custom<LogsResponse>(() => true);

/** The field a source's message starts with (`start: ...`), for the error envelope's details. */
const fieldOf = (message: string) => /^([\w.]+):/.exec(message)?.[1];

export const logsRoutes: FastifyPluginAsyncZod<{ service: LogsService }> = async (app, { service }) => {
  app.post(
    LOGS_API_PATH,
    {
      config: access,
      schema: {
        tags: ['logs'],
        summary: "Log lines of a component's logs selector",
        description:
          'Body `{id, name, query?, start?, end?, limit?}`: the component, the name of one of its `logs` selectors, a ' +
          'search text (a case-sensitive substring for files and pods, a line filter for Loki, a phrase for ' +
          'OpenSearch/Elasticsearch, a pattern for journald), the time range (time expressions such as `now-1h` or ' +
          'ISO date-times) and the page size (default 500). Answers `{total, results[{timestamp, message, labels}]}`, ' +
          'newest first. Needs read on topologies and the logs feature.',
        body: logsRequestSchema,
        response: { 200: logsResponseSchema, ...errors },
      },
    },
    async (request) => {
      try {
        return await service.fetch(request.body);
      } catch (error) {
        if (!(error instanceof LogSourceError)) throw error;
        if (error.status === 400) {
          const field = fieldOf(error.message);
          throw AppError.badRequest(error.message, field ? [{ field, message: error.message }] : undefined);
        }
        if (error.status === 404) throw AppError.notFound(error.message);
        throw new AppError(error.status, error.status === 409 ? 'conflict' : 'bad_gateway', error.message);
      }
    },
  );
};
