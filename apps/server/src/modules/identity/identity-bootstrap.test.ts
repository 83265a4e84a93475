import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { parseConfig, readConfigInput } from '../../config/config.js';
import { createLogger } from '../../logger.js';
import { verifyPassword } from './identity-crypto.js';
import { resolveSecretKey, resolveSecretKeys, SECRET_KEY_FILE } from '../../crypto/secret-key.js';
import { ADMIN_CREDENTIALS_FILE, ensureAdminIdentity, identitySettingsFromConfig } from './identity-bootstrap.js';

describe('identity start-up', () => {
  let dataDir: string;
  let database: TestDatabase;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lookout-identity-'));
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await database.drop();
  });

  it('generates the secret key once into <data dir>/secret-key with mode 0600', async () => {
    const first = await resolveSecretKey({ dataDir });
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await stat(path.join(dataDir, SECRET_KEY_FILE))).mode & 0o777).toBe(0o600);
    expect(await resolveSecretKey({ dataDir })).toBe(first);
    expect(await resolveSecretKey({ dataDir, secretKey: 'from-the-environment-'.repeat(2) })).toBe(
      'from-the-environment-'.repeat(2),
    );
  });

  it('builds the identity settings from the configuration', async () => {
    const config = parseConfig(
      readConfigInput(
        { LOOKOUT_DATA_DIR: dataDir, LOOKOUT_REGISTRATION_OPEN: 'true', LOOKOUT_SESSION_LIFETIME: '2h' },
        {},
      ),
    );
    const settings = identitySettingsFromConfig(config, await resolveSecretKeys(config));
    expect(settings).toMatchObject({ registrationOpen: true, sessionLifetimeMs: 7_200_000, oidcProviders: [] });
    expect(settings.secretKey).toBe(await resolveSecretKey({ dataDir }));
  });

  it('creates the first admin with a generated password, written to admin-credentials and logged once', async () => {
    const logged: string[] = [];
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          logged.push(String(JSON.parse(chunk.toString('utf8')).msg));
          callback();
        },
      }),
    );
    const id = await ensureAdminIdentity({ pool: database.pool, dataDir, logger });
    expect(id).toBeDefined();
    const file = path.join(dataDir, ADMIN_CREDENTIALS_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const password = /password: (\S+)/.exec(await readFile(file, 'utf8'))?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(password);

    const stored = await database.pool.query(
      `SELECT c.config ->> 'hashed_password' AS hash, p.name, a.verified
         FROM identity_credentials c JOIN people p ON p.id = c.identity_id
         JOIN identity_verifiable_addresses a ON a.identity_id = c.identity_id
        WHERE c.identity_id = $1`,
      [id],
    );
    expect(await verifyPassword(stored.rows[0].hash, password)).toBe(true);
    expect(stored.rows[0]).toMatchObject({ name: 'Admin', verified: true });

    // Later starts find identities and change nothing.
    expect(
      await ensureAdminIdentity({
        pool: database.pool,
        dataDir,
        logger,
        adminEmail: 'other@example.com',
        adminPassword: 'other-password',
      }),
    ).toBeUndefined();
    expect(logged).toHaveLength(1);
  });
});
