import { IDENTITY_API_BASE, type AuthConfigResponse } from '@lookout/contracts';
import type { IdentitySettings } from '../identity-types.js';
import type { MirroredIdentity } from './mirrored-identities-repository.js';
import { genericError, type ErrorBody } from '../kratos-errors-fns.js';
import type { Traits } from '../ui-nodes-fns.js';

/**
 * Pure logic of running against an external Ory Kratos (KRATOS_PUBLIC_URL, KRATOS_ADMIN_URL):
 * reading its identities, the headers the /api/.ory proxy adds and rewrites, and which paths
 * the public proxy must never forward.
 */

/** An identity of the external Kratos, as its whoami and admin API show it. */
export type ExternalIdentity = {
  id: string;
  traits: Traits;
  /** Kratos has verified the identity's email (a `verifiable_addresses` entry says so). */
  emailVerified: boolean;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a Kratos identity (`{id, traits: {email, name}, verifiable_addresses}`); undefined
 * when it lacks an id or an email trait, which Lookout needs to make a person of it.
 */
export function externalIdentityOf(value: unknown): ExternalIdentity | undefined {
  if (!isRecord(value) || typeof value.id !== 'string' || !value.id) return undefined;
  const traits = value.traits;
  if (!isRecord(traits) || typeof traits.email !== 'string' || !traits.email.trim()) return undefined;
  const email = traits.email.trim().toLowerCase();
  const addresses = Array.isArray(value.verifiable_addresses) ? value.verifiable_addresses : [];
  const emailVerified = addresses.some(
    (address) =>
      isRecord(address) &&
      address.verified === true &&
      typeof address.value === 'string' &&
      address.value.trim().toLowerCase() === email,
  );
  return { id: value.id, traits: traits as Traits, emailVerified };
}

/**
 * `GET /api/auth/config` with an external Kratos. Kratos publishes no such settings, so
 * `registration_open` is LOOKOUT_REGISTRATION_OPEN, which the operator sets to match Kratos's
 * `selfservice.flows.registration.enabled` (it only decides whether the sign-in page offers
 * 'Create account'; Kratos decides whether registration works). The OIDC providers of
 * LOOKOUT_OIDC_PROVIDERS configure the built-in service only: Kratos's own providers arrive
 * as nodes of its flows, which the sign-in page renders, so none are listed here. Users can
 * be listed and managed only through Kratos's admin API, hence `user_admin` follows
 * KRATOS_ADMIN_URL.
 */
export function externalKratosPublicConfig(
  settings: Pick<IdentitySettings, 'registrationOpen' | 'kratosAdminUrl'>,
): AuthConfigResponse {
  return {
    registration_open: settings.registrationOpen,
    oidc_providers: [],
    user_admin: Boolean(settings.kratosAdminUrl),
  };
}

/**
 * True for a request path the public proxy must refuse: one that, once dot segments,
 * percent-encoding, repeated slashes and case are normalised, leaves the public API, that is
 * lies outside /api/.ory or inside /api/.ory/admin. The admin API has its own RBAC-checked
 * routes, and a Kratos that serves /admin on its public URL too (one host for both) must not
 * be reachable around them.
 */
export function leavesPublicApi(rawUrl: string): boolean {
  const path = normalizedPath(rawUrl);
  if (path === undefined) return true;
  const admin = `${IDENTITY_API_BASE}/admin`;
  if (path === admin || path.startsWith(`${admin}/`)) return true;
  return !path.startsWith(`${IDENTITY_API_BASE}/`);
}

/**
 * Whether a request URL reaches Kratos's courier API (/api/.ory/admin/courier) once
 * normalised as {@link leavesPublicApi} does. Its messages carry recovery codes, so only the
 * courier routes (admins only) may pass it on; the other admin routes (read on identities)
 * refuse it, however it is spelled (`%63ourier`, `identities/../courier`).
 */
export function reachesCourierApi(rawUrl: string): boolean {
  const path = normalizedPath(rawUrl);
  if (path === undefined) return true;
  const courier = `${IDENTITY_API_BASE}/admin/courier`;
  return path === courier || path.startsWith(`${courier}/`);
}

/**
 * The path of a request URL with percent-encoding, `.`/`..`, repeated slashes and case
 * normalised, or undefined when it cannot be decided (bad encoding, or one that keeps
 * changing).
 */
function normalizedPath(rawUrl: string): string | undefined {
  let path = rawUrl.split('?', 1)[0] ?? '';
  // Decoding may reveal more to resolve (%2F, %2e, %61dmin), and resolving more to decode, so
  // both repeat until the path stops changing; one that keeps changing is refused.
  for (let round = 0; ; round += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return undefined;
    }
    const next = resolvePath(decoded).toLowerCase();
    if (next === path) return path;
    if (round === 3) return undefined;
    path = next;
  }
}

