import { ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../../../test/build-test-app.js';
import { createSealer } from '../../crypto/sealed-values.js';

const PASSWORD = 'pa55-in-the-store-7f3a9c';
const NEW_PASSWORD = 'replaced-pa55-b81d04e';

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
/** Every answer body of this file, to look for secret values in at the end. */
const answers: string[] = [];

beforeAll(async () => {
  testApp = await buildTestApp();
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@secrets.example`,
      roles: [role],
    });
  }
});
afterAll(async () => {
  // No answer of any test here carried a secret's value (or its sealed form).
  for (const body of answers) {
    expect(body).not.toContain(PASSWORD);
    expect(body).not.toContain(NEW_PASSWORD);
    expect(body).not.toContain('sealed:v1:');
  }
  await testApp?.close();
});

const call = async (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  user: TestUser | undefined,
  payload?: unknown,
) => {
  const response = await testApp.app.inject({
    method,
    url,
    headers: { ...bearer(user), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  answers.push(response.body);
  return response;
};

const storedData = async (kind: string, name: string, namespace = 'default') =>
  (
    await testApp.database.pool.query<{ data: Record<string, string> }>(
      'SELECT data FROM secret_store WHERE kind = $1 AND namespace = $2 AND name = $3 AND deleted_at IS NULL',
      [kind, namespace, name],
    )
  ).rows[0]?.data;

describe('/api/secrets', () => {
  it('creates a secret whose values are sealed at rest and never answered', async () => {
    const created = await call('POST', '/api/secrets', users.admin, {
      kind: 'secret',
      name: 'db-credentials',
      data: { username: 'app', password: PASSWORD },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      kind: 'secret',
      namespace: 'default',
      name: 'db-credentials',
      source: 'UI',
      created_by: users.admin.id,
      keys: [
        { key: 'password', set: true },
        { key: 'username', set: true },
      ],
    });
    const data = await storedData('secret', 'db-credentials');
    expect(data?.password).toMatch(/^sealed:v1:/);
    expect(JSON.stringify(data)).not.toContain(PASSWORD);
    // Sealed for this entry and key: it opens as that, and only as that.
    const sealer = createSealer(TEST_SECRET_KEY);
    expect(sealer.open(data!.password!, 'secret-store:default/db-credentials/password')).toBe(PASSWORD);
    expect(() => sealer.open(data!.password!, 'secret-store:default/db-credentials/username')).toThrow();
  });

  it('creates a config map whose values are shown', async () => {
    const created = await call('POST', '/api/secrets', users.admin, {
      kind: 'configmap',
      namespace: 'payments',
      name: 'app-settings',
      data: { base_url: 'https://pay.example' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().keys).toEqual([{ key: 'base_url', set: true, value: 'https://pay.example' }]);
    expect(await storedData('configmap', 'app-settings', 'payments')).toEqual({ base_url: 'https://pay.example' });
  });

  it('lists secrets and config maps, filtered by kind and namespace', async () => {
    const all = await call('GET', '/api/secrets', users.admin);
    expect(all.statusCode).toBe(200);
    const names = all.json().items.map((item: { kind: string; namespace: string; name: string }) => item.name);
    expect(names).toEqual(expect.arrayContaining(['db-credentials', 'app-settings']));
    const secrets = await call('GET', '/api/secrets?kind=secret', users.admin);
    expect(secrets.json().items.every((item: { kind: string }) => item.kind === 'secret')).toBe(true);
    const payments = await call('GET', '/api/secrets?namespace=payments', users.admin);
    expect(payments.json().items.map((item: { name: string }) => item.name)).toEqual(['app-settings']);
    const one = await call('GET', '/api/secrets/secret/default/db-credentials', users.admin);
    expect(one.statusCode).toBe(200);
    expect(one.json().keys).toEqual([
      { key: 'password', set: true },
      { key: 'username', set: true },
    ]);
  });

  it('updates: a key sent as null keeps its value, a key with a value replaces it, a key left out is removed', async () => {
    const before = await storedData('secret', 'db-credentials');
    const updated = await call('PUT', '/api/secrets/secret/default/db-credentials', users.admin, {
      data: { password: null, token: 'tok-123' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().keys).toEqual([
      { key: 'password', set: true },
      { key: 'token', set: true },
    ]);
    const after = await storedData('secret', 'db-credentials');
    expect(after?.password).toBe(before?.password);
    expect(Object.keys(after ?? {}).sort()).toEqual(['password', 'token']);

    const replaced = await call('PUT', '/api/secrets/secret/default/db-credentials', users.admin, {
      data: { password: NEW_PASSWORD, token: null },
    });
    expect(replaced.statusCode).toBe(200);
    const sealer = createSealer(TEST_SECRET_KEY);
    const stored = await storedData('secret', 'db-credentials');
    expect(sealer.open(stored!.password!, 'secret-store:default/db-credentials/password')).toBe(NEW_PASSWORD);
  });

  it('refuses a duplicate, a missing entry, a key to keep that has no value, and bad input, with clear 4xx', async () => {
    const duplicate = await call('POST', '/api/secrets', users.admin, {
      kind: 'secret',
      name: 'db-credentials',
      data: { a: 'b' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe(
      "A secret named 'db-credentials' already exists in namespace 'default'. Choose another name, or edit that one.",
    );
    // The same name as a config map, or in another namespace, is another entry.
    const sameNameConfigMap = await call('POST', '/api/secrets', users.admin, {
      kind: 'configmap',
      name: 'db-credentials',
      data: { host: 'db' },
    });
    expect(sameNameConfigMap.statusCode).toBe(201);

    const missing = await call('PUT', '/api/secrets/secret/default/nothing-here', users.admin, { data: { a: 'b' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe("There is no secret named 'nothing-here' in namespace 'default'.");
    const keep = await call('PUT', '/api/secrets/secret/default/db-credentials', users.admin, {
      data: { password: null, brand_new: null },
    });
    expect(keep.statusCode).toBe(400);
    expect(keep.json().message).toBe(
      "Key 'brand_new' has no stored value to keep: send its value, or leave the key out to remove it.",
    );

    const cases: [string, 'POST' | 'PUT', unknown, RegExp][] = [
      [
        '/api/secrets',
        'POST',
        { kind: 'secret', name: 'Bad Name', data: { a: 'b' } },
        /name: must be a lowercase DNS-1123 name/,
      ],
      [
        '/api/secrets',
        'POST',
        { kind: 'vault', name: 'a', data: { a: 'b' } },
        /kind: must be one of secret, configmap/,
      ],
      [
        '/api/secrets',
        'POST',
        { kind: 'secret', name: 'a', data: { 'a/b': 'c' } },
        /body\.data\.a\.b: must be 1 to 253 characters of letters, digits/,
      ],
      ['/api/secrets', 'POST', { kind: 'secret', name: 'a', data: {} }, /Add at least one key with its value/],
      ['/api/secrets', 'POST', { kind: 'secret', name: 'a', data: { a: 1 } }, /data.a: /],
      ['/api/secrets', 'POST', { kind: 'secret', name: 'a' }, /data: /],
      ['/api/secrets', 'POST', { kind: 'secret', name: 'a', data: { a: 'b' }, extra: true }, /Unrecognized key/],
      ['/api/secrets/secret/default/db-credentials', 'PUT', { data: 'nope' }, /data: /],
      ['/api/secrets/vault/default/x', 'PUT', { data: { a: 'b' } }, /kind: must be one of secret, configmap/],
      ['/api/secrets/secret/Default/x', 'PUT', { data: { a: 'b' } }, /namespace: must be a lowercase DNS-1123 label/],
    ];
    for (const [url, method, payload, message] of cases) {
      const response = await call(method, url, users.admin, payload);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    const notJson = await testApp.app.inject({
      method: 'POST',
      url: '/api/secrets',
      headers: { ...bearer(users.admin), 'content-type': 'application/json' },
      payload: '{"kind":',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('keeps entries from other sources read-only', async () => {
    await testApp.database.pool.query(
      `INSERT INTO secret_store (kind, name, data, source) VALUES ('configmap', 'from-file', '{"a":"b"}', 'ConfigFile')`,
    );
    const update = await call('PUT', '/api/secrets/configmap/default/from-file', users.admin, { data: { a: 'c' } });
    expect(update.statusCode).toBe(409);
    expect(update.json().message).toBe('This entry comes from ConfigFile and is read-only here.');
    expect((await call('DELETE', '/api/secrets/configmap/default/from-file', users.admin)).statusCode).toBe(409);
  });

  it('refuses a plain value in a secret at the database too', async () => {
    await expect(
      testApp.database.pool.query(
        `INSERT INTO secret_store (kind, name, data) VALUES ('secret', 'raw', '{"a":"plain"}')`,
      ),
    ).rejects.toThrow(/check constraint/);
  });

  it('deletes an entry, erasing its values, and frees its name', async () => {
    await call('POST', '/api/secrets', users.admin, { kind: 'secret', name: 'short-lived', data: { k: PASSWORD } });
    const deleted = await call('DELETE', '/api/secrets/secret/default/short-lived', users.admin);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().deleted).toMatchObject({ name: 'short-lived', keys: [{ key: 'k', set: true }] });
    const { rows } = await testApp.database.pool.query<{ data: object; deleted_at: Date | null }>(
      `SELECT data, deleted_at FROM secret_store WHERE name = 'short-lived'`,
    );
    expect(rows).toEqual([{ data: {}, deleted_at: expect.any(Date) }]);
    expect((await call('GET', '/api/secrets/secret/default/short-lived', users.admin)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/secrets/secret/default/short-lived', users.admin)).statusCode).toBe(404);
    const again = await call('POST', '/api/secrets', users.admin, {
      kind: 'secret',
      name: 'short-lived',
      data: { k: 'v' },
    });
    expect(again.statusCode).toBe(201);
  });

  it('is for admins only: every other role is refused every route, and nobody signed in gets 401', async () => {
    const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['GET', '/api/secrets'],
      ['GET', '/api/secrets/secret/default/db-credentials'],
      ['POST', '/api/secrets', { kind: 'secret', name: 'sneaky', data: { a: 'b' } }],
      ['PUT', '/api/secrets/secret/default/db-credentials', { data: { password: 'x' } }],
      ['DELETE', '/api/secrets/secret/default/db-credentials'],
    ];
    for (const role of ROLES.filter((candidate) => candidate !== 'admin')) {
      for (const [method, url, payload] of routes) {
        const response = await call(method, url, users[role], payload);
        expect(response.statusCode, `${role} ${method} ${url}`).toBe(403);
      }
    }
    for (const [method, url, payload] of routes) {
      expect((await call(method, url, undefined, payload)).statusCode, `anonymous ${method} ${url}`).toBe(401);
    }
    // Nothing changed: the admin still reads the same entry.
    expect((await call('GET', '/api/secrets/secret/default/db-credentials', users.admin)).statusCode).toBe(200);
    expect((await call('GET', '/api/secrets/secret/default/sneaky', users.admin)).statusCode).toBe(404);
  });

  it('is not reachable through the data API, for any role', async () => {
    for (const role of ROLES) {
      const response = await call('GET', '/api/db/secret_store', users[role]);
      expect(response.statusCode, role).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, role).toBeLessThan(500);
    }
  });
});
