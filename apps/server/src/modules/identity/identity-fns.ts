import { IDENTITY_API_BASE } from '@lookout/contracts';
import { text, type UiText } from './kratos-text-fns.js';
import type { Traits } from './ui-nodes-fns.js';

/** Rules and limits of the identity service (Kratos defaults unless noted). */
export const IDENTITY_LIMITS = {
  passwordMinLength: 8,
  passwordMaxLength: 1024,
  flowLifespanMs: 60 * 60_000,
  codeLifespanMs: 60 * 60_000,
  /** Wrong codes a recovery or verification flow accepts before it fails. */
  codeMaxAttempts: 5,
  privilegedSessionMaxAgeMs: 15 * 60_000,
  lookupSecretCount: 12,
  traitMaxLength: 255,
  emailMaxLength: 320,
} as const;

export const SESSION_COOKIE = 'ory_kratos_session';
export const CSRF_COOKIE = 'csrf_token';

/** Where the web renders each flow (Kratos `selfservice.flows.*.ui_url`). */
export const UI_URLS = {
  login: '/login',
  registration: '/registration',
  recovery: '/recovery',
  verification: '/verification',
  settings: '/profile-settings',
  error: '/error',
  defaultReturnTo: '/',
} as const;

/**
 * A link that opens a recovery or verification flow with its code (`code`, or `token` as
 * Kratos's admin recovery links spell it), on `origin`: the link origin of
 * http/public-url.ts, since the link goes to someone other than the requester.
 */
export function codeLinkUrl(
  origin: string,
  kind: 'recovery' | 'verification',
  query: { flow: string; code: string } | { flow: string; token: string },
): string {
  return `${origin}${IDENTITY_API_BASE}/self-service/${kind}?${new URLSearchParams(query).toString()}`;
}

// Kratos validates the `email` format of its JSON schema; this is the same practical check
// (one @, a dot in the domain, no spaces).
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return value.length <= IDENTITY_LIMITS.emailMaxLength && EMAIL_PATTERN.test(value);
}

export type TraitsResult = { traits: Traits; messages: Record<string, UiText[]> };

/** Validates traits against the identity schema: email required, names optional strings. */
export function validateTraits(raw: unknown): TraitsResult {
  const messages: Record<string, UiText[]> = {};
  const source = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const emailRaw = typeof source.email === 'string' ? source.email.trim() : '';
  if (!emailRaw) messages['traits.email'] = [text.required('email')];
  else if (emailRaw.length > IDENTITY_LIMITS.emailMaxLength)
    messages['traits.email'] = [text.maxLength(IDENTITY_LIMITS.emailMaxLength, emailRaw.length)];
  else if (!isEmail(emailRaw))
    messages['traits.email'] = [text.validationGeneric(`"${emailRaw}" is not valid "email"`)];
  const nameSource = source.name && typeof source.name === 'object' ? (source.name as Record<string, unknown>) : {};
  const name: { first?: string; last?: string } = {};
  for (const part of ['first', 'last'] as const) {
    const value = nameSource[part];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') {
      messages[`traits.name.${part}`] = [text.validationGeneric(`expected string, but got ${typeof value}`)];
      continue;
    }
    const trimmed = value.trim();
    if (trimmed.length > IDENTITY_LIMITS.traitMaxLength) {
      messages[`traits.name.${part}`] = [text.maxLength(IDENTITY_LIMITS.traitMaxLength, trimmed.length)];
      continue;
    }
    if (trimmed) name[part] = trimmed;
  }
  const traits: Traits = { email: emailRaw.toLowerCase(), ...(Object.keys(name).length > 0 ? { name } : {}) };
  return { traits, messages };
}

/**
 * A form post names fields `traits.name.first`; a JSON body nests them. Both become one
 * flat-and-nested view: top-level fields as sent, and `traits` as an object.
 */
export function normalizeBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const out: Record<string, unknown> = {};
  const traits: Record<string, unknown> = {};
  const setPath = (target: Record<string, unknown>, path: string[], value: unknown) => {
    let cursor = target;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!;
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') return;
      const next = cursor[key];
      if (!next || typeof next !== 'object' || Array.isArray(next)) cursor[key] = {};
      cursor = cursor[key] as Record<string, unknown>;
    }
    const last = path[path.length - 1]!;
    if (last === '__proto__' || last === 'constructor' || last === 'prototype') return;
    cursor[last] = value;
  };
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === '__proto__') continue;
    const single = Array.isArray(value) ? value[value.length - 1] : value;
    if (key === 'traits' && single && typeof single === 'object') {
      Object.assign(traits, single);
    } else if (key.startsWith('traits.')) {
      setPath(traits, key.slice('traits.'.length).split('.'), single);
    } else {
      out[key] = single;
    }
  }
  if (Object.keys(traits).length > 0) {
    out.traits = traits;
    for (const [name, value] of flattenTraits(traits)) out[name] = value;
  }
  return out;
}

function flattenTraits(traits: Record<string, unknown>, prefix = 'traits'): [string, unknown][] {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(traits)) {
    const name = `${prefix}.${key}`;
    if (value && typeof value === 'object' && !Array.isArray(value))
      entries.push(...flattenTraits(value as Record<string, unknown>, name));
    else entries.push([name, value]);
  }
  return entries;
}

