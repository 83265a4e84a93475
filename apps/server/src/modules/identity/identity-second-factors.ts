import { randomBytes } from 'node:crypto';
import { generateAuthenticationOptions, generateRegistrationOptions } from '@simplewebauthn/server';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { CredentialRow } from './credentials-repository.js';
import { displayName, type CredentialSummary } from './identity-fns.js';
import type { IdentityRow } from './identities-repository.js';
import type { Queryable } from './identity-repository.js';
import type { RequestContext } from './identity-types.js';

/**
 * The second factors' own parts: TOTP seeds and codes, backup codes (lookup secrets) as
 * stored, and security keys (WebAuthn) with their ceremony options. The login and settings
 * flows use them; the flow kernel renders them.
 */

const TOTP_ISSUER = 'Lookout';

/** A security key as stored in the identity's `webauthn` credential. */
export type StoredWebAuthn = {
  id: string;
  public_key: string;
  counter: number;
  transports?: string[];
  display_name: string;
  added_at: string;
};

/** A backup code as stored in the `lookup_secret` credential: its keyed hash, and when it was used. */
export type LookupSecret = { hash: string; used_at?: string };

/** Which second factors an identity's credentials hold. */
export function secondFactorsOf(credentials: CredentialRow[]): CredentialSummary {
  const lookup = credentials.find((c) => c.type === 'lookup_secret');
  const webauthn = credentials.find((c) => c.type === 'webauthn');
  return {
    totp: credentials.some((c) => c.type === 'totp'),
    lookupSecret: Boolean(
      lookup && Array.isArray(lookup.config.lookup_secrets) && lookup.config.lookup_secrets.length > 0,
    ),
    webauthn: Boolean(webauthn && Array.isArray(webauthn.config.credentials) && webauthn.config.credentials.length > 0),
  };
}

function totpFor(secret: string, email: string) {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
}

/** A new TOTP seed (base32), as proposed with a settings flow. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** A seed awaiting its first code, as the settings page shows it: the seed and its QR code. */
export async function totpEnrolment(secret: string, email: string): Promise<{ secret: string; qrDataUrl: string }> {
  const uri = totpFor(secret, email).toString();
  return { secret, qrDataUrl: await QRCode.toDataURL(uri, { width: 256, margin: 1 }) };
}

/** The relying party is this installation's host name, as the browser sees it. */
export const rpIdOf = (ctx: Pick<RequestContext, 'origin'>) => new URL(ctx.origin).hostname;
export const webauthnScriptSrc = (ctx: Pick<RequestContext, 'baseUrl'>) => `${ctx.baseUrl}/.well-known/ory/webauthn.js`;
export const newChallenge = () => randomBytes(32).toString('base64url');

/** A WebAuthn response the browser posted as a JSON string, or undefined when it is not one. */
export function parseCeremony<T>(value: unknown): T | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 20_000) return undefined;
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as T) : undefined;
  } catch {
    return undefined;
  }
}

export type SecondFactors = ReturnType<typeof createSecondFactors>;

export function createSecondFactors({
  now,
  credentialsOf,
}: {
  now: () => Date;
  credentialsOf: (identityId: string, tx?: Queryable) => Promise<CredentialRow[]>;
}) {
  /**
   * The time step (30-second counter) of `code` for `secret`, when the code is one of the
   * current step or a neighbouring one (clock drift, as Kratos allows), else undefined.
   */
  function totpStepOf(secret: string, email: string, code: string): number | undefined {
    if (!/^\d{6}$/.test(code)) return undefined;
    const totp = totpFor(secret, email);
    const timestamp = now().getTime();
    const delta = totp.validate({ token: code, window: 1, timestamp });
    return delta === null ? undefined : totp.counter({ timestamp }) + delta;
  }

  async function webauthnCredentialsOf(identityId: string, tx?: Queryable): Promise<StoredWebAuthn[]> {
    const credential = (await credentialsOf(identityId, tx)).find((c) => c.type === 'webauthn');
    return (credential?.config.credentials as StoredWebAuthn[] | undefined) ?? [];
  }

  /** What the settings page needs to add a security key, and the keys it lists. */
  async function webauthnSettings(identity: IdentityRow, challenge: string, ctx: RequestContext) {
    const existing = await webauthnCredentialsOf(identity.id);
    const options = await generateRegistrationOptions({
      rpName: 'Lookout',
      rpID: rpIdOf(ctx),
      userName: identity.traits.email,
      userDisplayName: displayName(identity.traits),
      userID: Buffer.from(identity.id, 'utf8'),
      challenge: Buffer.from(challenge, 'base64url'),
      attestationType: 'none',
      excludeCredentials: existing.map((c) => ({ id: c.id, ...(c.transports ? { transports: c.transports } : {}) })),
      authenticatorSelection: { residentKey: 'discouraged', userVerification: 'discouraged' },
    });
    return {
      scriptSrc: webauthnScriptSrc(ctx),
      registerOptions: JSON.stringify({ publicKey: options }),
      credentials: existing.map((c) => ({ id: c.id, displayName: c.display_name, addedAt: new Date(c.added_at) })),
    };
  }

  /** The options (JSON) of a second-factor sign-in with one of the identity's security keys. */
  async function webauthnLoginOptions(identityId: string, challenge: string, ctx: RequestContext): Promise<string> {
    return JSON.stringify({
      publicKey: await generateAuthenticationOptions({
        rpID: rpIdOf(ctx),
        allowCredentials: (await webauthnCredentialsOf(identityId)).map((c) => ({
          id: c.id,
          ...(c.transports ? { transports: c.transports } : {}),
        })),
        challenge: Buffer.from(challenge, 'base64url'),
        userVerification: 'discouraged',
      }),
    });
  }

  return { totpStepOf, webauthnCredentialsOf, webauthnSettings, webauthnLoginOptions };
}
