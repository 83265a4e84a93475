import { aboutResponseSchema, healthResponseSchema } from '@lookout/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SystemService } from './system-service.js';

export const systemRoutes: FastifyPluginAsyncZod<{ system: SystemService }> = async (app, { system }) => {
  app.get(
    '/health',
    {
      // access: probes and load balancers call it without signing in.
      config: { rbac: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database status',
        description: '200 when the database answers, 503 when it does not.',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const health = await system.health();
      return reply.status(health.database.status === 'ok' ? 200 : 503).send(health);
    },
  );

  app.get(
    '/about',
    {
      // access: the version shows before sign-in too.
      config: { rbac: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Backend version',
        description: '`Version` is the backend version the user menu shows.',
        response: { 200: aboutResponseSchema },
      },
    },
    async () => system.about(),
  );
};
