import os from 'node:os';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { authConfigResponseSchema, authWhoamiResponseSchema } from '@lookout/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { reachedOverHttps, requestOrigin } from '../../http/public-url.js';
import { registerIdentityAdminRoutes } from './identity-admin-routes.js';
import type { IdentityAdminService } from './identity-admin-service.js';
import type { CourierAdmin } from './identity-courier-admin.js';
import {
  CSRF_COOKIE,
  normalizeBody,
  parseCookies,
  SESSION_COOKIE,
  sessionTokenOf,
  UI_URLS,
  wantsJson,
} from './identity-fns.js';
import type { IdentityRepository } from './identity-repository.js';
import type { IdentityService } from './identity-service.js';
import type { Outcome, RequestContext } from './identity-types.js';
import { DEFAULT_IDENTITY_SCHEMA } from './identity-views.js';
import { errors, genericError, KratosError } from './kratos-errors-fns.js';
import type { SessionResolver } from './session-resolver.js';
import { WEBAUTHN_SCRIPT } from './webauthn-script.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A browser that did not ask for JSON is redirected to the error page instead. */
    redirectErrors?: boolean;
  }
}

export type IdentityRoutesOptions = {
  identity: IdentityService;
  admin: IdentityAdminService;
  /** The courier's outbox (`/admin/courier/messages`). */
  courier: CourierAdmin;
  /** LOOKOUT_PUBLIC_URL: the origin of the URLs answered to the requester, when set. */
  publicUrl?: string;
};

const FLOW_BODY_LIMIT = 64 * 1024;

const text = (max: number) => z.string().max(max);
const flowIdQuery = z.object({ flow: text(100).optional() });
const returnToQuery = z.object({ return_to: text(2000).optional() });
const loginQuery = z.object({
  refresh: z.enum(['true', 'false']).optional(),
  aal: text(10).optional(),
  return_to: text(2000).optional(),
});
const getFlowQuery = z.object({ id: text(100).optional() });
const flowBody = z.record(text(200), z.unknown()).optional();
const codeLinkQuery = z.object({ flow: text(100).optional(), code: text(100).optional(), token: text(100).optional() });

/**
 * What the service needs to know about a request, from Fastify's view of it. Its origin is
 * LOOKOUT_PUBLIC_URL when set, else the request's own (Host, or X-Forwarded-* only from a
 * trusted proxy): it serves URLs for this requester, never links mailed to someone else.
 */
export function requestContext(
  request: FastifyRequest,
  options: { json?: boolean; publicUrl?: string | undefined } = {},
): RequestContext {
  const origin = requestOrigin(request, options.publicUrl);
  const token = sessionTokenOf(request.headers);
  const csrf = parseCookies(request.headers.cookie)[CSRF_COOKIE];
  const userAgent = request.headers['user-agent'];
  return {
    origin,
    baseUrl: `${origin}/api/.ory`,
    requestUrl: `${origin}${request.url}`,
    ...(token ? { sessionToken: token } : {}),
    ...(csrf ? { csrfCookie: csrf } : {}),
    ip: request.ip,
    ...(userAgent ? { userAgent: userAgent.slice(0, 1000) } : {}),
    json: options.json ?? wantsJson(request.headers),
  };
}

/** Answers with an outcome: its cookies (`Secure` when the browser used https), then a redirect or body. */
function sendOutcome(secure: boolean, reply: FastifyReply, outcome: Outcome & { headers?: Record<string, string> }) {
  const base = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };
  if (outcome.setCsrf) reply.setCookie(CSRF_COOKIE, outcome.setCsrf, { ...base, maxAge: 365 * 86_400 });
  if (outcome.setSession)
    reply.setCookie(SESSION_COOKIE, outcome.setSession.token, { ...base, expires: outcome.setSession.expiresAt });
  if (outcome.clearSession) reply.clearCookie(SESSION_COOKIE, base);
  reply.header('cache-control', 'private, no-cache, no-store, must-revalidate');
  if (outcome.headers) reply.headers(outcome.headers);
  if (outcome.redirect) return reply.redirect(outcome.redirect, 303);
  if (outcome.status === 204) return reply.status(204).send();
  return reply.status(outcome.status).send(outcome.body ?? null);
}

