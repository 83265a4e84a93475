import type { FastifyServerOptions } from 'fastify';
import type { TrustProxySetting } from '../config/public-address-fns.js';

/**
 * Where Lookout is, as seen from outside (ADR 0007, docs/identity.md "Public URL and
 * proxies"). Two audiences, two rules:
 *
 * - Links Lookout hands to someone else (recovery, verification and invitation emails, admin
 *   recovery links) come from LOOKOUT_PUBLIC_URL, or `http://localhost:<PORT>` without it,
 *   and never from a request: a Host or X-Forwarded-Host header would otherwise let anyone
 *   start a recovery for someone else's address and have the mailed code sent to their host.
 * - URLs Lookout answers the requester with (flow `ui.action`, redirects, return_to checks,
 *   the WebAuthn origin and OIDC callback) come from LOOKOUT_PUBLIC_URL when it is set, else
 *   from the request's Host (or X-Forwarded-Host behind a trusted proxy): a forged header then
 *   only misleads the client that forged it.
 */

/** Enough of a request to tell the address it was sent to. */
export type AddressedRequest = { protocol: string; host: string };

/** The origin of links to other people: LOOKOUT_PUBLIC_URL, else http://localhost:<PORT>. */
export function linkOrigin(options: { publicUrl?: string | undefined; port: number }): string {
  return options.publicUrl ?? `http://localhost:${options.port}`;
}

/** The scheme and host the requester used: LOOKOUT_PUBLIC_URL's when it is set. */
export function requestAddress(request: AddressedRequest, publicUrl?: string): AddressedRequest {
  if (!publicUrl) return { protocol: request.protocol, host: request.host };
  const url = new URL(publicUrl);
  return { protocol: url.protocol.slice(0, -1), host: url.host };
}

/** `https://lookout.example`: the origin of URLs sent back to the requester. */
export function requestOrigin(request: AddressedRequest, publicUrl?: string): string {
  const { protocol, host } = requestAddress(request, publicUrl);
  return `${protocol}://${host}`;
}

/**
 * Whether cookies get `Secure`: the browser reached Lookout over https. Behind a proxy that
 * ends TLS Lookout itself sees http, so an https public URL says so too (a trusted proxy's
 * X-Forwarded-Proto already shows in `request.protocol`).
 */
export function reachedOverHttps(request: Pick<AddressedRequest, 'protocol'>, publicUrl?: string): boolean {
  return request.protocol === 'https' || (publicUrl?.startsWith('https:') ?? false);
}

/**
 * LOOKOUT_TRUST_PROXY as Fastify's `trustProxy`. Fastify 5.12 treats a bare hop count as
 * "trust nothing" (a direct client could send enough hops to spoof the headers), so a count
 * becomes a trust function instead: it has the same caveat as `true`, which is why the docs
 * ask for proxy addresses and allow counts only when Lookout's port is reachable solely
 * through the proxies.
 */
export function trustProxyOption(setting: TrustProxySetting): NonNullable<FastifyServerOptions['trustProxy']> {
  if (typeof setting === 'boolean') return setting;
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return [...setting];
}

/** The start-up warning when LOOKOUT_PUBLIC_URL is not set, or nothing when it is. */
export function publicUrlWarning(options: { publicUrl?: string | undefined; port: number }): string | undefined {
  if (options.publicUrl) return undefined;
  return `LOOKOUT_PUBLIC_URL (--public-url) is not set, so links in recovery, verification and invitation emails point at ${linkOrigin(options)}. Set it to the address people use to reach Lookout, such as https://lookout.example.`;
}