/**
 * Resolves `.` and `..` segments and drops empty ones (`//`), treating `\` as `/`. By hand:
 * Node 20's URL parser leaves `..` unresolved after a segment that starts with a dot, such as
 * the `.ory` of every path here.
 */
function resolvePath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.replaceAll('\\', '/').split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/**
 * Points a Location that Kratos built from its own public URL back at this origin's
 * /api/.ory, so a browser never leaves Lookout. A Kratos configured as docs/identity.md says
 * (`serve.public.base_url` = Lookout's /api/.ory) sends no such URL; this covers one left at
 * its default. Anything else (the UI URLs, return_to targets) is left alone.
 */
export function rewriteLocation(location: string, kratosPublicUrl: string): string {
  if (location === kratosPublicUrl) return IDENTITY_API_BASE;
  for (const separator of ['/', '?', '#']) {
    if (location.startsWith(`${kratosPublicUrl}${separator}`)) {
      return `${IDENTITY_API_BASE}${location.slice(kratosPublicUrl.length)}`;
    }
  }
  return location;
}

/**
 * The X-Forwarded-* headers a reverse proxy adds, so Kratos sees the browser's address (its
 * session devices and rate limits) and whether the browser used https (Secure cookies).
 * `chain` is the way from the client to Lookout as far as Lookout trusts it (client first,
 * Lookout's peer last): without LOOKOUT_TRUST_PROXY only the peer, so a caller's own
 * X-Forwarded-For is not passed on as if Lookout vouched for it.
 */
export function forwardedHeaders(request: {
  chain: readonly string[];
  protocol: string;
  host: string;
}): Record<string, string> {
  const chain = request.chain.filter((address) => address.trim() !== '');
  return {
    ...(chain.length > 0 ? { 'x-forwarded-for': chain.join(', ') } : {}),
    'x-forwarded-proto': request.protocol,
    'x-forwarded-host': request.host,
  };
}

/** Headers never sent to the admin API: it trusts its network, not the caller's session. */
export const ADMIN_STRIPPED_HEADERS = ['cookie', 'authorization', 'x-session-token'] as const;

/**
 * A Kratos error answer as a `KratosError` body: Kratos's own when it sent
 * one, else a generic one carrying what it said.
 */
export function kratosErrorBody(status: number, body: unknown, text: string): ErrorBody {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') {
    return body as ErrorBody;
  }
  return genericError(status, { reason: text.slice(0, 500) || `Ory Kratos answered ${status}.` }).body;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const dateOf = (value: unknown): Date | undefined => {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/**
 * The copy Lookout keeps of a Kratos identity from its admin API (`GET /admin/identities`):
 * id, schema, traits, state and times, never its credentials or metadata. Undefined for what
 * the identities table cannot hold: no uuid, a state other than active or inactive, no traits.
 */
export function mirroredIdentityOf(value: unknown): MirroredIdentity | undefined {
  if (!isRecord(value) || typeof value.id !== 'string' || !UUID.test(value.id)) return undefined;
  if (value.state !== 'active' && value.state !== 'inactive') return undefined;
  if (!isRecord(value.traits)) return undefined;
  const schemaId = typeof value.schema_id === 'string' && value.schema_id ? value.schema_id.slice(0, 100) : 'default';
  const createdAt = dateOf(value.created_at) ?? new Date(0);
  const updatedAt = dateOf(value.updated_at) ?? createdAt;
  return {
    id: value.id.toLowerCase(),
    schema_id: schemaId,
    traits: value.traits,
    state: value.state,
    // Kratos leaves it out for identities that never changed state.
    state_changed_at: dateOf(value.state_changed_at) ?? createdAt,
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

/** JSON with object keys sorted: jsonb reorders keys, so raw JSON would always differ. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a copy says, to write only the identities that changed since the last sync. */
export function mirrorKey(identity: MirroredIdentity): string {
  return stableJson([
    identity.schema_id,
    identity.state,
    identity.traits,
    identity.state_changed_at.getTime(),
    identity.created_at.getTime(),
    identity.updated_at.getTime(),
  ]);
}

/**
 * The `page_token` of the next page from a Kratos list answer's Link header
 * (`<…/admin/identities?page_size=250&page_token=…>; rel="next"`), or undefined on the last
 * page. Kratos writes absolute or relative URLs; only the query matters here.
 */
export function nextPageToken(link: string | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (!match || !/\brel\s*=\s*"?next"?/i.test(match[2] ?? '')) continue;
    const token = new URL(match[1] ?? '', 'http://kratos.invalid').searchParams.get('page_token');
    if (token) return token;
  }
  return undefined;
}
