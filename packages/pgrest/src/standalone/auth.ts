import { compactVerify, decodeProtectedHeader, errors as joseErrors, importJWK, type JWK } from 'jose';
import type { PgrestCaller, PgrestResponse } from '../engine-types.js';
import type { JsPath } from './config.js';
import { pgrstErrorResponse } from './responses.js';

/** What the authenticator needs from the configuration. */
export type AuthSettings = {
  /**
   * HMAC secret (HS256/384/512); undefined, without `keys`, means JWTs cannot be verified
   * (PGRST300).
   */
  secret: Uint8Array | undefined;
  /** Keys of a `jwt-secret` given as a JSON Web Key or Key Set, used instead of `secret`. */
  keys?: JwkKeyRing;
  roleClaimKey: JsPath;
  anonRole: string | undefined;
  /** Expected `aud` (PostgREST `jwt-aud`); undefined accepts any audience. */
  audience: string | undefined;
};

/** Either the caller to run the request as, or the 401/500 response PostgREST would send. */
export type AuthOutcome = { ok: true; caller: PgrestCaller } | { ok: false; response: PgrestResponse };

/** PostgREST allows this much clock skew, in seconds, on exp/nbf/iat. */
const ALLOWED_SKEW_SECONDS = 30;

const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'];

/**
 * Authenticates a request from its `Authorization` header the way PostgREST 14 does: no bearer
 * token means the anonymous role (or 401 PGRST302 without one); a token is verified (HMAC),
 * its exp/nbf/iat/aud claims are checked with 30 s of skew, and the role is read from the claim
 * at `roleClaimKey`, falling back to the anonymous role. Failures answer PostgREST's
 * PGRST300/301/302/303 errors with its `WWW-Authenticate` header.
 */
export async function authenticate(
  authorization: string | undefined,
  settings: AuthSettings,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<AuthOutcome> {
  const token = bearerToken(authorization);
  if (token === undefined) return anonymous(settings, {});
  if (token === '') return invalidToken('PGRST301', 'Empty JWT is sent in Authorization header');
  if (settings.secret === undefined && settings.keys === undefined) {
    return { ok: false, response: pgrstErrorResponse(500, { code: 'PGRST300', message: 'Server lacks JWT secret' }) };
  }

  const parts = token.split('.').length;
  if (parts !== 3) return invalidToken('PGRST301', `Expected 3 parts in JWT; got ${parts}`);

  const verified = settings.keys ? await verifyWithKeys(token, settings.keys) : await verifyWithSecret(token, settings);
  if (!('payload' in verified)) return verified;
  const { payload } = verified;

  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    claims = undefined;
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) {
    return invalidToken('PGRST303', 'Parsing claims failed');
  }
  const record = claims as Record<string, unknown>;
  const claimError = checkClaims(record, settings.audience, nowSeconds);
  if (claimError) return invalidToken('PGRST303', claimError);

  const roleValue = walkJsPath(record, settings.roleClaimKey);
  if (roleValue === undefined || roleValue === null) return anonymous(settings, record);
  const role = typeof roleValue === 'string' ? roleValue : JSON.stringify(roleValue);
  return { ok: true, caller: { role, claims: { ...record, role } } };
}

const NO_SUITABLE_KEY = ['No suitable key or wrong key type', 'None of the keys was able to decode the JWT'] as const;