/**
 * The Ory Kratos public and admin API, mounted at /api/.ory: self-service flows, sessions,
 * errors and the admin identity API. Bodies and errors use Kratos's own JSON, not the
 * Lookout error envelope, so Kratos SDKs work unchanged.
 */
export const identityRoutes: FastifyPluginAsyncZod<IdentityRoutesOptions> = async (
  app,
  { identity, admin, courier, publicUrl },
) => {
  // Every route answers on LOOKOUT_PUBLIC_URL when it is set, so both helpers carry it.
  const contextOf = (request: FastifyRequest, options: { json?: boolean } = {}) =>
    requestContext(request, { ...options, publicUrl });
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: Outcome & { headers?: Record<string, string> },
  ) => sendOutcome(reachedOverHttps(request, publicUrl), reply, outcome);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: FLOW_BODY_LIMIT });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    let kratos: KratosError;
    if (error instanceof KratosError) kratos = error;
    else if (error instanceof AppError) kratos = genericError(error.statusCode, { reason: error.message });
    else if (hasZodFastifySchemaValidationErrors(error)) {
      const summary = error.validation
        .map(
          (issue) =>
            `${[error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.')}: ${issue.message}`,
        )
        .join('; ');
      kratos = errors.badRequest(`The request was malformed or contained invalid parameters: ${summary}`);
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      kratos = genericError(error.statusCode, { reason: error.message });
    } else {
      request.log.error({ err: error }, 'Identity request failed');
      kratos = genericError(500, { reason: 'Something went wrong on the server. The error has been logged.' });
    }
    reply.headers(kratos.headers);
    // A refusal for too many requests is answered as it is: sending the browser to the error
    // page would store an error row for every refused request.
    if (request.routeOptions.config.redirectErrors && !wantsJson(request.headers) && kratos.statusCode !== 429) {
      const redirectTo = kratos.body.redirect_browser_to;
      if (typeof redirectTo === 'string') return send(request, reply, { status: 303, redirect: redirectTo });
      const id = await identity.storeFlowError(kratos.body.error);
      return send(request, reply, {
        status: 303,
        redirect: `${contextOf(request).origin}${UI_URLS.error}?id=${id}`,
      });
    }
    return reply
      .header('cache-control', 'private, no-cache, no-store, must-revalidate')
      .status(kratos.statusCode)
      .send(kratos.body);
  });

  const tags = ['identity'];
  const browser = { redirectErrors: true };

  // ------------------------------------------------------------ flows

  app.get(
    '/self-service/login/browser',
    { config: browser, schema: { tags, summary: 'Create a browser login flow', querystring: loginQuery } },
    async (request, reply) =>
      send(
        request,
        reply,
        await identity.createLoginFlow('browser', contextOf(request), {
          ...request.query,
          refresh: request.query.refresh === 'true',
        }),
      ),
  );
  app.get(
    '/self-service/login/api',
    { schema: { tags, summary: 'Create a login flow for API clients', querystring: loginQuery } },
    async (request, reply) =>
      send(
        request,
        reply,
        await identity.createLoginFlow('api', contextOf(request, { json: true }), {
          ...request.query,
          refresh: request.query.refresh === 'true',
        }),
      ),
  );

  const kinds = ['login', 'registration', 'recovery', 'verification', 'settings'] as const;
  for (const kind of kinds) {
    app.get(
      `/self-service/${kind}/flows`,
      { schema: { tags, summary: `Get a ${kind} flow`, querystring: getFlowQuery } },
      async (request, reply) =>
        send(request, reply, await identity.getFlow(kind, request.query.id, contextOf(request, { json: true }))),
    );
  }

  const creators = {
    registration: identity.createRegistrationFlow,
    recovery: identity.createRecoveryFlow,
    verification: identity.createVerificationFlow,
    settings: identity.createSettingsFlow,
  } as const;
  for (const [kind, create] of Object.entries(creators)) {
    app.get(
      `/self-service/${kind}/browser`,
      { config: browser, schema: { tags, summary: `Create a browser ${kind} flow`, querystring: returnToQuery } },
      async (request, reply) => send(request, reply, await create('browser', contextOf(request), request.query)),
    );
    app.get(
      `/self-service/${kind}/api`,
      { schema: { tags, summary: `Create a ${kind} flow for API clients`, querystring: returnToQuery } },
      async (request, reply) =>
        send(request, reply, await create('api', contextOf(request, { json: true }), request.query)),
    );
  }

  const updaters = {
    login: identity.updateLoginFlow,
    registration: identity.updateRegistrationFlow,
    recovery: identity.updateRecoveryFlow,
    verification: identity.updateVerificationFlow,
    settings: identity.updateSettingsFlow,
  } as const;
  for (const [kind, update] of Object.entries(updaters)) {
    app.post(
      `/self-service/${kind}`,
      {
        config: browser,
        bodyLimit: FLOW_BODY_LIMIT,
        schema: { tags, summary: `Submit a ${kind} flow`, querystring: flowIdQuery, body: flowBody },
      },
      async (request, reply) =>
        send(request, reply, await update(request.query.flow, normalizeBody(request.body), contextOf(request))),
    );
  }

  // The links in recovery and verification emails carry the code.
  app.get(
    '/self-service/recovery',
    { config: browser, schema: { tags, summary: 'Open a recovery link', querystring: codeLinkQuery } },
    async (request, reply) =>
      send(
        request,
        reply,
        await identity.updateRecoveryFlow(
          request.query.flow,
          { method: 'code', code: request.query.code ?? request.query.token ?? '' },
          contextOf(request, { json: false }),
          { viaLink: true },
        ),
      ),
  );
  app.get(
    '/self-service/verification',
    { config: browser, schema: { tags, summary: 'Open a verification link', querystring: codeLinkQuery } },
    async (request, reply) =>
      send(
        request,
        reply,
        await identity.updateVerificationFlow(
          request.query.flow,
          { method: 'code', code: request.query.code ?? request.query.token ?? '' },
          contextOf(request, { json: false }),
          { viaLink: true },
        ),
      ),
  );

  app.get(
    '/self-service/methods/oidc/callback/:provider',
    {
      config: browser,
      schema: {
        tags,
        summary: 'Where an OIDC provider sends the browser back',
        params: z.object({ provider: text(50) }),
        querystring: z.object({
          state: text(300).optional(),
          code: text(4000).optional(),
          error: text(200).optional(),
          error_description: text(1000).optional(),
          iss: text(2000).optional(),
          session_state: text(500).optional(),
          scope: text(2000).optional(),
        }),
      },
    },
    async (request, reply) =>
      send(
        request,
        reply,
        await identity.oidcCallback(request.params.provider, request.query, contextOf(request, { json: false })),
      ),
  );

  // ------------------------------------------------------------ logout, sessions, errors

  app.get(
    '/self-service/logout/browser',
    { schema: { tags, summary: 'Create a logout URL for a browser', querystring: returnToQuery } },
    async (request, reply) =>
      send(request, reply, await identity.createBrowserLogoutFlow(contextOf(request, { json: true }), request.query)),
  );
  app.get(
    '/self-service/logout',
    {
      config: browser,
      schema: {
        tags,
        summary: 'Log out with a logout token',
        querystring: z.object({ token: text(200).optional(), return_to: text(2000).optional() }),
      },
    },
    async (request, reply) => send(request, reply, await identity.updateLogoutFlow(contextOf(request), request.query)),
  );
  app.delete(
    '/self-service/logout/api',
    { schema: { tags, summary: 'Log out an API session token', body: flowBody } },
    async (request, reply) => send(request, reply, await identity.performNativeLogout(normalizeBody(request.body))),
  );
  app.get(
    '/self-service/errors',
    { schema: { tags, summary: 'Get a flow error', querystring: getFlowQuery } },
    async (request, reply) => send(request, reply, await identity.getFlowError(request.query.id)),
  );

  app.get('/sessions/whoami', { schema: { tags, summary: 'The current session' } }, async (request, reply) =>
    send(request, reply, await identity.whoami(contextOf(request, { json: true }))),
  );
  app.get('/sessions', { schema: { tags, summary: 'My other active sessions' } }, async (request, reply) =>
    send(request, reply, await identity.listMySessions(contextOf(request, { json: true }))),
  );
  app.delete('/sessions', { schema: { tags, summary: 'Revoke my other sessions' } }, async (request, reply) =>
    send(request, reply, await identity.revokeMyOtherSessions(contextOf(request, { json: true }))),
  );
  app.delete(
    '/sessions/:id',
    { schema: { tags, summary: 'Revoke one of my other sessions', params: z.object({ id: text(100) }) } },
    async (request, reply) =>
      send(request, reply, await identity.revokeMySession(contextOf(request, { json: true }), request.params.id)),
  );

  app.get('/schemas', { schema: { tags, summary: 'Identity schemas' } }, async () => [
    { id: 'default', schema: DEFAULT_IDENTITY_SCHEMA },
  ]);
  app.get(
    '/schemas/:id',
    { schema: { tags, summary: 'One identity schema', params: z.object({ id: text(200) }) } },
    async (request) => {
      const id =
        request.params.id === 'default' ? 'default' : Buffer.from(request.params.id, 'base64url').toString('utf8');
      if (id !== 'default') throw errors.notFound(`Unable to locate the identity schema '${request.params.id}'.`);
      return DEFAULT_IDENTITY_SCHEMA;
    },
  );
  app.get(
    '/.well-known/ory/webauthn.js',
    { schema: { tags, summary: 'The WebAuthn helper script the webauthn nodes load' } },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(WEBAUTHN_SCRIPT),
  );
  app.get('/health/alive', { schema: { tags, summary: 'Kratos liveness' } }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: { tags, summary: 'Kratos readiness' } }, async () => ({ status: 'ok' }));

  // ------------------------------------------------------------ admin (identity-admin-routes.ts)

  registerIdentityAdminRoutes(app, { admin, courier, contextOf, send });
};

