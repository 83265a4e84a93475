import { createHmac, hkdfSync } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import { withTransaction } from '../../db/transaction.js';
import { PREVIOUS_SECRET_KEYS_SETTING, SECRET_KEY_SETTING } from '../../crypto/secret-key.js';
import { createSecretBox, safeEqual } from './identity-crypto.js';
import { reencryptIdentitySecrets } from './identity-secret-rotation.js';

/**
 * One secret key for every replica on a database (migration 9, docs/identity.md). The key
 * keys one-time codes and backup codes and encrypts TOTP seeds, so a replica with a key of its
 * own would refuse the codes the others issue and could not read the seeds they stored.
 */

export { SECRET_KEY_SETTING };

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
  /** LOOKOUT_PREVIOUS_SECRET_KEYS: a recorded fingerprint of one of them is a rotation, not a mismatch. */
  previousKeys?: readonly string[];
  /** Where the key came from when LOOKOUT_SECRET_KEY is not set: `<data dir>/secret-key`. */
  keyFile?: string;
  logger?: Pick<Logger, 'info'>;
};

/**
 * Records the key's fingerprint on the first start against a database, and refuses a key
 * whose fingerprint differs from the recorded one. Replicas starting together race on one
 * INSERT; the loser reads the winner's fingerprint.
 *
 * When the recorded fingerprint is that of a previous key (LOOKOUT_PREVIOUS_SECRET_KEYS), the
 * key is being rotated: in one transaction, holding the row, the identity secrets encrypted
 * under the old key are encrypted again under the new one and the new fingerprint is recorded.
 * A replica that starts with the same keys meanwhile waits on the row and then finds the new
 * fingerprint.
 */
export async function assertSharedSecretKey({
  pool,
  secretKey,
  previousKeys = [],
  keyFile,
  logger,
}: SharedSecretKeyOptions): Promise<void> {
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
  const replaced = previousKeys.find((key) => safeEqual(secretKeyFingerprint(key), recorded.fingerprint));
  if (replaced !== undefined) {
    await rotateSecretKey({ pool, secretKey, previousKeys, fingerprint, ...(logger ? { logger } : {}) });
    return;
  }
  const source = keyFile
    ? `This server's key was generated into ${keyFile} because ${SECRET_KEY_SETTING} is not set.`
    : `This server's key comes from ${SECRET_KEY_SETTING}.`;
  const previous =
    previousKeys.length > 0
      ? ` None of the ${previousKeys.length} key(s) in ${PREVIOUS_SECRET_KEYS_SETTING} is it either.`
      : '';
  throw new SecretKeyMismatchError(
    `${SECRET_KEY_SETTING} differs from the key the other Lookout servers on this database use (recorded ${recorded.recorded_at.toISOString()}). ` +
      `${source}${previous} Every replica needs the same ${SECRET_KEY_SETTING}: set it to the first server's key ` +
      `(its ${SECRET_KEY_SETTING}, or the secret-key file in its data directory). ` +
      `To replace the key on purpose, start with the new key and the old one in ${PREVIOUS_SECRET_KEYS_SETTING} (see "Rotating the key" in docs/secrets.md).`,
  );
}

async function rotateSecretKey(options: {
  pool: pg.Pool;
  secretKey: string;
  previousKeys: readonly string[];
  fingerprint: string;
  logger?: Pick<Logger, 'info'>;
}): Promise<void> {
  const counts = await withTransaction(options.pool, async (client) => {
    const { rows } = await client.query<{ fingerprint: string }>(
      'SELECT fingerprint FROM identity_secret_key WHERE singleton FOR UPDATE',
    );
    // Another replica with the same keys rotated while this one waited for the row.
    if (rows[0] && safeEqual(rows[0].fingerprint, options.fingerprint)) return undefined;
    const reencrypted = await reencryptIdentitySecrets(
      client,
      createSecretBox(options.secretKey, options.previousKeys),
    );
    await client.query('UPDATE identity_secret_key SET fingerprint = $1, recorded_at = now() WHERE singleton', [
      options.fingerprint,
    ]);
    return reencrypted;
  });
  if (counts) {
    options.logger?.info(
      { ...counts, setting: SECRET_KEY_SETTING },
      'Rotated the secret key: identity secrets are encrypted under the new key',
    );
  }
}