/** A failed verification, as PostgREST words it (PGRST301). */
function verificationFailure(error: unknown): AuthOutcome {
  if (error instanceof joseErrors.JOSEAlgNotAllowed || error instanceof joseErrors.JOSENotSupported) {
    return invalidToken('PGRST301', 'Wrong or unsupported encoding algorithm', error.message);
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return invalidToken('PGRST301', ...NO_SUITABLE_KEY);
  return invalidToken('PGRST301', 'JWT cryptographic operation failed');
}

async function verifyWithSecret(token: string, settings: AuthSettings): Promise<{ payload: Uint8Array } | AuthOutcome> {
  try {
    return await compactVerify(token, settings.secret as Uint8Array, { algorithms: HMAC_ALGORITHMS });
  } catch (error) {
    return verificationFailure(error);
  }
}

/** The key types each JWS algorithm verifies with (and, for EC, the curve). */
const ALGORITHM_KEYS: Record<string, { kty: string; crv?: string }> = {
  HS256: { kty: 'oct' },
  HS384: { kty: 'oct' },
  HS512: { kty: 'oct' },
  RS256: { kty: 'RSA' },
  RS384: { kty: 'RSA' },
  RS512: { kty: 'RSA' },
  PS256: { kty: 'RSA' },
  PS384: { kty: 'RSA' },
  PS512: { kty: 'RSA' },
  ES256: { kty: 'EC', crv: 'P-256' },
  ES384: { kty: 'EC', crv: 'P-384' },
  ES512: { kty: 'EC', crv: 'P-521' },
  EdDSA: { kty: 'OKP' },
  Ed25519: { kty: 'OKP', crv: 'Ed25519' },
};

/** A key as `compactVerify` takes it. */
type ImportedKey = Awaited<ReturnType<typeof importJWK>>;

/** Members of private keys: verifying needs the public part only. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'] as const;

/**
 * The keys of a JSON Web Key (Set) `jwt-secret`, imported on first use for each algorithm a
 * token names (a WebCrypto key is bound to one algorithm).
 */
export class JwkKeyRing {
  private readonly imported = new Map<string, Promise<ImportedKey>>();
  private readonly keys: JWK[];

  constructor(keys: readonly JWK[]) {
    // Verifying needs a private key's public part only (and its key_ops name signing).
    this.keys = keys.map((key) => {
      if (key.kty === 'oct' || !PRIVATE_MEMBERS.some((name) => name in key)) return { ...key };
      return Object.fromEntries(
        Object.entries(key).filter(
          ([name]) => name !== 'key_ops' && !(PRIVATE_MEMBERS as readonly string[]).includes(name),
        ),
      ) as JWK;
    });
  }

  /**
   * Checks every key can be imported for an algorithm its type verifies, so a wrong
   * `jwt-secret` stops start-up instead of refusing every token.
   */
  async validate(): Promise<void> {
    for (const [index, key] of this.keys.entries()) {
      const alg =
        key.alg ??
        Object.entries(ALGORITHM_KEYS).find(
          ([, need]) => need.kty === key.kty && (need.crv === undefined || need.crv === key.crv),
        )?.[0];
      if (alg === undefined)
        throw new Error(`jwt-secret: key ${index + 1} has an unsupported "kty" ${JSON.stringify(key.kty)}`);
      try {
        await this.importFor(index, alg);
      } catch (error) {
        throw new Error(`jwt-secret: key ${index + 1} cannot be used (${(error as Error).message})`);
      }
    }
  }

  /**
   * The keys that may verify a token: with a `kid`, the keys with that `kid` (none: the token
   * is refused); without, every key; in both cases only keys of the algorithm's type, not
   * reserved for encryption and not bound to another algorithm.
   */
  candidates(alg: string, kid: string | undefined): number[] {
    const need = ALGORITHM_KEYS[alg];
    if (!need) return [];
    const out: number[] = [];
    this.keys.forEach((key, index) => {
      if (kid !== undefined && key.kid !== kid) return;
      if (key.kty !== need.kty || (need.crv !== undefined && key.crv !== need.crv)) return;
      if (key.use === 'enc' || (key.alg !== undefined && key.alg !== alg)) return;
      if (key.key_ops !== undefined && !key.key_ops.includes('verify')) return;
      out.push(index);
    });
    return out;
  }

  importFor(index: number, alg: string): Promise<ImportedKey> {
    const id = `${index}:${alg}`;
    let key = this.imported.get(id);
    if (!key) {
      key = importJWK(this.keys[index] as JWK, alg);
      // A failed import is not remembered, so it is reported to each token, not cached.
      key.catch(() => this.imported.delete(id));
      this.imported.set(id, key);
    }
    return key;
  }
}

/**
 * PostgREST's `kid` verification: a token naming a `kid` is checked against the keys with
 * that `kid` only; a token without one against each key until one verifies it.
 */
async function verifyWithKeys(token: string, ring: JwkKeyRing): Promise<{ payload: Uint8Array } | AuthOutcome> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return invalidToken('PGRST301', 'JWT cryptographic operation failed');
  }
  const alg = typeof header.alg === 'string' ? header.alg : '';
  if (!Object.hasOwn(ALGORITHM_KEYS, alg)) {
    return invalidToken(
      'PGRST301',
      'Wrong or unsupported encoding algorithm',
      `Unsupported algorithm ${JSON.stringify(alg)}`,
    );
  }
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  for (const index of ring.candidates(alg, kid)) {
    try {
      return await compactVerify(token, await ring.importFor(index, alg), { algorithms: [alg] });
    } catch (error) {
      if (error instanceof joseErrors.JWSSignatureVerificationFailed) continue;
      return verificationFailure(error);
    }
  }
  return invalidToken('PGRST301', ...NO_SUITABLE_KEY);
}

