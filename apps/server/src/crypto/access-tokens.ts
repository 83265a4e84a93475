import { createHash, randomBytes } from 'node:crypto';

/**
 * Bearer tokens kept in `access_tokens` (kubeconfig files, agents): 32 random bytes behind a
 * prefix that says what the token is for, so a leaked one is recognisable in logs and secret
 * scanners, and an endpoint refuses another kind's token before any lookup. Only the SHA-256
 * of a token is stored.
 */
export const ACCESS_TOKEN_PREFIXES = {
  /** kubectl with a downloaded kubeconfig (/api/kubernetes). */
  kubeconfig: 'lkt_',
  /** An agent pushing to its upstream (/upstream/push, /upstream/ping). */
  agent: 'lka_',
} as const;
export type AccessTokenKind = keyof typeof ACCESS_TOKEN_PREFIXES;

/** A new clear token of that kind: shown to its owner once, never stored. */
export function newAccessToken(kind: AccessTokenKind): string {
  return `${ACCESS_TOKEN_PREFIXES[kind]}${randomBytes(32).toString('base64url')}`;
}

/** True when the token has the prefix of that kind. */
export function isAccessTokenOf(kind: AccessTokenKind, token: string): boolean {
  return token.startsWith(ACCESS_TOKEN_PREFIXES[kind]);
}

/** What `access_tokens.token_sha256` holds for a token. */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
