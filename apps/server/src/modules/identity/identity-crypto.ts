import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

// @node-rs/argon2 declares Algorithm as an ambient const enum, which isolatedModules cannot
// read; 2 is its Argon2id member.
const ARGON2ID = 2;

/**
 * Cryptography of the identity service, all from well-kept libraries: argon2id from
 * @node-rs/argon2 (runs on libuv's thread pool, off the event loop), AES-256-GCM, HMAC,
 * HKDF and random numbers from node:crypto.
 */

export type SecretBox = {
  /** AES-256-GCM under the current key; the output carries its version, nonce and tag. */
  encrypt: (plain: string) => string;
  /** Opens what the current key or a previous one (LOOKOUT_PREVIOUS_SECRET_KEYS) encrypted. */
  decrypt: (sealed: string) => string;
  /** Keyed hash for one-time codes and backup codes (high entropy or short-lived), under the current key. */
  hmac: (value: string) => string;
  /**
   * The hashes a code may be stored under: the current key's first, then each previous key's,
   * so codes and backup codes issued before a rotation still verify while the old key is
   * listed in LOOKOUT_PREVIOUS_SECRET_KEYS (docs/secrets.md, "Rotating the key").
   */
  hmacCandidates: (value: string) => string[];
};

type BoxKeys = { encryptionKey: Buffer; macKey: Buffer };

function boxKeys(secretKey: string): BoxKeys {
  const material = Buffer.from(secretKey, 'utf8');
  return {
    encryptionKey: Buffer.from(hkdfSync('sha256', material, 'lookout-identity', 'aes-256-gcm', 32)),
    macKey: Buffer.from(hkdfSync('sha256', material, 'lookout-identity', 'hmac-sha256', 32)),
  };
}

function decryptWith(encryptionKey: Buffer, sealed: string): string {
  const [version, nonce, body, tag] = sealed.split('.');
  if (version !== 'v1' || !nonce || body === undefined || !tag) throw new Error('Unknown ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(nonce, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * Derives separate encryption and MAC keys from the installation's secret key, and from the
 * keys a rotation replaces (their ciphertexts carry no key id: GCM's tag tells which key fits).
 */
export function createSecretBox(secretKey: string, previousKeys: readonly string[] = []): SecretBox {
  const current = boxKeys(secretKey);
  const previous = previousKeys.filter((key) => key !== secretKey).map(boxKeys);
  const hmacUnder = (macKey: Buffer, value: string) =>
    createHmac('sha256', macKey).update(value, 'utf8').digest('base64url');
  return {
    encrypt(plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.encryptionKey, nonce);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1.${nonce.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    decrypt(sealed) {
      try {
        return decryptWith(current.encryptionKey, sealed);
      } catch (error) {
        for (const keys of previous) {
          try {
            return decryptWith(keys.encryptionKey, sealed);
          } catch {
            // not this key either
          }
        }
        throw error;
      }
    },
    hmac: (value) => hmacUnder(current.macKey, value),
    hmacCandidates: (value) => [current, ...previous].map((keys) => hmacUnder(keys.macKey, value)),
  };
}

/** Session tokens carry 256 random bits, so a plain SHA-256 is enough to store them. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

export function randomToken(prefix = ''): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** A uniformly random numeric code such as 048213. */
export function randomDigits(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += String(randomInt(0, 10));
  return code;
}

const LOOKUP_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** Backup codes: 8 characters from an alphabet without look-alikes (about 40 bits each). */
export function randomLookupCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += LOOKUP_ALPHABET[randomInt(0, LOOKUP_ALPHABET.length)];
  return code;
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** argon2id with the OWASP-recommended parameters (19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify(hashed, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of a password check when there is no account, so a wrong identifier and
 * a wrong password take as long (no account enumeration by timing).
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomToken());
  await verifyPassword(await dummyHash, password);
}
