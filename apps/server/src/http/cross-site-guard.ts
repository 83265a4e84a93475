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
  app.addHook('onRequest', async (request) => {
    // Reads are the hot path and change nothing: decided before any header or origin is read.
    if (isSafeMethod(request.method) || !isGuardedRoute(request.routeOptions.url)) return;
    if (options.hasSessionTokenHeader(request)) return;
    const verdict = crossSiteVerdict({
      method: request.method,
      secFetchSite: header(request, 'sec-fetch-site'),
      origin: header(request, 'origin'),
      ownOrigins: ownOrigins(request.host, options.publicUrl),
    });
    if (verdict.allowed) return;
    const path = request.url.split('?')[0] ?? request.url;
    request.log.warn(
      { method: request.method, path, evidence: verdict.evidence },
      'Refused a cross-site request made with a session cookie',
    );
    throw new AppError(
      403,
      CROSS_SITE_REFUSAL.code,
      CROSS_SITE_REFUSAL.message(request.method, path, verdict.evidence),
    );
  });
}
