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
  /** AES-256-GCM; the output carries its version, nonce and tag. */
  encrypt: (plain: string) => string;
  decrypt: (sealed: string) => string;
  /** Keyed hash for one-time codes and backup codes (high entropy or short-lived). */
  hmac: (value: string) => string;
};

/** Derives separate encryption and MAC keys from the installation's secret key. */
export function createSecretBox(secretKey: string): SecretBox {
  const material = Buffer.from(secretKey, 'utf8');
  const encryptionKey = Buffer.from(hkdfSync('sha256', material, 'lookout-identity', 'aes-256-gcm', 32));
  const macKey = Buffer.from(hkdfSync('sha256', material, 'lookout-identity', 'hmac-sha256', 32));
  return {
    encrypt(plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, nonce);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1.${nonce.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    decrypt(sealed) {
      const [version, nonce, body, tag] = sealed.split('.');
      if (version !== 'v1' || !nonce || body === undefined || !tag) throw new Error('Unknown ciphertext format');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
    hmac(value) {
      return createHmac('sha256', macKey).update(value, 'utf8').digest('base64url');
    },
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
