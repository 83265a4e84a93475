import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveSettings } from '../../../test/build-test-app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { parseConfig, readConfigInput } from '../../config/config.js';
import { findFreePort } from '../../db/free-port.js';
import { serve } from '../../server.js';
import { resolveSecretKey, SECRET_KEY_FILE } from '../../crypto/secret-key.js';
import { seedIdentity } from '../../../test/identity-helpers.js';
import { createSecretBox } from './identity-crypto.js';
import { createIdentityRepository } from './identity-repository.js';
import { assertSharedSecretKey, secretKeyFingerprint, SecretKeyMismatchError } from './identity-secret-key.js';

describe('one secret key for every replica on a database', () => {
  let database: TestDatabase;
  const dataDirs: string[] = [];
  const newDataDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lookout-replica-'));
    dataDirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  beforeEach(async () => {
    // Each case starts as a database no server has started against yet.
    await database.pool.query('DELETE FROM identity_secret_key');
  });
  afterAll(async () => {
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    await database.drop();
  });

  it('stops a second server whose generated key differs, naming LOOKOUT_SECRET_KEY and its key file', async () => {
    const first = await newDataDir();
    const second = await newDataDir();
    const firstKey = await resolveSecretKey({ dataDir: first });
    const secondKey = await resolveSecretKey({ dataDir: second });
    expect(secondKey).not.toBe(firstKey);

    await assertSharedSecretKey({
      pool: database.pool,
      secretKey: firstKey,
      keyFile: path.join(first, SECRET_KEY_FILE),
    });
    // The first server starts again with its own key.
    await assertSharedSecretKey({
      pool: database.pool,
      secretKey: firstKey,
      keyFile: path.join(first, SECRET_KEY_FILE),
    });

    const refused = assertSharedSecretKey({
      pool: database.pool,
      secretKey: secondKey,
      keyFile: path.join(second, SECRET_KEY_FILE),
    });
    await expect(refused).rejects.toBeInstanceOf(SecretKeyMismatchError);
    await expect(refused).rejects.toThrow(/^LOOKOUT_SECRET_KEY differs from the key the other Lookout servers/);
    await expect(refused).rejects.toThrow(path.join(second, SECRET_KEY_FILE));
    await expect(refused).rejects.toThrow('Every replica needs the same LOOKOUT_SECRET_KEY');
    // The refused key did not replace the recorded one.
    const { rows } = await database.pool.query<{ fingerprint: string }>('SELECT fingerprint FROM identity_secret_key');
    expect(rows).toEqual([{ fingerprint: secretKeyFingerprint(firstKey) }]);
  });

  it('lets a second server start with the first one’s key set as LOOKOUT_SECRET_KEY', async () => {
    const first = await newDataDir();
    const firstKey = await resolveSecretKey({ dataDir: first });
    await assertSharedSecretKey({ pool: database.pool, secretKey: firstKey });
    const second = await newDataDir();
    const sharedKey = await resolveSecretKey({ dataDir: second, secretKey: firstKey });
    await expect(assertSharedSecretKey({ pool: database.pool, secretKey: sharedKey })).resolves.toBeUndefined();

    const wrong = assertSharedSecretKey({ pool: database.pool, secretKey: 'another-key-set-in-the-environment-0123' });
    await expect(wrong).rejects.toThrow("This server's key comes from LOOKOUT_SECRET_KEY.");
  });

  it('stops `lookout serve` on the same DATABASE_URL before it listens when its key differs', async () => {
    await assertSharedSecretKey({ pool: database.pool, secretKey: 'the-first-servers-key-0123456789abcdef' });
    const dataDir = await newDataDir();
    const port = await findFreePort();
    const config = parseConfig(
      readConfigInput({ DATABASE_URL: database.url, LOOKOUT_DATA_DIR: dataDir, PORT: String(port) }, {}),
    );
    // serve() takes SIGINT and SIGTERM over for its shutdown; this process gets them back after.
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
    try {
      const started = serve(config, pino({ level: 'silent' }), serveSettings());
      await expect(started).rejects.toBeInstanceOf(SecretKeyMismatchError);
      await expect(started).rejects.toThrow(path.join(dataDir, SECRET_KEY_FILE));
    } finally {
      for (const signal of signals)
        for (const listener of process.listeners(signal))
          if (!before.get(signal)!.has(listener)) process.off(signal, listener);
    }
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(false)));
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it('lets exactly one of two replicas with different keys starting together record its key', async () => {
    const keys = ['replica-a-key-0123456789abcdefghijklmnop', 'replica-b-key-0123456789abcdefghijklmnop'];
    const results = await Promise.allSettled(
      keys.map((secretKey) => assertSharedSecretKey({ pool: database.pool, secretKey })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(1);
  });

  it('keeps a fingerprint that tells keys apart without being the key or a key the service uses', () => {
    const key = 'a-secret-key-of-at-least-32-characters-long';
    const fingerprint = secretKeyFingerprint(key);
    expect(secretKeyFingerprint(key)).toBe(fingerprint);
    expect(secretKeyFingerprint(`${key}!`)).not.toBe(fingerprint);
    expect(fingerprint).not.toContain(key);
    expect(fingerprint).not.toContain(Buffer.from(key).toString('base64url').slice(0, 12));
    // Not what the identity service's code hashes would give for the same label.
    expect(createSecretBox(key).hmac('lookout secret key fingerprint v1')).not.toBe(fingerprint);
  });

  describe('rotation (LOOKOUT_PREVIOUS_SECRET_KEYS)', () => {
    const OLD = 'the-old-secret-key-0123456789abcdefghijkl';
    const NEW = 'the-new-secret-key-0123456789abcdefghijkl';

    it('accepts a start whose previous key is the recorded one, encrypts TOTP seeds and outbox bodies again, records the new key', async () => {
      await assertSharedSecretKey({ pool: database.pool, secretKey: OLD });
      const oldBox = createSecretBox(OLD);
      const repository = createIdentityRepository(database.pool);
      const identityId = await seedIdentity(database.pool, { email: `rotate-${Date.now()}@example.com` });
      await repository.upsertCredential(
        identityId,
        'totp',
        { totp_secret_encrypted: oldBox.encrypt('SEEDSEEDSEED') },
        [],
        undefined,
      );
      const message = await database.pool.query<{ id: string }>(
        `INSERT INTO identity_courier_messages (template_type, recipient, subject, body_encrypted)
         VALUES ('recovery_code_valid', 'x@example.com', 'Recover', $1) RETURNING id`,
        [oldBox.encrypt('Your code is 123456')],
      );

      // Without the old key listed, the new key is refused as before.
      await expect(assertSharedSecretKey({ pool: database.pool, secretKey: NEW })).rejects.toThrow(
        /LOOKOUT_PREVIOUS_SECRET_KEYS/,
      );
      const logged: unknown[] = [];
      await assertSharedSecretKey({
        pool: database.pool,
        secretKey: NEW,
        previousKeys: [OLD],
        logger: { info: (details: unknown) => void logged.push(details) } as never,
      });
      const { rows } = await database.pool.query<{ fingerprint: string }>(
        'SELECT fingerprint FROM identity_secret_key',
      );
      expect(rows).toEqual([{ fingerprint: secretKeyFingerprint(NEW) }]);
      expect(logged).toEqual([expect.objectContaining({ totpSeeds: 1, outboxBodies: 1, unreadable: 0 })]);

      // Only the new key is needed from now on: its box alone opens both.
      const newBox = createSecretBox(NEW);
      const seed = await database.pool.query<{ sealed: string }>(
        `SELECT config->>'totp_secret_encrypted' AS sealed FROM identity_credentials WHERE identity_id = $1 AND type = 'totp'`,
        [identityId],
      );
      expect(newBox.decrypt(seed.rows[0]!.sealed)).toBe('SEEDSEEDSEED');
      expect(() => oldBox.decrypt(seed.rows[0]!.sealed)).toThrow();
      const body = await database.pool.query<{ body_encrypted: string }>(
        'SELECT body_encrypted FROM identity_courier_messages WHERE id = $1',
        [message.rows[0]!.id],
      );
      expect(newBox.decrypt(body.rows[0]!.body_encrypted)).toBe('Your code is 123456');
      // The next start with only the new key, and one still listing the old key, both pass.
      await expect(assertSharedSecretKey({ pool: database.pool, secretKey: NEW })).resolves.toBeUndefined();
      await expect(
        assertSharedSecretKey({ pool: database.pool, secretKey: NEW, previousKeys: [OLD] }),
      ).resolves.toBeUndefined();
      // The old key alone is now the odd one out.
      await expect(assertSharedSecretKey({ pool: database.pool, secretKey: OLD })).rejects.toBeInstanceOf(
        SecretKeyMismatchError,
      );
    });

    it('rotates once when two replicas with the same keys start together', async () => {
      await assertSharedSecretKey({ pool: database.pool, secretKey: OLD });
      const oldBox = createSecretBox(OLD);
      const identityId = await seedIdentity(database.pool, { email: `race-${Date.now()}@example.com` });
      await createIdentityRepository(database.pool).upsertCredential(
        identityId,
        'totp',
        { totp_secret_encrypted: oldBox.encrypt('RACESEED') },
        [],
        undefined,
      );
      await Promise.all(
        [1, 2].map(() => assertSharedSecretKey({ pool: database.pool, secretKey: NEW, previousKeys: [OLD] })),
      );
      const seed = await database.pool.query<{ sealed: string }>(
        `SELECT config->>'totp_secret_encrypted' AS sealed FROM identity_credentials WHERE identity_id = $1`,
        [identityId],
      );
      expect(createSecretBox(NEW).decrypt(seed.rows[0]!.sealed)).toBe('RACESEED');
    });

    it('verifies codes hashed under a previous key while it is listed, and opens what it encrypted', () => {
      const before = createSecretBox(OLD);
      const ring = createSecretBox(NEW, [OLD]);
      expect(ring.hmacCandidates('abcd2345')).toContain(before.hmac('abcd2345'));
      expect(ring.hmacCandidates('abcd2345')[0]).toBe(createSecretBox(NEW).hmac('abcd2345'));
      expect(ring.decrypt(before.encrypt('seed'))).toBe('seed');
      expect(createSecretBox(NEW).hmacCandidates('abcd2345')).not.toContain(before.hmac('abcd2345'));
      expect(() => createSecretBox(NEW).decrypt(before.encrypt('seed'))).toThrow();
    });
  });
});
