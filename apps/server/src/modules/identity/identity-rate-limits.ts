import type { IdentityRepository } from './identity-repository.js';
import type { RequestContext } from './identity-types.js';
import { errors } from './kratos-errors-fns.js';

/**
 * Fixed-window limits, counted in the database so every replica shares them. The client is
 * the address that connects, or the one a trusted proxy names (LOOKOUT_TRUST_PROXY). Attempts
 * at one account are counted per client too: attempts from elsewhere can not lock its owner
 * out, and each client still gets only a handful of guesses.
 */
const RATE_LIMITS = {
  /** Password attempts at one identifier from one client. */
  loginPerIdentifierAndClient: { windowMs: 15 * 60_000, max: 10 },
  /** Password attempts from one client, whatever the identifier. */
  loginPerClient: { windowMs: 15 * 60_000, max: 100 },
  /** Second-factor codes (TOTP, backup codes) for one identity from one client. */
  secondFactorPerIdentityAndClient: { windowMs: 15 * 60_000, max: 10 },
  codeSendPerAddress: { windowMs: 15 * 60_000, max: 5 },
  codeSendPerIp: { windowMs: 15 * 60_000, max: 30 },
  /** New flows of any kind, browser or API, from one client: each one is a row. */
  flowsPerClient: { windowMs: 15 * 60_000, max: 300 },
} as const;

/** Counts one hit of `key` in a bucket; a hit past its limit throws Kratos's 429 with Retry-After. */
export type RateLimit = (bucket: keyof typeof RATE_LIMITS, key: string | undefined) => Promise<void>;

export function createRateLimit(repository: Pick<IdentityRepository, 'hitRateLimit'>): RateLimit {
  return async function rateLimit(bucket, key) {
    if (!key) return;
    const limit = RATE_LIMITS[bucket];
    const { hits, retryAfterSeconds } = await repository.hitRateLimit(bucket, key, limit.windowMs);
    if (hits > limit.max) throw errors.rateLimited(retryAfterSeconds);
  };
}

/** A counter key for something done from the request's client (the client first, so it survives truncation). */
export const fromClient = (ctx: Pick<RequestContext, 'ip'>, what: string) => `${ctx.ip ?? 'unknown'}|${what}`;
