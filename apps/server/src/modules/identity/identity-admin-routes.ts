import { courierMessageParamsSchema, courierMessagesQuerySchema, type Action } from '@lookout/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IdentityAdminService } from './identity-admin-service.js';
import type { CourierAdmin } from './identity-courier-admin.js';
import type { Outcome, RequestContext } from './identity-types.js';

/** The Fastify instance of the identity plugin (zod schemas). */
type IdentityApp = Parameters<FastifyPluginAsyncZod>[0];

export type IdentityAdminRoutesOptions = {
  admin: IdentityAdminService;
  courier: CourierAdmin;
  /** The plugin's request context (on LOOKOUT_PUBLIC_URL when set). */
  contextOf: (request: FastifyRequest, options?: { json?: boolean }) => RequestContext;
  /** The plugin's way of answering an outcome (cookies, redirects, cache headers). */
  send: (
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: Outcome & { headers?: Record<string, string> },
  ) => FastifyReply;
};

const text = (max: number) => z.string().max(max);

/**
 * Kratos's admin API under /api/.ory/admin: identities, recovery codes and links, and the
 * courier's outbox. Registered by `identityRoutes` into its own instance, so the Kratos error
 * handler answers here too.
 */
export function registerIdentityAdminRoutes(
  app: IdentityApp,
  { admin, courier, contextOf, send }: IdentityAdminRoutesOptions,
) {
  const tags = ['identity'];

  // access: each admin route declares read or write on identities; the route-access hook
  // answers 401/403 before the handler runs, in Kratos's error format (the identity plugin's
  // error handler turns the AppError into a Kratos error body).
  const requireRole = (action: Action) => ({ rbac: { resource: 'identities' as const, action } });
  const identityParams = z.object({ id: text(100) });
  const listQuery = z.object({
    page_size: z.coerce.number().int().min(1).max(1000).optional(),
    page_token: text(200).optional(),
    per_page: z.coerce.number().int().min(1).max(1000).optional(),
    page: z.coerce.number().int().min(0).max(1_000_000).optional(),
    credentials_identifier: text(320).optional(),
  });
  const adminBody = z.record(text(200), z.unknown());

  app.get(
    '/admin/identities',
    { config: requireRole('read'), schema: { tags, summary: 'List identities', querystring: listQuery } },
    async (request, reply) => send(request, reply, await admin.list(request.query, contextOf(request, { json: true }))),
  );
  app.post(
    '/admin/identities',
    { config: requireRole('write'), schema: { tags, summary: 'Create an identity', body: adminBody } },
    async (request, reply) =>
      send(request, reply, await admin.create(request.body, contextOf(request, { json: true }))),
  );
  app.get(
    '/admin/identities/:id',
    { config: requireRole('read'), schema: { tags, summary: 'Get an identity', params: identityParams } },
    async (request, reply) =>
      send(request, reply, await admin.get(request.params.id, contextOf(request, { json: true }))),
  );
  app.put(
    '/admin/identities/:id',
    {
      config: requireRole('write'),
      schema: { tags, summary: 'Update an identity', params: identityParams, body: adminBody },
    },
    async (request, reply) =>
      send(request, reply, await admin.update(request.params.id, request.body, contextOf(request, { json: true }))),
  );
  app.delete(
    '/admin/identities/:id',
    { config: requireRole('write'), schema: { tags, summary: 'Delete an identity', params: identityParams } },
    async (request, reply) => send(request, reply, await admin.remove(request.params.id)),
  );
  app.delete(
    '/admin/identities/:id/sessions',
    {
      config: requireRole('write'),
      schema: { tags, summary: "Revoke an identity's sessions", params: identityParams },
    },
    async (request, reply) => send(request, reply, await admin.deleteSessions(request.params.id)),
  );
  app.post(
    '/admin/recovery/code',
    { config: requireRole('write'), schema: { tags, summary: 'Create a recovery code', body: adminBody } },
    async (request, reply) =>
      send(request, reply, await admin.createRecoveryCode(request.body, contextOf(request, { json: true }), 'code')),
  );
  app.post(
    '/admin/recovery/link',
    { config: requireRole('write'), schema: { tags, summary: 'Create a recovery link', body: adminBody } },
    async (request, reply) =>
      send(request, reply, await admin.createRecoveryCode(request.body, contextOf(request, { json: true }), 'link')),
  );

  // The courier's outbox. Its bodies carry recovery codes and invitation links: reading them
  // is as strong as making a recovery link, so they need write on identities (admins only),
  // not the read that the identity list needs.
  app.get(
    '/admin/courier/messages',
    {
      config: requireRole('write'),
      schema: {
        tags,
        summary: 'List courier messages (the email outbox)',
        description:
          'Kratos\'s list of courier messages, newest first: filter by `status` and exact `recipient`; page with `page_size` (default 10, at most 1000) and the `page_token` of the `rel="next"` link. Headers: `Link`, `X-Total-Count`, and `X-Lookout-Email-Delivery` (`smtp` or `outbox`: without LOOKOUT_SMTP_URL messages stay queued). Bodies carry codes and links: admins only.',
        querystring: courierMessagesQuerySchema,
      },
    },
    async (request, reply) =>
      send(request, reply, await courier.list(request.query, contextOf(request, { json: true }))),
  );
  app.get(
    '/admin/courier/messages/:id',
    {
      config: requireRole('write'),
      schema: {
        tags,
        summary: 'Get a courier message',
        description: 'One message of the email outbox with its body and delivery attempts (`dispatches`). Admins only.',
        params: courierMessageParamsSchema,
      },
    },
    async (request, reply) => send(request, reply, await courier.get(request.params.id)),
  );
}
