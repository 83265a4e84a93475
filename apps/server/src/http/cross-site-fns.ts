/**
 * Deciding whether a write under /api came from another site (cross-site request forgery).
 * The cookie `SameSite=Lax` keeps the session cookie off most cross-site POSTs, but not off
 * requests from a sibling subdomain (same site) nor from browsers that do not apply it, so
 * the server checks where the request came from itself, as Kratos does for its browser flows.
 */

/** Methods that change nothing: never refused. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a method changes nothing, so no cross-site check applies to it. */
export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method.toUpperCase());

export type CrossSiteInput = {
  method: string;
  /** The Sec-Fetch-Site header: set by every current browser, and no page can forge it. */
  secFetchSite: string | undefined;
  /** The Origin header: browsers send it with every POST, PUT, PATCH and DELETE. */
  origin: string | undefined;
  /** Origins of Lookout itself (see `ownOrigins`). */
  ownOrigins: readonly string[];
};

/** `allowed`, or refused with the header that gave the request away. */
export type CrossSiteVerdict = { allowed: true } | { allowed: false; evidence: string };

/**
 * The rule, in order:
 *
 * 1. GET, HEAD and OPTIONS are allowed (they change nothing).
 * 2. With Sec-Fetch-Site, it decides: `same-origin` and `none` (the user's own action) are
 *    allowed, `same-site` and `cross-site` refused. The browser computed it, so a proxy that
 *    rewrites Host cannot make a real same-origin request look foreign.
 * 3. Else, with Origin: allowed only when it is one of Lookout's own origins (`null`, which
 *    sandboxed frames and privacy modes send, is refused).
 * 4. With neither header the caller is not a browser (curl, scripts, other servers), which a
 *    forging site cannot use: allowed.
 */
export function crossSiteVerdict(input: CrossSiteInput): CrossSiteVerdict {
  if (isSafeMethod(input.method)) return { allowed: true };
  const site = input.secFetchSite?.trim().toLowerCase();
  if (site === 'same-origin' || site === 'none') return { allowed: true };
  if (site === 'same-site' || site === 'cross-site') return { allowed: false, evidence: `Sec-Fetch-Site: ${site}` };
  const origin = input.origin?.trim();
  if (origin === undefined || origin === '') return { allowed: true };
  const normalized = normalizeOrigin(origin);
  if (normalized !== undefined && input.ownOrigins.includes(normalized)) return { allowed: true };
  return { allowed: false, evidence: `Origin ${origin}` };
}

/**
 * Lookout's own origins for a request: LOOKOUT_PUBLIC_URL's, and the host the request was
 * sent to (its Host header, or X-Forwarded-Host from a proxy LOOKOUT_TRUST_PROXY trusts, as
 * Fastify's `request.host` already resolves) over http or https: Lookout never ends TLS
 * itself, and a proxy that does may not be trusted to say so. A forging site cannot choose
 * the Host the victim's browser sends, and a site that points its own name at Lookout gets
 * no cookies of Lookout's with it.
 */
export function ownOrigins(requestHost: string, publicUrl: string | undefined): string[] {
  const origins = new Set<string>();
  if (publicUrl) {
    const fromPublicUrl = normalizeOrigin(publicUrl);
    if (fromPublicUrl) origins.add(fromPublicUrl);
  }
  for (const scheme of ['http', 'https']) {
    const fromHost = normalizeOrigin(`${scheme}://${requestHost}`);
    if (fromHost) origins.add(fromHost);
  }
  return [...origins];
}

/** `scheme://host[:port]` with default ports dropped and the host lower-cased; undefined when not a URL. */
function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether the guard looks at a route: everything under /api except the Ory Kratos public API
 * (`/api/.ory/*` other than `/api/.ory/admin/*`), whose browser flows carry their own CSRF
 * token, as in Kratos, and whose OIDC callbacks arrive from the provider's site by design.
 */
export function isGuardedRoute(routeUrl: string | undefined): boolean {
  if (routeUrl === undefined) return false;
  if (routeUrl !== '/api' && !routeUrl.startsWith('/api/')) return false;
  return !(routeUrl.startsWith('/api/.ory/') && !routeUrl.startsWith('/api/.ory/admin/'));
}
