import {
  CONNECTION_TEST_OK,
  connectionTestFailedSchema,
  connectionTestOkSchema,
  connectionTestParamsSchema,
  errorEnvelopeSchema,
} from '@lookout/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConnectionsService } from './connections-service.js';

export type ConnectionsRoutesOptions = {
  connections: Pick<ConnectionsService, 'test'>;
};

/**
 * `POST /api/connection/test/{id}` (ui-calls 3.12; the console's `apiBase` client is `/api`).
 * The connections themselves are read and written through /api/db.
 */
export const connectionsRoutes: FastifyPluginAsyncZod<ConnectionsRoutesOptions> = async (app, { connections }) => {
  app.post(
    '/api/connection/test/:id',
    {
      // access: testing opens the stored credentials and reaches out with them, so it takes
      // write on connections (admin), as in the original (connection:update).
      config: { rbac: { resource: 'connections', action: 'write' }, feature: 'settings.connections' },
      schema: {
        tags: ['connections'],
        summary: 'Test a connection',
        description:
          'Connects to the service the connection names, with its credentials, and makes the cheapest harmless ' +
          "call (docs/connections.md lists how each type is tested). 200 {message: 'ok'} when it works; 400 " +
          "{error} with the service's own answer when it does not, or when Lookout cannot test the type. " +
          'Needs write on connections.',
        params: connectionTestParamsSchema,
        response: {
          200: connectionTestOkSchema,
          400: connectionTestFailedSchema.or(errorEnvelopeSchema),
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const outcome = await connections.test(request.params.id);
      if (outcome.ok) return { message: CONNECTION_TEST_OK } as const;
      return reply.status(400).send({ error: outcome.error });
    },
  );
};