export type AuthRoutesOptions = {
  resolveSession: SessionResolver;
  people: Pick<IdentityRepository, 'findPersonAvatar'>;
  identity: Pick<IdentityService, 'publicConfig'>;
};

/**
 * `GET /api/auth/whoami`: the signed-in caller, in the shape the web reads at start.
 * `GET /api/auth/config`: whether sign-up is open and the OIDC providers, before sign-in.
 */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { resolveSession, people, identity },
) => {
  app.get(
    '/config',
    {
      // access: the sign-in page reads it before anyone is signed in; it holds no secret.
      config: { rbac: 'public' },
      schema: {
        tags: ['identity'],
        summary: 'Sign-in settings',
        description:
          'Whether this installation takes sign-ups (else accounts come by invitation) and the OpenID Connect providers to sign in with.',
        response: { 200: authConfigResponseSchema },
      },
    },
    async () => identity.publicConfig(),
  );
  app.get(
    '/whoami',
    {
      // access: any signed-in caller; the handler answers 401 without a session.
      config: { rbac: 'authenticated' },
      schema: {
        tags: ['identity'],
        summary: 'The signed-in user',
        description: '401 when the request carries no valid session (cookie, X-Session-Token or Bearer token).',
        response: { 200: authWhoamiResponseSchema },
      },
    },
    async (request) => {
      const session = await resolveSession(request);
      if (!session) throw new AppError(401, 'unauthorized', 'Sign in to use Lookout.');
      return {
        message: 'success' as const,
        payload: {
          user: {
            id: session.identityId,
            name: session.name,
            email: session.email,
            avatar: await people.findPersonAvatar(session.identityId),
          },
          hostname: os.hostname(),
        },
      };
    },
  );
};
