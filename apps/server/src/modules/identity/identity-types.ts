import type { Logger } from 'pino';
import type { OidcProviderConfig } from '../../config/config.js';
import type { Courier } from './identity-courier.js';
import type { SecretBox } from './identity-crypto.js';
import type { IdentityRow } from './identities-repository.js';
import type { IdentityRepository } from './identity-repository.js';
import type { SessionRow } from './sessions-repository.js';

/**
 * The types the parts of the identity service (identity-service.ts and the flow files it
 * composes), its routes and the modules that receive it share.
 */

/**
 * Everything the identity service needs to know about the HTTP request it serves. Its URLs
 * are for the requester only (LOOKOUT_PUBLIC_URL, else the request's host): links for anyone
 * else come from `linkOrigin` (see http/public-url.ts).
 */
export type RequestContext = {
  /** `https://lookout.example.com` as the client sees it. */
  origin: string;
  /** Where the Kratos API is mounted: origin + `/api/.ory`. */
  baseUrl: string;
  /** The full URL of this request. */
  requestUrl: string;
  sessionToken?: string;
  csrfCookie?: string;
  ip?: string;
  userAgent?: string;
  /** The client asked for JSON (Accept or Content-Type); browsers otherwise get redirects. */
  json: boolean;
};

/** What a route sends back: a status with a body, or a 303 redirect, plus cookies. */
export type Outcome = {
  status: number;
  body?: unknown;
  redirect?: string;
  setSession?: { token: string; expiresAt: Date };
  clearSession?: boolean;
  setCsrf?: string;
};

export type IdentitySettings = {
  secretKey: string;
  /** LOOKOUT_PREVIOUS_SECRET_KEYS: what they encrypted still opens; codes hashed under them still verify. */
  previousSecretKeys?: readonly string[];
  registrationOpen: boolean;
  sessionLifetimeMs: number;
  /**
   * LOOKOUT_REVOKE_SESSIONS_ON_PASSWORD_CHANGE (default true): a password change in the
   * settings ends the identity's other sessions, as Kratos's `revoke_active_sessions` hook.
   */
  revokeSessionsOnPasswordChange: boolean;
  smtpUrl?: string;
  smtpFrom: string;
  oidcProviders: OidcProviderConfig[];
  /** KRATOS_PUBLIC_URL: identities live in that Ory Kratos; /api/.ory is a proxy to it. */
  kratosPublicUrl?: string;
  /** KRATOS_ADMIN_URL: its admin API, for user administration (only with kratosPublicUrl). */
  kratosAdminUrl?: string;
  /**
   * How often the copies of that Kratos's identities are refreshed (default
   * KRATOS_IDENTITY_SYNC_INTERVAL_MS, external-kratos/kratos-identity-sync.ts); tests shorten it.
   */
  kratosSyncIntervalMs?: number;
};

export type IdentityServiceDeps = {
  repository: IdentityRepository;
  box: SecretBox;
  courier: Pick<Courier, 'queue'>;
  /**
   * The origin of the links in emails (LOOKOUT_PUBLIC_URL, or http://localhost:<PORT>): never
   * the request's, which anyone asking for someone else's recovery code could set.
   */
  linkOrigin: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  settings: Pick<
    IdentitySettings,
    'registrationOpen' | 'sessionLifetimeMs' | 'oidcProviders' | 'revokeSessionsOnPasswordChange'
  >;
  now?: () => Date;
};

/** The dependencies every part of the identity service shares, with the clock chosen. */
export type IdentityServiceContext = Omit<IdentityServiceDeps, 'now'> & { now: () => Date };

export type ResolvedSession = { session: SessionRow; identity: IdentityRow; token: string };

/** A submitted flow body (form or JSON), as the routes normalised it. */
export type FlowBody = Record<string, unknown>;
