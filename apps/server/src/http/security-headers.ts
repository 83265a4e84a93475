import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * The Content-Security-Policy of every answer (docs/web-shell.md, "HTTP headers"). The
 * console is built by Vite into same-origin files with no inline script, so scripts come from
 * 'self' only. What each allowance is for:
 *
 * - `style-src 'unsafe-inline'`: Radix (scroll locking), sonner and CodeMirror add `<style>`
 *   elements at run time, and Swagger UI at /api/docs sets style attributes.
 * - `img-src data:`: the TOTP QR code of the settings flow is a data: URL, as Kratos sends it.
 * - `font-src data:`: fonts inlined into stylesheets.
 * - `frame-ancestors 'none'`: no other page may frame Lookout (clickjacking).
 * - `form-action 'self'`: forms post to Lookout only (OIDC leaves by a page load, not a form).
 *
 * No `upgrade-insecure-requests`: Lookout is often reached over plain http inside a network,
 * where upgrading its own requests to https would break every page.
 */
export const CONTENT_SECURITY_POLICY_DIRECTIVES = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
} as const;

/**
 * Security headers on every answer: the CSP above, `X-Frame-Options: DENY`,
 * `Referrer-Policy: same-origin`, `X-Content-Type-Options: nosniff`,
 * `Cross-Origin-Opener-Policy` and `-Resource-Policy: same-origin`, and helmet's other
 * defaults.
 *
 * - Referrer-Policy `same-origin` rather than helmet's `no-referrer`: a browser then still sends
 *   the real Origin with the console's own writes (with `no-referrer` it sends `Origin: null`,
 *   which the cross-site guard must refuse), while no address (with a recovery code in it)
 *   leaves for another site.
 * - No Strict-Transport-Security: Lookout does not end TLS itself; the proxy that does decides
 *   it for its whole domain.
 *
 * The policy uses no nonces, so helmet's answer is the same for every request: it is worked
 * out once here and set with one call per answer, rather than running helmet's dozen
 * middlewares on every request (which cost the data API a measurable share of its latency).
 * Register it before any route: its hook must reach every route and the not-found handler.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers helmet sets with Lookout's options, collected once. */
export function securityHeaders(): Record<string, string> {
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: Object.fromEntries(
        Object.entries(CONTENT_SECURITY_POLICY_DIRECTIVES).map(([name, sources]) => [name, [...sources]]),
      ),
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: false,
  });
  const collected: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      collected[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete collected[name.toLowerCase()];
    },
  };
  let failure: unknown;
  middleware({ headers: {} } as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return collected;
}
