import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createSealer, SealedValueError } from '../../crypto/sealed-values.js';
import { createSecretsRepository } from './secrets-repository.js';
import { createSecretStoreService, SecretLookupError } from './secrets-service.js';

const KEY_A = 'key-a-of-the-secret-store-service-test-0123';
const KEY_B = 'key-b-of-the-secret-store-service-test-0123';

let database: TestDatabase;
const serviceWith = (sealer = createSealer(KEY_A)) =>
  createSecretStoreService({
    repository: createSecretsRepository(database.pool),
    sealer,
    logger: pino({ level: 'silent' }),
  });

beforeAll(async () => {
  database = await createTestDatabase();
  const store = serviceWith();
  const actor = { personId: null };
  await store.create({ kind: 'secret', name: 'db', data: { password: 'pw-default', user: 'app' } }, actor);
  await store.create({ kind: 'secret', namespace: 'payments', name: 'db', data: { password: 'pw-payments' } }, actor);
  await store.create({ kind: 'configmap', name: 'db', data: { host: 'db.internal' } }, actor);
});
afterAll(() => database.drop());

describe('resolving references', () => {
  it('reads valueFrom from the namespace it is given (the canary’s), defaulting to default', async () => {
    const store = serviceWith();
    expect(await store.resolveValueFrom({ secretKeyRef: { name: 'db', key: 'password' } }, 'default')).toBe(
      'pw-default',
    );
    expect(await store.resolveValueFrom({ secretKeyRef: { name: 'db', key: 'password' } }, 'payments')).toBe(
      'pw-payments',
    );
    expect(await store.resolveValueFrom({ configMapKeyRef: { name: 'db', key: 'host' } })).toBe('db.internal');
  });

  it('reads secret:// and configmap:// references and passes other text through', async () => {
    const store = serviceWith();
    expect(await store.resolveReference('secret://db/user')).toBe('app');
    expect(await store.resolveReference('secret://db/password', 'payments')).toBe('pw-payments');
    expect(await store.resolveReference('configmap://db/host')).toBe('db.internal');
    expect(await store.resolveReference('plain-value')).toBe('plain-value');
    expect(await store.resolveReference('')).toBe('');
  });

  it('reads the cluster instead of the store when one is configured, except while its connection is read', async () => {
    let inConnection = false;
    const asked: string[] = [];
    const store = createSecretStoreService({
      repository: createSecretsRepository(database.pool),
      sealer: createSealer(KEY_A),
      logger: pino({ level: 'silent' }),
      cluster: {
        resolvingConnection: () => inConnection,
        read: async (kind, namespace, name, key) => {
          asked.push(`${kind}/${namespace}/${name}/${key}`);
          return 'from-the-cluster';
        },
      },
    });
    expect(await store.resolveValueFrom({ secretKeyRef: { name: 'db', key: 'password' } }, 'payments')).toBe(
      'from-the-cluster',
    );
    expect(await store.resolveReference('configmap://db/host')).toBe('from-the-cluster');
    expect(await store.resolveReference('plain-value')).toBe('plain-value');
    expect(asked).toEqual(['secret/payments/db/password', 'configmap/default/db/host']);
    inConnection = true;
    expect(await store.resolveReference('secret://db/user')).toBe('app');
    expect(asked).toHaveLength(2);
  });

  it('names what is missing: the entry, the key, or a malformed reference', async () => {
    const store = serviceWith();
    await expect(store.resolveValueFrom({ secretKeyRef: { name: 'nope', key: 'password' } })).rejects.toThrow(
      new SecretLookupError("no secret 'nope' in namespace 'default'; add it at Settings > Secrets"),
    );
    await expect(store.resolveReference('configmap://db/port')).rejects.toThrow(
      "config map 'db' in namespace 'default' has no key 'port'",
    );
    await expect(store.resolveReference('secret://db')).rejects.toThrow(
      "'secret://db' is not a reference of the form secret://<name>/<key> or configmap://<name>/<key>",
    );
    // A config map is not a secret of the same name.
    await expect(store.resolveValueFrom({ secretKeyRef: { name: 'db', key: 'host' } })).rejects.toThrow(
      "secret 'db' in namespace 'default' has no key 'host'",
    );
  });

  it('does not open a value under another key, and says which setting would', async () => {
    const other = serviceWith(createSealer(KEY_B));
    await expect(other.resolveReference('secret://db/password')).rejects.toBeInstanceOf(SealedValueError);
    await expect(other.resolveReference('secret://db/password')).rejects.toThrow(/LOOKOUT_PREVIOUS_SECRET_KEYS/);
  });
});

describe('re-sealing after a rotation', () => {
  it('seals every value again under the current key, only once, keeping updated_at', async () => {
    const updatedBefore = await database.pool.query<{ id: string; updated_at: Date }>(
      `SELECT id, updated_at FROM secret_store WHERE kind = 'secret' ORDER BY id`,
    );
    expect(await serviceWith().reseal()).toEqual({ entries: 0, values: 0 });

    const rotated = createSealer(KEY_B, [KEY_A]);
    const store = serviceWith(rotated);
    expect(await store.reseal()).toEqual({ entries: 2, values: 3 });
    expect(await store.reseal()).toEqual({ entries: 0, values: 0 });
    const { rows } = await database.pool.query<{ id: string; data: Record<string, string>; updated_at: Date }>(
      `SELECT id, data, updated_at FROM secret_store WHERE kind = 'secret' ORDER BY id`,
    );
    for (const row of rows) {
      for (const sealed of Object.values(row.data)) expect(rotated.keyIdOf(sealed)).toBe(createSealer(KEY_B).keyId);
    }
    expect(rows.map((row) => row.updated_at)).toEqual(updatedBefore.rows.map((row) => row.updated_at));
    // The new key alone now opens everything.
    expect(await serviceWith(createSealer(KEY_B)).resolveReference('secret://db/password', 'payments')).toBe(
      'pw-payments',
    );
  });
});
