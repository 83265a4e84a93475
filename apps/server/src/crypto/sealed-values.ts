import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Credentials Lookout stores for others (secret store values, connection passwords and
 * tokens) are kept sealed: AES-256-GCM under a key derived with HKDF from LOOKOUT_SECRET_KEY,
 * with a label of its own, so it is no key the identity service uses.
 *
 * A sealed value is one string: `sealed:v1:<key id>:<nonce>.<ciphertext>.<tag>` (base64url
 * parts). The key id (8 characters of an HMAC under the derived key) tells which key sealed
 * a value, so a key ring that holds the current key and the ones before it opens values
 * sealed under any of them while a rotation re-seals them (docs/adr/0017-sealed-credentials.md).
 *
 * An optional `context` (for example `connections:password`) is bound as associated data: a
 * value sealed for one field does not open as another.
 */

const PREFIX = 'sealed:v1:';
const KDF_SALT = 'lookout-sealed-values';
const KDF_INFO = 'aes-256-gcm v1';

export type Sealer = {
  /** The id of the key that seals; values sealed under older keys report theirs. */
  readonly keyId: string;
  seal: (plain: string, context?: string) => string;
  /** Opens a value sealed under any key of the ring; throws {@link SealedValueError} otherwise. */
  open: (sealed: string, context?: string) => string;
  /** The key id a sealed value names, or undefined when the value is not sealed. */
  keyIdOf: (value: string) => string | undefined;
};

/** A value that is not sealed, is damaged, or was sealed under a key this ring lacks. */
export class SealedValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedValueError';
  }
}

/** True for a string in the sealed format (whatever key sealed it). */
export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

type DerivedKey = { id: string; key: Buffer };

function deriveKey(secretKey: string): DerivedKey {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), KDF_SALT, KDF_INFO, 32));
  const id = createHmac('sha256', key).update('key id', 'utf8').digest('base64url').slice(0, 8);
  return { id, key };
}

/**
 * Seals with `secretKey`; opens values sealed under it or any of `previousKeys` (the keys a
 * rotation replaces, until every value is re-sealed).
 */
export function createSealer(secretKey: string, previousKeys: readonly string[] = []): Sealer {
  const current = deriveKey(secretKey);
  const ring = new Map<string, Buffer>([[current.id, current.key]]);
  for (const previous of previousKeys) {
    const derived = deriveKey(previous);
    if (!ring.has(derived.id)) ring.set(derived.id, derived.key);
  }

  const parse = (value: string) => {
    if (!isSealed(value)) throw new SealedValueError('The value is not sealed.');
    const [keyId, payload] = splitOnce(value.slice(PREFIX.length), ':');
    const [nonce, body, tag] = (payload ?? '').split('.');
    if (!keyId || !nonce || body === undefined || !tag) throw new SealedValueError('The sealed value is damaged.');
    return { keyId, nonce, body, tag };
  };

  return {
    keyId: current.id,
    seal(plain, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.key, nonce);
      if (context) cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [nonce, body, cipher.getAuthTag()].map((part) => part.toString('base64url'));
      return `${PREFIX}${current.id}:${parts.join('.')}`;
    },
    open(sealed, context) {
      const { keyId, nonce, body, tag } = parse(sealed);
      const key = ring.get(keyId);
      if (!key) {
        throw new SealedValueError(
          `The value was sealed under another LOOKOUT_SECRET_KEY (key id ${keyId}); start with that key, or pass it as LOOKOUT_PREVIOUS_SECRET_KEYS to re-seal.`,
        );
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
        if (context) decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SealedValueError('The sealed value is damaged or belongs to another field.');
      }
    },
    keyIdOf(value) {
      return isSealed(value) ? splitOnce(value.slice(PREFIX.length), ':')[0] : undefined;
    },
  };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
}
