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
import { resolveSecretKey, SECRET_KEY_FILE } from './identity-bootstrap.js';
import { createSecretBox } from './identity-crypto.js';
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
});
