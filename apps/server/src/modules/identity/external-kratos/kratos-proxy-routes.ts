import fastifyHttpProxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import { EXTERNAL_KRATOS_ERRORS, type Action } from '@lookout/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../http/app-error.js';
import { requestAddress } from '../../../http/public-url.js';
import {
  ADMIN_STRIPPED_HEADERS,
  forwardedHeaders,
  leavesPublicApi,
  reachesCourierApi,
  rewriteLocation,
} from './external-kratos-fns.js';

/**
 * /api/.ory with an external Ory Kratos (KRATOS_PUBLIC_URL): a reverse proxy to its public
 * API, so the web keeps calling its own origin and Kratos's cookies land on it; and
 * /api/.ory/admin, checked by Lookout's RBAC (read or write on identities) and then proxied
 * to KRATOS_ADMIN_URL, or refused with a 503 naming that setting when it is not set.
 *
 * What Kratos answers (status, body, Set-Cookie, Location) passes through as it is. What
 * Lookout answers itself (the access check's 401/403, Kratos unreachable, a missing setting)
 * is in Lookout's error envelope, whose `error.message` the web's Kratos error parser reads.
 * See docs/identity.md, "External Ory Kratos", and ADR 0006.
 */

export type KratosProxyRoutesOptions = {
  /** KRATOS_PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  /** KRATOS_ADMIN_URL, without a trailing slash. */
  adminUrl?: string;
  /** LOOKOUT_PUBLIC_URL: the scheme and host Kratos is told the browser used, when set. */
  lookoutPublicUrl?: string;
  /**
   * Called after a change to identities through the admin proxy succeeded, so the copies the
   * Users page lists follow at once (kratos-identity-sync.ts).
   */
  onIdentitiesChanged?: () => void;
};

/** The largest body passed on to Kratos: flows are a few KB, identities with metadata more. */
const PROXY_BODY_LIMIT = 1024 * 1024;

const READ_METHODS = ['GET', 'HEAD'];
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Connection settings for both upstreams. reply-from turns TLS certificate checks off unless
 * told otherwise; an identity provider's certificate is always checked here. A Kratos that
 * does not answer within the timeouts gives a 504 rather than a hanging sign-in page.
 */
const UPSTREAM: Pick<
  FastifyHttpProxyOptions,
  'undici' | 'destroyAgent' | 'disableRequestLogging' | 'proxyPayloads' | 'handler'
> = {
  undici: {
    connect: { rejectUnauthorized: true, timeout: 5_000 },
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  },
  // The agents belong to this app: closing it closes their sockets.
  destroyAgent: true,
  // Fastify already logs each request; reply-from would add two lines per call.
  disableRequestLogging: true,
  // The plugin's own parsers would stream bodies; kratosProxyRoutes's parser reads them whole.
  proxyPayloads: false,
  handler: forwardWithBody,
};

/** The path Kratos serves a URL's API under: `/` for `http://kratos:4433`. */
const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '');

/**
 * Turns a failed upstream call into Lookout's answer: 504 when Kratos took too long, 502
 * otherwise (refused connection, unknown host, reset). reply-from would call a refused
 * connection a 500, which would read as Lookout's own fault.
 */
function upstreamFailure(setting: 'publicUnreachable' | 'adminUnreachable') {
  return (reply: { send: (payload: Error) => unknown }, { error }: { error: Error }) => {
    const timedOut = (error as { statusCode?: number }).statusCode === 504;
    const { code, message } = EXTERNAL_KRATOS_ERRORS[setting];
    reply.send(new AppError(timedOut ? 504 : 502, code, message));
  };
}

/** The request as reply-from hands it over (typed for any server, so only what is read). */
type ProxiedRequest = Pick<FastifyRequest, 'protocol' | 'host' | 'ips'> & {
  socket: { remoteAddress?: string | undefined };
};

/**
 * Sends the request on with the body Fastify read whole (see the parser below), as it came:
 * bytes and content type unchanged, whatever the type (JSON, a form post, anything else).
 */
function forwardWithBody(
  request: FastifyRequest,
  reply: FastifyReply,
  dest: string,
  options: NonNullable<FastifyHttpProxyOptions['replyOptions']>,
): FastifyReply {
  const body = request.body;
  if (!Buffer.isBuffer(body) || body.length === 0) return reply.from(dest, options);
  return reply.from(dest, {
    ...options,
    body,
    contentType: request.headers['content-type'] ?? 'application/octet-stream',
  });
}

/**
 * What Kratos is told about the browser. Fastify's `ips` (only with LOOKOUT_TRUST_PROXY) runs
 * from the peer through each trusted hop to the client; without trust the peer is all Lookout
 * knows. Scheme and host are LOOKOUT_PUBLIC_URL's when set, as for Lookout's own URLs.
 */
const forwarded = (request: ProxiedRequest, lookoutPublicUrl: string | undefined) =>
  forwardedHeaders({
    chain: request.ips ? [...request.ips].reverse() : [request.socket.remoteAddress ?? ''],
    ...requestAddress(request, lookoutPublicUrl),
  });