/** The self-service flows whose update body names a method (recovery and verification only know `code`). */
export type MethodFlowKind = 'login' | 'registration' | 'settings';

/**
 * The method a self-service update is for: `method` when the body names one, else the one
 * its fields belong to, as Kratos's strategies recognise their own submit buttons without a
 * `method` (`webauthn_login`, `webauthn_register`, `webauthn_remove`; `provider`, `link`,
 * `unlink`; `totp_unlink`; `lookup_secret_regenerate`/`_reveal`/`_confirm`/`_disable`).
 * Lookout goes on to the value fields (`totp_code`, `lookup_secret`, `password`, `traits`)
 * so a client that leaves `method` out still reaches the method its body is plainly for.
 * Button fields come first: a settings form posts hidden inputs of other methods along.
 * '' when nothing fits (the flow then answers with its "no strategy" message).
 */
export function flowMethodOf(body: Record<string, unknown>, kind: MethodFlowKind): string {
  if (typeof body.method === 'string' && body.method) return body.method;
  const filled = (name: string) => typeof body[name] === 'string' && body[name] !== '';
  const pressed = (name: string) => isTruthy(body[name]);
  switch (kind) {
    case 'login':
      if (filled('webauthn_login')) return 'webauthn';
      if (filled('provider')) return 'oidc';
      if (filled('totp_code')) return 'totp';
      if (filled('lookup_secret')) return 'lookup_secret';
      if (filled('password')) return 'password';
      return '';
    case 'registration':
      if (filled('webauthn_register')) return 'webauthn';
      if (filled('provider')) return 'oidc';
      if (filled('password')) return 'password';
      return '';
    case 'settings':
      if (filled('webauthn_register') || filled('webauthn_remove')) return 'webauthn';
      if (filled('link') || filled('unlink')) return 'oidc';
      if (pressed('totp_unlink') || filled('totp_code')) return 'totp';
      if (
        ['lookup_secret_regenerate', 'lookup_secret_reveal', 'lookup_secret_confirm', 'lookup_secret_disable'].some(
          pressed,
        )
      )
        return 'lookup_secret';
      if (filled('password')) return 'password';
      if (body.traits && typeof body.traits === 'object' && !Array.isArray(body.traits)) return 'profile';
      return '';
  }
}

/** Form values come as strings; JSON bodies may send booleans. */
export function isTruthy(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 'on';
}

/**
 * return_to must stay on this installation: a path, or an absolute URL on the request's
 * origin. Anything else is refused with self_service_flow_return_to_forbidden.
 */
export function resolveReturnTo(
  returnTo: string | undefined,
  origin: string,
): { ok: true; value?: string } | { ok: false } {
  if (returnTo === undefined || returnTo === '') return { ok: true };
  if (returnTo.length > 2000) return { ok: false };
  if (returnTo.startsWith('/') && !returnTo.startsWith('//') && !returnTo.startsWith('/\\')) {
    return { ok: true, value: returnTo };
  }
  if (!URL.canParse(returnTo)) return { ok: false };
  const url = new URL(returnTo);
  if (url.origin !== origin) return { ok: false };
  return { ok: true, value: url.toString() };
}

/** Accept or Content-Type says JSON: the browser wants JSON instead of a redirect. */
export function wantsJson(headers: { accept?: string | undefined; 'content-type'?: string | undefined }): boolean {
  return (
    (headers.accept ?? '').includes('application/json') || (headers['content-type'] ?? '').includes('application/json')
  );
}

/** Parses a Cookie header (RFC 6265 name=value pairs). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 1) continue;
    const name = part.slice(0, index).trim();
    let value = part.slice(index + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!name || Object.hasOwn(cookies, name)) continue;
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

/**
 * The session token a request carries in a header: X-Session-Token, then
 * `Authorization: Bearer`. Scripts authenticate this way; a browser never sends these on its
 * own, so a request that has one was not forged by another site (the cross-site guard relies
 * on that).
 */
export function headerSessionTokenOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const xToken = header('x-session-token')?.trim();
  if (xToken) return xToken;
  const authorization = header('authorization')?.trim();
  if (authorization && /^bearer\s+/i.test(authorization)) {
    const token = authorization.replace(/^bearer\s+/i, '').trim();
    if (token) return token;
  }
  return undefined;
}

/** The session token a request carries: X-Session-Token, then Bearer, then the cookie. */
export function sessionTokenOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const fromHeader = headerSessionTokenOf(headers);
  if (fromHeader) return fromHeader;
  const cookieHeader = headers.cookie;
  const cookie = parseCookies(Array.isArray(cookieHeader) ? cookieHeader[0] : cookieHeader)[SESSION_COOKIE];
  return cookie || undefined;
}

export type Aal = 'aal1' | 'aal2';

export type CredentialSummary = { totp: boolean; lookupSecret: boolean; webauthn: boolean };

/** The highest AAL an identity can reach: aal2 once it has any second factor. */
export function highestAvailableAal(credentials: CredentialSummary): Aal {
  return credentials.totp || credentials.lookupSecret || credentials.webauthn ? 'aal2' : 'aal1';
}

/** A person's display name from traits: first and last joined, else the email. */
export function displayName(traits: Traits): string {
  const name = [traits.name?.first, traits.name?.last]
    .filter((part) => part && part.trim())
    .join(' ')
    .trim();
  return name || traits.email;
}
