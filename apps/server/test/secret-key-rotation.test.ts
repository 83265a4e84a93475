import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, readConfigInput } from '../src/config/config.js';
import { createSealer } from '../src/crypto/sealed-values.js';
import { resolveSecretKeys } from '../src/crypto/secret-key.js';
import { createApp, type ComposedApp } from '../src/http/app.js';
import { createSecretBox } from '../src/modules/identity/identity-crypto.js';
import { createIdentityRepository } from '../src/modules/identity/identity-repository.js';
import { SecretKeyMismatchError } from '../src/modules/identity/identity-secret-key.js';
import { refusingSandbox } from '../src/sandbox/sandbox.js';
import { SERVER_VERSION } from '../src/version.js';
import { apiLogin } from './access-helpers.js';
import { seedIdentity } from './identity-helpers.js';
import { startBasicAuthServer, type BasicAuthServer } from './basic-auth-server.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * Rotating LOOKOUT_SECRET_KEY end to end, as `lookout serve` composes and starts the app
 * (createApp with the serve context, then every module's bootstrap): start with key A and store
 * secrets; start with key B and LOOKOUT_PREVIOUS_SECRET_KEYS=A (everything still opens, and is
 * sealed again under B: the secret store's values and identity's TOTP seeds); start with B
 * alone. A check reading its password from the store passes after every start.
 */

const KEY_A = 'rotation-key-a-0123456789abcdefghijklmnop';
const KEY_B = 'rotation-key-b-0123456789abcdefghijklmnop';
const ADMIN = { email: 'root@rotation.example', password: 'rotation-admin-pa55word' };
const PASSWORD = 'rotated-but-still-readable-5d2e';

let database: TestDatabase;
let dataDir: string;
let server: BasicAuthServer;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-rotation-'));
  server = await startBasicAuthServer('ops', PASSWORD);
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** What `lookout serve` does before listening, with these keys. */
async function start(current: string, previous: string[] = []): Promise<ComposedApp> {
  const config = parseConfig(
    readConfigInput(
      {
        DATABASE_URL: database.url,
        LOOKOUT_DATA_DIR: dataDir,
        LOOKOUT_ADMIN_EMAIL: ADMIN.email,
        LOOKOUT_ADMIN_PASSWORD: ADMIN.password,
        LOOKOUT_SECRET_KEY: current,
        LOOKOUT_PREVIOUS_SECRET_KEYS: previous.join(','),
        LOOKOUT_SELF_CANARY: 'false',
      },
      {},
    ),
  );
  const secretKeys = await resolveSecretKeys(config);
  const composed = await createApp({
    logger: pino({ level: 'silent' }),
    database,
    version: SERVER_VERSION,
    webDir: path.join(os.tmpdir(), 'lookout-no-web-build'),
    serve: { config, databaseUrl: database.url, workers: false, secretKeys },
    sealer: createSealer(secretKeys.current, secretKeys.previous),
    health: { sandbox: refusingSandbox('this test runs no scripts'), selfCanary: false },
  });
  try {
    await composed.bootstrap();
    await composed.app.ready();
  } catch (error) {
    await composed.app.close();
    throw error;
  }
  return composed;
}

async function withApp<T>(composed: ComposedApp, work: (call: Caller) => Promise<T>): Promise<T> {
  try {
    const token = await apiLogin(composed.app, ADMIN.email, ADMIN.password);
    return await work(async (method, url, payload) => {
      const response = await composed.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
      return { statusCode: response.statusCode, json: () => response.json() as Record<string, unknown> };
    });
  } finally {
    await composed.app.close();
  }
}
type Caller = (
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
) => Promise<{ statusCode: number; json: () => Record<string, unknown> }>;

const storedSecretValues = async () =>
  (
    await database.pool.query<{ data: Record<string, string> }>(
      `SELECT data FROM secret_store WHERE kind = 'secret' AND deleted_at IS NULL`,
    )
  ).rows.flatMap((row) => Object.values(row.data));

const totpSeed = async (identityId: string) =>
  (
    await database.pool.query<{ seed: string }>(
      `SELECT config->>'totp_secret_encrypted' AS seed FROM identity_credentials WHERE identity_id = $1 AND type = 'totp'`,
      [identityId],
    )
  ).rows[0]!.seed;

/** Run Now of the check whose password is `secret://`-stored: passes only when it opens. */
async function runCheck(call: Caller, checkId: string): Promise<boolean> {
  const run = await call('POST', `/api/canary/run/check/${checkId}`);
  expect(run.statusCode, JSON.stringify(run.json())).toBe(200);
  return (run.json().result as { status: boolean }).status;
}

describe('rotating LOOKOUT_SECRET_KEY', () => {
  it('re-seals everything under the new key and then needs only the new key', async () => {
    const sealerA = createSealer(KEY_A);
    const sealerB = createSealer(KEY_B);

    // 1. Key A: a secret with two values, a canary that reads one, a TOTP seed.
    const { checkId, totpIdentityId } = await withApp(await start(KEY_A), async (call) => {
      const created = await call('POST', '/api/secrets', {
        kind: 'secret',
        name: 'web-login',
        data: { password: PASSWORD, token: 'second-value' },
      });
      expect(created.statusCode).toBe(201);
      const applied = await call('POST', '/api/canary/apply', {
        apiVersion: 'canaries.flanksource.com/v1',
        kind: 'Canary',
        metadata: { name: 'rotation', namespace: 'default' },
        spec: {
          http: [
            {
              name: 'login',
              url: server.url,
              authentication: {
                username: { value: 'ops' },
                password: { valueFrom: { secretKeyRef: { name: 'web-login', key: 'password' } } },
              },
            },
          ],
        },
      });
      expect(applied.statusCode).toBe(200);
      const id = (applied.json().checks as { id: string }[])[0]!.id;
      expect(await runCheck(call, id)).toBe(true);
      // Someone with a TOTP device (not the admin, who signs in with a password alone here).
      const identityId = await seedIdentity(database.pool, { email: 'totp@rotation.example' });
      await createIdentityRepository(database.pool).upsertCredential(
        identityId,
        'totp',
        { totp_secret_encrypted: createSecretBox(KEY_A).encrypt('TOTPSEEDBASE32') },
        [],
      );
      return { checkId: id, totpIdentityId: identityId };
    });
    const sealedUnderA = await storedSecretValues();
    expect(sealedUnderA).toHaveLength(2);
    for (const value of sealedUnderA) expect(sealerA.keyIdOf(value)).toBe(sealerA.keyId);

    // 2. Key B alone is refused while the database knows key A, naming the setting that rotates.
    const refused = start(KEY_B);
    await expect(refused).rejects.toBeInstanceOf(SecretKeyMismatchError);
    await expect(refused).rejects.toThrow(/LOOKOUT_PREVIOUS_SECRET_KEYS/);

    // 3. Key B with A as a previous key: starts, re-seals, and the check still passes.
    await withApp(await start(KEY_B, [KEY_A]), async (call) => {
      expect(await runCheck(call, checkId)).toBe(true);
    });
    const sealedUnderB = await storedSecretValues();
    expect(sealedUnderB).toHaveLength(2);
    for (const value of sealedUnderB) expect(sealerB.keyIdOf(value)).toBe(sealerB.keyId);
    const seed = await totpSeed(totpIdentityId);
    expect(createSecretBox(KEY_B).decrypt(seed)).toBe('TOTPSEEDBASE32');
    expect(() => createSecretBox(KEY_A).decrypt(seed)).toThrow();

    // 4. Key B alone: nothing sealed under A is left, so nothing needs it.
    await withApp(await start(KEY_B), async (call) => {
      expect(await runCheck(call, checkId)).toBe(true);
      const listed = await call('GET', '/api/secrets/secret/default/web-login');
      expect(listed.json().keys).toEqual([
        { key: 'password', set: true },
        { key: 'token', set: true },
      ]);
    });
    expect(await storedSecretValues()).toEqual(sealedUnderB);
    expect(server.counts.accepted).toBe(3);
    expect(server.counts.refused).toBe(0);

    // 5. And key A is now the stranger.
    await expect(start(KEY_A)).rejects.toBeInstanceOf(SecretKeyMismatchError);
  });
});