export const kratosProxyRoutes: FastifyPluginAsync<KratosProxyRoutesOptions> = async (
  app,
  { publicUrl, adminUrl, lookoutPublicUrl, onIdentitiesChanged },
) => {
  // Bodies are read whole, as bytes, before Kratos is called, rather than streamed: a Kratos
  // that cannot be reached then gets a clean 502 instead of a torn-down upload, and the size
  // is bounded here. Kratos's bodies are small forms and JSON documents.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PROXY_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );

  // ------------------------------------------------------------ public API: /api/.ory/*

  await app.register(fastifyHttpProxy, {
    ...UPSTREAM,
    upstream: publicUrl,
    rewritePrefix: pathOf(publicUrl),
    // Only the wildcard: '/api/.ory' itself is no Kratos endpoint, and every route under
    // /api/.ory/ (but not /api/.ory/admin/) is the Kratos public API (ADR 0005).
    routes: ['/*'],
    preHandler: (request, _reply, done) => {
      // The admin routes below match /api/.ory/admin/ first; this catches spellings that
      // would reach an /admin of the upstream around them (`..`, %2F, %61dmin, //admin).
      if (!leavesPublicApi(request.url)) return done();
      const path = (request.url.split('?', 1)[0] ?? '').slice(0, 200);
      done(AppError.notFound(`No identity endpoint at '${path}'; the admin API is at /api/.ory/admin/.`));
    },
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => ({ ...headers, ...forwarded(request, lookoutPublicUrl) }),
      rewriteHeaders: (headers) => {
        const location = headers.location;
        return typeof location === 'string' ? { ...headers, location: rewriteLocation(location, publicUrl) } : headers;
      },
      onError: upstreamFailure('publicUnreachable'),
      // Kratos's own 503 is its answer to pass on, not a reason to ask again ten times.
      retryDelay: () => null,
    },
  });

  // ------------------------------------------------------------ admin API: /api/.ory/admin/*

  const access = (action: Action) => ({ rbac: { resource: 'identities' as const, action } });
  const groups: [Action, string[]][] = [
    ['read', READ_METHODS],
    ['write', WRITE_METHODS],
  ];

  // Kratos's courier messages carry recovery codes and links: reading them needs write on
  // identities (admins only), as the built-in outbox does, not the read of the other admin
  // reads. The courier has its own route; the others refuse a path that reaches it.
  const courierAccess = access('write');
  const notThroughCourier = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    if (!reachesCourierApi(request.url)) return done();
    done(AppError.notFound('Courier messages are at /api/.ory/admin/courier/messages.'));
  };

  if (!adminUrl) {
    // access: refused per role first (as with an admin URL), then the missing setting.
    const refuse = async () => {
      const { code, message } = EXTERNAL_KRATOS_ERRORS.adminUrlRequired;
      throw new AppError(503, code, message);
    };
    app.route({
      method: READ_METHODS,
      url: '/admin/courier/*',
      config: courierAccess,
      schema: { hide: true },
      handler: refuse,
    });
    for (const [action, methods] of groups) {
      app.route({ method: methods, url: '/admin/*', config: access(action), schema: { hide: true }, handler: refuse });
    }
    return;
  }

  // One proxy per action, because each route carries one access declaration: reads need read
  // on identities, changes need write (as the built-in admin routes declare).
  if (onIdentitiesChanged) {
    app.addHook('onResponse', async (request, reply) => {
      const path = request.url.split('?', 1)[0] ?? '';
      if (WRITE_METHODS.includes(request.method) && reply.statusCode < 300 && path.includes('/admin/identities')) {
        onIdentitiesChanged();
      }
    });
  }
  const adminReplyOptions: FastifyHttpProxyOptions['replyOptions'] = {
    rewriteRequestHeaders: (request, headers) => {
      const next = { ...headers, ...forwarded(request, lookoutPublicUrl) };
      // Kratos's admin API trusts its network, not the caller: the caller's session stays here.
      for (const name of ADMIN_STRIPPED_HEADERS) delete next[name];
      return next;
    },
    onError: upstreamFailure('adminUnreachable'),
    retryDelay: () => null,
  };
  await app.register(fastifyHttpProxy, {
    ...UPSTREAM,
    prefix: '/admin/courier',
    upstream: adminUrl,
    rewritePrefix: `${pathOf(adminUrl)}/admin/courier`,
    routes: ['/*'],
    httpMethods: READ_METHODS,
    config: courierAccess,
    replyOptions: adminReplyOptions,
  });
  for (const [action, methods] of groups) {
    await app.register(fastifyHttpProxy, {
      ...UPSTREAM,
      prefix: '/admin',
      upstream: adminUrl,
      rewritePrefix: `${pathOf(adminUrl)}/admin`,
      routes: ['/*'],
      httpMethods: methods,
      config: access(action),
      ...(action === 'read' ? { preHandler: notThroughCourier } : {}),
      replyOptions: adminReplyOptions,
    });
  }
};
