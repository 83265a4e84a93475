import {
  errorEnvelopeSchema,
  inviteUserBodySchema,
  inviteUserResponseSchema,
  messageResponseSchema,
  personIdParamsSchema,
  propertiesResponseSchema,
  updatePersonBodySchema,
  updatePersonResponseSchema,
  updateRoleBodySchema,
} from '@lookout/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RequestContext } from '../identity/identity-types.js';
import type { SessionLookup } from './access-service.js';
import type { FeatureFlagsService } from './feature-flags-service.js';
import type { UsersService } from './users-service.js';

export type AccessRoutesOptions = {
  users: UsersService;
  featureFlags: Pick<FeatureFlagsService, 'list'>;
  /** The signed-in caller (the actor of a change), if any. */
  resolveSession: SessionLookup;
  /**
   * What the identity admin service needs to know about a request. Invitation links do not
   * come from it: the identity services build them on LOOKOUT_PUBLIC_URL (ADR 0007).
   */
  requestContext: (request: FastifyRequest) => RequestContext;
};

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};

/**
 * User administration and the property list, mounted under /api. Each route declares who
 * may call it (docs/access.md); the service holds the rules.
 */
export const accessRoutes: FastifyPluginAsyncZod<AccessRoutesOptions> = async (
  app,
  { users, featureFlags, resolveSession, requestContext },
) => {
  const actorOf = async (request: FastifyRequest) => (await resolveSession(request))?.identityId;

  app.post(
    '/rbac/:id/update_role',
    {
      preHandler: app.requirePermission('rbac', 'write'),
      schema: {
        tags: ['access'],
        summary: "Set a user's roles",
        description:
          'Replaces the roles of the person `id` with `roles` (an empty list makes them a viewer). Needs write on rbac. The last active admin cannot lose the admin role (409).',
        params: personIdParamsSchema,
        body: updateRoleBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => ({
      message: await users.updateRoles({
        actorId: await actorOf(request),
        personId: request.params.id,
        roles: request.body.roles,
      }),
    }),
  );

  app.post(
    '/auth/invite_user',
    {
      config: { feature: 'settings.users' },
      preHandler: app.requirePermission('identities', 'write'),
      schema: {
        tags: ['access'],
        summary: 'Invite a user',
        description:
          "Creates the identity (active, without a password) and a one-time link, valid 7 days, to set a password; the link is queued in the email outbox (sent through LOOKOUT_SMTP_URL when it is set; admins read the outbox at /api/.ory/admin/courier/messages) and returned. When the email already has a user, sets that user's role instead (200, `invited: false`). Needs write on identities.",
        body: inviteUserBodySchema,
        response: { 200: inviteUserResponseSchema, 201: inviteUserResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await users.invite({
        actorId: await actorOf(request),
        body: request.body,
        ctx: requestContext(request),
      });
      return reply.status(result.status).send(result.body);
    },
  );

  app.post(
    '/people/update',
    {
      config: { feature: 'settings.users' },
      preHandler: app.requirePermission('identities', 'write'),
      schema: {
        tags: ['access'],
        summary: 'Update a user',
        description:
          "Updates the user's names, email and state (`active` false deactivates and signs them out) and sets the form's role (it replaces admin, editor and viewer; commander and responder stay). Needs write on identities.",
        body: updatePersonBodySchema,
        response: { 200: updatePersonResponseSchema, ...errors },
      },
    },
    async (request) =>
      users.update({ actorId: await actorOf(request), body: request.body, ctx: requestContext(request) }),
  );

  app.delete(
    '/people/:id',
    {
      config: { feature: 'settings.users' },
      preHandler: app.requirePermission('identities', 'write'),
      schema: {
        tags: ['access'],
        summary: 'Delete a user',
        description:
          'Removes the identity and its sessions, soft-deletes the person and drops their roles. You cannot delete yourself (409). Needs write on identities.',
        params: personIdParamsSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => ({
      message: await users.remove({
        actorId: await actorOf(request),
        personId: request.params.id,
        ctx: requestContext(request),
      }),
    }),
  );

  app.get(
    '/properties',
    {
      config: { rbac: 'authenticated' },
      schema: {
        tags: ['access'],
        summary: 'Feature flags and settings',
        description:
          'Properties from the server configuration (source `local`, read-only) followed by those in the database (source `db`); a local property hides a database one of the same name. Any signed-in user may read them.',
        response: { 200: propertiesResponseSchema, 401: errorEnvelopeSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return featureFlags.list();
    },
  );
};
