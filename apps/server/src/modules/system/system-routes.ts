import {
  aboutResponseSchema,
  errorEnvelopeSchema,
  healthResponseSchema,
  specSchemaParamsSchema,
  specSchemaResponseSchema,
} from '@lookout/contracts';
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

  app.get(
    '/canary/about',
    {
      // access: as /api/about. The original console reads the backend version from its health
      // backend's /about (ui-calls sections 3.16 and 6.11); here both are this server.
      config: { rbac: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Backend version, where the original console reads it',
        description: 'The same answer as `/api/about`.',
        response: { 200: aboutResponseSchema },
      },
    },
    async () => system.about(),
  );

  app.get(
    '/schemas/:file',
    {
      // access: like the original's /schemas/*, public: a schema holds no data, and editors
      // fetch it on their own (monaco-yaml).
      config: { rbac: 'public' },
      schema: {
        tags: ['system'],
        summary: 'JSON Schema of a spec',
        description:
          'The JSON Schema (draft 2020-12) of a spec people write, such as `canary.spec.schema.json`, generated ' +
          'from the schema the server validates it with. 404 names the files there are.',
        params: specSchemaParamsSchema,
        response: { 200: specSchemaResponseSchema, 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => system.specSchema(request.params.file),
  );
};