/** The token of `Authorization: Bearer <token>`; undefined when there is no bearer credential. */
function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const [scheme, ...rest] = authorization.trim().split(' ');
  // Other schemes (Basic, ...) are not PostgREST's business: the request stays anonymous.
  if (scheme === undefined || scheme.toLowerCase() !== 'bearer') return undefined;
  return rest.join(' ').trim();
}

function anonymous(settings: AuthSettings, claims: Record<string, unknown>): AuthOutcome {
  if (settings.anonRole === undefined) {
    return {
      ok: false,
      response: pgrstErrorResponse(
        401,
        { code: 'PGRST302', message: 'Anonymous access is disabled' },
        { 'WWW-Authenticate': 'Bearer' },
      ),
    };
  }
  // No `role`: the engine then switches to its anonRole and treats the caller as not
  // authenticated (42501 answers 401, as PostgREST does for requests without a JWT role).
  // PostgREST still exposes the anonymous role in request.jwt.claims.
  return { ok: true, caller: { claims: { ...claims, role: settings.anonRole } } };
}

function invalidToken(code: string, message: string, details: string | null = null): AuthOutcome {
  return {
    ok: false,
    response: pgrstErrorResponse(
      401,
      { code, message, details },
      { 'WWW-Authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}` },
    ),
  };
}

/** PostgREST's claim checks, in its order: exp, nbf, iat, aud. */
function checkClaims(claims: Record<string, unknown>, audience: string | undefined, now: number): string | undefined {
  const exp = claims.exp;
  if (exp !== undefined && exp !== null) {
    if (typeof exp !== 'number') return "The JWT 'exp' claim must be a number";
    if (now - ALLOWED_SKEW_SECONDS > Math.floor(exp)) return 'JWT expired';
  }
  const nbf = claims.nbf;
  if (nbf !== undefined && nbf !== null) {
    if (typeof nbf !== 'number') return "The JWT 'nbf' claim must be a number";
    if (now + ALLOWED_SKEW_SECONDS < Math.floor(nbf)) return 'JWT not yet valid';
  }
  const iat = claims.iat;
  if (iat !== undefined && iat !== null) {
    if (typeof iat !== 'number') return "The JWT 'iat' claim must be a number";
    if (now + ALLOWED_SKEW_SECONDS < Math.floor(iat)) return 'JWT issued at future';
  }
  const aud = claims.aud;
  if (aud !== undefined && aud !== null) {
    const list =
      typeof aud === 'string' ? [aud] : Array.isArray(aud) && aud.every((a) => typeof a === 'string') ? aud : undefined;
    if (list === undefined) return "The JWT 'aud' claim must be a string or an array of strings";
    // An empty audience list is accepted, like PostgREST does.
    if (audience !== undefined && list.length > 0 && !list.includes(audience)) return 'JWT not in audience';
  }
  return undefined;
}

/** Follows a JSPath through decoded claims; undefined when a step does not exist. */
export function walkJsPath(value: unknown, path: JsPath): unknown {
  let current: unknown = value;
  for (const step of path) {
    if ('key' in step) {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
      current = (current as Record<string, unknown>)[step.key];
    } else {
      if (!Array.isArray(current)) return undefined;
      current = current[step.index];
    }
    if (current === undefined) return undefined;
  }
  return current;
}
