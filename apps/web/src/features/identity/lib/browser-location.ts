/**
 * Full-page navigation, for addresses outside the single-page app (an OIDC provider, an API
 * endpoint) and for sign-out, which must drop every cached query. An object rather than a
 * bare function so tests can replace `assign` with a spy (jsdom cannot navigate).
 */
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/**
 * Where a URL leads, as a path inside this app when it is on this origin and not an API
 * address (`/api/...` must be loaded by the browser itself); otherwise `undefined`.
 */
export function appPathOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url, window.location.origin);
  } catch {
    return undefined;
  }
  if (parsed.origin !== window.location.origin || parsed.pathname.startsWith('/api/')) return undefined;
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** `/login?return_to=/health%3Fx%3D1`: the sign-in page that comes back to `returnTo` afterwards. */
export function loginPath(params: { returnTo?: string; aal2?: boolean; refresh?: boolean } = {}): string {
  const search = new URLSearchParams();
  if (params.aal2) search.set('aal', 'aal2');
  if (params.refresh) search.set('refresh', 'true');
  if (params.returnTo) search.set('return_to', params.returnTo);
  const query = search.toString();
  return query ? `/login?${query}` : '/login';
}
