import {
  createSecretStoreEntrySchema,
  deleteSecretStoreEntryResponseSchema,
  errorEnvelopeSchema,
  listSecretStoreQuerySchema,
  secretStoreEntryParamsSchema,
  secretStoreEntrySchema,
  secretStoreListSchema,
  updateSecretStoreEntrySchema,
} from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SecretStoreService } from './secrets-service.js';

export type SecretsRoutesOptions = {
  secrets: Pick<SecretStoreService, 'list' | 'get' | 'create' | 'update' | 'remove'>;
  /** The signed-in person's id (for created_by), when there is one. */
  personOf: (request: FastifyRequest) => Promise<string | null>;
};

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};

/**
 * /api/secrets: the secret store's entries (docs/secrets.md). Reading and writing both need
 * write on connections, which only admins have (spec 1 section 6; issue 12: "write: admin"):
 * the key names and config map values are credentials' neighbours, and the store is managed
 * where connections are.
 */
export const secretsRoutes: FastifyPluginAsyncZod<SecretsRoutesOptions> = async (app, { secrets, personOf }) => {
  const adminsOnly = app.requirePermission('connections', 'write');

  app.get(
    '/',
    {
      preHandler: adminsOnly,
      schema: { querystring: listSecretStoreQuerySchema, response: { 200: secretStoreListSchema, ...errors } },
    },
    async (request) => ({ items: await secrets.list(request.query) }),
  );

  app.get(
    '/:kind/:namespace/:name',
    {
      preHandler: adminsOnly,
      schema: { params: secretStoreEntryParamsSchema, response: { 200: secretStoreEntrySchema, ...errors } },
    },
    (request) => secrets.get(request.params),
  );

  app.post(
    '/',
    {
      preHandler: adminsOnly,
      schema: { body: createSecretStoreEntrySchema, response: { 201: secretStoreEntrySchema, ...errors } },
    },
    async (request, reply) => {
      const created = await secrets.create(request.body, { personId: await personOf(request) });
      return reply.status(201).send(created);
    },
  );

  app.put(
    '/:kind/:namespace/:name',
    {
      preHandler: adminsOnly,
      schema: {
        params: secretStoreEntryParamsSchema,
        body: updateSecretStoreEntrySchema,
        response: { 200: secretStoreEntrySchema, ...errors },
      },
    },
    (request) => secrets.update(request.params, request.body),
  );

  app.delete(
    '/:kind/:namespace/:name',
    {
      preHandler: adminsOnly,
      schema: {
        params: secretStoreEntryParamsSchema,
        response: { 200: deleteSecretStoreEntryResponseSchema, ...errors },
      },
    },
    async (request) => ({ deleted: await secrets.remove(request.params) }),
  );
};
