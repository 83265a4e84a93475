import { CROSS_SITE_REFUSAL } from '@lookout/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';
import { crossSiteVerdict, isGuardedRoute, isSafeMethod, ownOrigins } from './cross-site-fns.js';

export type CrossSiteGuardOptions = {
  /** LOOKOUT_PUBLIC_URL: its origin counts as Lookout's own. */
  publicUrl?: string | undefined;
  /**
   * True when the request authenticates with a session token header (X-Session-Token or
   * `Authorization: Bearer`). A page on another site cannot send those without a CORS
   * preflight, which Lookout never grants, so such requests are not checked.
   */
  hasSessionTokenHeader: (request: FastifyRequest) => boolean;
};

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Refuses writes (POST, PUT, PATCH, DELETE, ...) under /api that another site made the
 * browser send with its session cookie: 403 `cross_site_request`, before the body is parsed
 * or the session looked up. The rule is `crossSiteVerdict`; the Kratos public API keeps its
 * own CSRF protection. Register it before any route (Fastify gives a route the hooks that
 * exist when the route is added).
 */
export function registerCrossSiteGuard(app: FastifyInstance, options: CrossSiteGuardOptions): void {
  // A callback hook: the verdict needs nothing to wait for, so no request (reads least of
  // all) pays for a promise and a microtask to pass the guard.
  app.addHook('onRequest', (request, _reply, done) => done(crossSiteRefusal(request, options)));
}

/** The 403 for a cross-site write made with a session cookie; undefined when the request may go on. */
function crossSiteRefusal(request: FastifyRequest, options: CrossSiteGuardOptions): AppError | undefined {
  // Reads are the hot path and change nothing: decided before any header or origin is read.
  if (isSafeMethod(request.method) || !isGuardedRoute(request.routeOptions.url)) return undefined;
  if (options.hasSessionTokenHeader(request)) return undefined;
  const verdict = crossSiteVerdict({
    method: request.method,
    secFetchSite: header(request, 'sec-fetch-site'),
    origin: header(request, 'origin'),
    ownOrigins: ownOrigins(request.host, options.publicUrl),
  });
  if (verdict.allowed) return undefined;
  const path = request.url.split('?')[0] ?? request.url;
  request.log.warn(
    { method: request.method, path, evidence: verdict.evidence },
    'Refused a cross-site request made with a session cookie',
  );
  return new AppError(403, CROSS_SITE_REFUSAL.code, CROSS_SITE_REFUSAL.message(request.method, path, verdict.evidence));
}
