import { createHmac, hkdfSync } from 'node:crypto';
import type pg from 'pg';
import { safeEqual } from './identity-crypto.js';

/**
 * One secret key for every replica on a database (migration 9, docs/identity.md). The key
 * keys one-time codes and backup codes and encrypts TOTP seeds, so a replica with a key of its
 * own would refuse the codes the others issue and could not read the seeds they stored.
 */

/** The setting that replicas must share; every message about the key names it. */
export const SECRET_KEY_SETTING = 'LOOKOUT_SECRET_KEY';

const FINGERPRINT_LABEL = 'lookout secret key fingerprint v1';

/**
 * A fingerprint that tells two keys apart without revealing either: HMAC-SHA256 of a fixed
 * label under a key derived from the secret key with its own HKDF label, so it is no key the
 * identity service encrypts or hashes with.
 */
export function secretKeyFingerprint(secretKey: string): string {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), 'lookout-identity', 'fingerprint', 32));
  return createHmac('sha256', key).update(FINGERPRINT_LABEL, 'utf8').digest('base64url');
}

/** Start-up found a secret key that differs from the one the database was set up with. */
export class SecretKeyMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyMismatchError';
  }
}

export type SharedSecretKeyOptions = {
  pool: pg.Pool;
  secretKey: string;
  /** Where the key came from when LOOKOUT_SECRET_KEY is not set: `<data dir>/secret-key`. */
  keyFile?: string;
};

/**
 * Records the key's fingerprint on the first start against a database, and refuses a key
 * whose fingerprint differs from the recorded one. Replicas starting together race on one
 * INSERT; the loser reads the winner's fingerprint.
 */
export async function assertSharedSecretKey({ pool, secretKey, keyFile }: SharedSecretKeyOptions): Promise<void> {
  const fingerprint = secretKeyFingerprint(secretKey);
  await pool.query('INSERT INTO identity_secret_key (fingerprint) VALUES ($1) ON CONFLICT (singleton) DO NOTHING', [
    fingerprint,
  ]);
  const { rows } = await pool.query<{ fingerprint: string; recorded_at: Date }>(
    'SELECT fingerprint, recorded_at FROM identity_secret_key WHERE singleton',
  );
  const recorded = rows[0];
  if (!recorded) throw new Error('The secret key fingerprint could not be recorded in the database.');
  if (safeEqual(recorded.fingerprint, fingerprint)) return;
  const source = keyFile
    ? `This server's key was generated into ${keyFile} because ${SECRET_KEY_SETTING} is not set.`
    : `This server's key comes from ${SECRET_KEY_SETTING}.`;
  throw new SecretKeyMismatchError(
    `${SECRET_KEY_SETTING} differs from the key the other Lookout servers on this database use (recorded ${recorded.recorded_at.toISOString()}). ` +
      `${source} Every replica needs the same ${SECRET_KEY_SETTING}: set it to the first server's key ` +
      `(its ${SECRET_KEY_SETTING}, or the secret-key file in its data directory). ` +
      'To replace the key on purpose, see "Secret key" in docs/identity.md.',
  );
}
