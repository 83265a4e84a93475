import net from 'node:net';

/**
 * LOOKOUT_PUBLIC_URL and LOOKOUT_TRUST_PROXY: where people reach Lookout, and which proxies in
 * front of it may say who the client is. Pure parsing; config.ts turns a problem into a
 * message naming the setting, and http/public-url.ts applies the values (ADR 0007).
 */

/**
 * LOOKOUT_TRUST_PROXY, parsed: `false` (the default) trusts no X-Forwarded-* header; `true`
 * trusts every hop; a number trusts that many hops in front of Lookout; a list trusts the
 * proxies at those addresses, CIDR ranges or proxy-addr names (`loopback`, `linklocal`,
 * `uniquelocal`).
 */
export type TrustProxySetting = boolean | number | readonly string[];

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The most hops a trust-proxy count may name: more proxies in a row than this is a mistake. */
export const MAX_TRUSTED_HOPS = 20;

const PROXY_ADDR_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

export const PUBLIC_URL_PROBLEMS = {
  notHttp: 'must be an http(s) URL such as https://lookout.example',
  credentials: 'must not carry a user name or password',
  path: 'must be an origin without a path, query or fragment, such as https://lookout.example: Lookout serves its pages and API from the root of that address',
} as const;

export const TRUST_PROXY_PROBLEM = `must be true, false, a number of proxy hops (0-${MAX_TRUSTED_HOPS}) or a comma-separated list of proxy IP addresses, CIDR ranges or loopback/linklocal/uniquelocal, such as 10.0.0.0/8,127.0.0.1`;

/**
 * Checks a public URL and keeps only its origin (`https://lookout.example`, lower-case host,
 * no default port, no trailing slash), the form every link is built from.
 *
 * A path prefix (`https://example.com/lookout`) is refused rather than half supported: the
 * web app, its client routes and `/api` are all served from the root, so a prefix would need
 * the proxy to strip it and the web app to be built for it, and links would break otherwise.
 */
export function parsePublicUrl(value: string): Parsed<string> {
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return { ok: false, problem: PUBLIC_URL_PROBLEMS.notHttp };
  const url = new URL(value);
  if (!url.hostname) return { ok: false, problem: PUBLIC_URL_PROBLEMS.notHttp };
  if (url.username || url.password) return { ok: false, problem: PUBLIC_URL_PROBLEMS.credentials };
  // URL gives '/' for both `https://a` and `https://a/`; anything else, or `?`/`#`, is a path.
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(value)) {
    return { ok: false, problem: PUBLIC_URL_PROBLEMS.path };
  }
  return { ok: true, value: url.origin };
}

/** An IP address, or a CIDR range whose prefix fits the address family. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export function parseTrustProxy(value: string): Parsed<TrustProxySetting> {
  const text = value.trim();
  if (text === 'true') return { ok: true, value: true };
  if (text === 'false') return { ok: true, value: false };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_TRUSTED_HOPS) return { ok: false, problem: TRUST_PROXY_PROBLEM };
    // Zero hops trusts nobody: the same as false, and spelled so for Fastify.
    return { ok: true, value: hops === 0 ? false : hops };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length > 100 || entries.some((entry) => !PROXY_ADDR_NAMES.has(entry) && !isAddressOrRange(entry))) {
    return { ok: false, problem: TRUST_PROXY_PROBLEM };
  }
  return { ok: true, value: entries };
}
