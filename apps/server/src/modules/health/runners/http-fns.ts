import type { IncomingHttpHeaders } from 'node:http';
import { formatAge, listWithOr } from './runner-fns.js';

/** `content-type` -> `Content-Type`, the form Go (and so canary-checker expressions) use. */
export function canonicalHeaderName(name: string): string {
  return name
    .split('-')
    .map((part) => (part ? part[0]!.toUpperCase() + part.slice(1).toLowerCase() : part))
    .join('-');
}

/**
 * Response headers for CEL and details: one string per header (repeated ones joined with ", "),
 * under both the lower-case name Node gives and Go's canonical name, so expressions written for
 * canary-checker (`headers['Content-Type']`) keep working.
 */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] = text;
    out[canonicalHeaderName(name)] = text;
  }
  return out;
}

/**
 * Whether to follow redirects. Like Go's client, redirects are followed, unless the check
 * expects a 3xx code itself, which only makes sense when the redirect is what is checked.
 */
export function shouldFollowRedirects(responseCodes: readonly number[] | undefined): boolean {
  return !(responseCodes ?? []).some((code) => code >= 300 && code < 400);
}

/** The method after a redirect: 303 always, and 301/302 after POST, become GET (as browsers do). */
export function methodAfterRedirect(status: number, method: string): string {
  if (status === 303 && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

/** Whole days left until `validTo` (negative once expired). */
export function daysUntil(validTo: Date, now: Date): number {
  return Math.floor((validTo.getTime() - now.getTime()) / 86_400_000);
}

/** The failure sentence for a certificate too close to expiry, or undefined when it is fine. */
export function certificateExpiryFailure(
  validTo: Date,
  now: Date,
  minimumDays: number | undefined,
): string | undefined {
  const msLeft = validTo.getTime() - now.getTime();
  if (msLeft <= 0) return `certificate expired ${formatAge(-msLeft)} ago`;
  if (minimumDays === undefined || minimumDays <= 0) return undefined;
  const days = daysUntil(validTo, now);
  if (days >= minimumDays) return undefined;
  const left = days === 0 ? `in ${formatAge(msLeft)}` : `in ${days} day${days === 1 ? '' : 's'}`;
  return `certificate expires ${left}, minimum ${minimumDays}`;
}

/** `expected status 200, got 503` / `expected status 2xx, got 301 (redirect to /login)`. */
export function statusFailure(status: number, responseCodes: readonly number[] | undefined, location?: string): string {
  const expected = responseCodes && responseCodes.length > 0 ? listWithOr(responseCodes.map(String)) : '2xx';
  const redirect = location && status >= 300 && status < 400 ? ` (redirect to ${location})` : '';
  return `expected status ${expected}, got ${status}${redirect}`;
}

/** Whether a content type announces JSON (`application/json`, `application/problem+json`). */
export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /[/+]json\b/i.test(contentType);
}

/** The URL as messages show it: no credentials and no query string, which may hold tokens. */
export function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}
