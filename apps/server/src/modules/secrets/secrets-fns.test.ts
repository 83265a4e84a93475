import {
  createSecretStoreEntrySchema,
  parseSecretReference,
  secretReference,
  SECRET_STORE_LIMITS,
  updateSecretStoreEntrySchema,
} from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { entryOfValueFrom, entryView, mergeUpdate, sealContext } from './secrets-fns.js';
import type { SecretStoreRow } from './secrets-repository.js';

const row = (kind: SecretStoreRow['kind'], data: Record<string, string>): SecretStoreRow => ({
  id: '0190d1b6-8f3a-7000-8000-000000000001',
  kind,
  namespace: 'default',
  name: 'db',
  data,
  source: 'UI',
  created_by: null,
  created_at: new Date('2026-01-01T00:00:00Z'),
  updated_at: new Date('2026-01-02T00:00:00Z'),
});

describe('secret store rules', () => {
  it("shows a secret's keys as set, never their values, sorted by key", () => {
    const view = entryView(row('secret', { user: 'sealed:v1:a:b.c.d', password: 'sealed:v1:a:e.f.g' }));
    expect(view.keys).toEqual([
      { key: 'password', set: true },
      { key: 'user', set: true },
    ]);
    expect(JSON.stringify(view)).not.toContain('sealed:');
  });

  it("shows a config map's values", () => {
    expect(entryView(row('configmap', { url: 'https://db.example' })).keys).toEqual([
      { key: 'url', set: true, value: 'https://db.example' },
    ]);
  });

  it('keeps a stored value for a key sent as null, stores new values, and drops keys left out', () => {
    const merged = mergeUpdate(
      { password: 'sealed-old', user: 'sealed-user', gone: 'sealed-gone' },
      { password: null, user: 'bob', extra: 'new' },
      (key, value) => `stored(${key}=${value})`,
    );
    expect(merged).toEqual({
      ok: true,
      data: { password: 'sealed-old', user: 'stored(user=bob)', extra: 'stored(extra=new)' },
    });
  });

  it('refuses to keep a key that has no stored value, saying how to fix it', () => {
    expect(mergeUpdate({}, { token: null }, (_key, value) => value)).toEqual({
      ok: false,
      message: "Key 'token' has no stored value to keep: send its value, or leave the key out to remove it.",
    });
  });

  it('binds a sealed value to its namespace, name and key', () => {
    expect(sealContext('default', 'db', 'password')).toBe('secret-store:default/db/password');
    expect(sealContext('default', 'db', 'password')).not.toBe(sealContext('default', 'db', 'user'));
  });

  it('reads the entry a valueFrom names', () => {
    expect(entryOfValueFrom({ secretKeyRef: { name: 'db', key: 'password' } })).toEqual({
      kind: 'secret',
      name: 'db',
      key: 'password',
    });
    expect(entryOfValueFrom({ configMapKeyRef: { name: 'app', key: 'url' } })).toEqual({
      kind: 'configmap',
      name: 'app',
      key: 'url',
    });
  });
});

describe('references', () => {
  it('parses secret://<name>/<key> and configmap://<name>/<key>, and leaves other text alone', () => {
    expect(parseSecretReference('secret://db/password')).toEqual({ kind: 'secret', name: 'db', key: 'password' });
    expect(parseSecretReference('configmap://app.settings/base_url')).toEqual({
      kind: 'configmap',
      name: 'app.settings',
      key: 'base_url',
    });
    expect(parseSecretReference('hunter2')).toBeUndefined();
    expect(parseSecretReference('https://secret.example/x')).toBeUndefined();
    expect(secretReference('secret', 'db', 'password')).toBe('secret://db/password');
  });

  it.each(['secret://', 'secret://db', 'secret://db/', 'secret://db/a/b', 'secret://DB/password', 'configmap://x/a b'])(
    'calls %s a malformed reference rather than a value',
    (text) => {
      expect(parseSecretReference(text)).toEqual({
        invalid: `'${text}' is not a reference of the form secret://<name>/<key> or configmap://<name>/<key>`,
      });
    },
  );
});

describe('the request schemas', () => {
  const problems = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

  it('takes a new entry with the default namespace', () => {
    const parsed = createSecretStoreEntrySchema.parse({ kind: 'secret', name: 'db', data: { password: 'x' } });
    expect(parsed.namespace).toBe('default');
  });

  it('refuses names, namespaces and keys Kubernetes would refuse, with messages that say what is allowed', () => {
    const result = createSecretStoreEntrySchema.safeParse({
      kind: 'vault',
      namespace: 'Team_A',
      name: 'DB creds',
      data: { 'bad key': 'x' },
    });
    expect(problems(result)).toEqual([
      'kind: must be one of secret, configmap',
      expect.stringMatching(/^namespace: must be a lowercase DNS-1123 label/),
      expect.stringMatching(/^name: must be a lowercase DNS-1123 name/),
      expect.stringMatching(/^data.bad key: must be 1 to 253 characters of letters, digits/),
    ]);
  });

  it('refuses an entry without keys, too many keys, or too much data', () => {
    expect(problems(createSecretStoreEntrySchema.safeParse({ kind: 'secret', name: 'a', data: {} }))).toEqual([
      'data: Add at least one key with its value.',
    ]);
    const many = Object.fromEntries(Array.from({ length: SECRET_STORE_LIMITS.keys + 1 }, (_, i) => [`k${i}`, 'v']));
    expect(problems(createSecretStoreEntrySchema.safeParse({ kind: 'secret', name: 'a', data: many }))).toEqual([
      'data: data may hold at most 100 keys',
    ]);
    const big = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`k${i}`, 'v'.repeat(SECRET_STORE_LIMITS.value)]),
    );
    expect(problems(createSecretStoreEntrySchema.safeParse({ kind: 'secret', name: 'a', data: big }))).toEqual([
      'data: All values together must be at most 1048576 characters.',
    ]);
    const long = createSecretStoreEntrySchema.safeParse({
      kind: 'secret',
      name: 'a',
      data: { k: 'v'.repeat(SECRET_STORE_LIMITS.value + 1) },
    });
    expect(problems(long)).toEqual(['data.k: must be at most 262144 characters']);
  });

  it('takes null as "keep the stored value" only in an update, and no unknown fields', () => {
    expect(updateSecretStoreEntrySchema.safeParse({ data: { password: null } }).success).toBe(true);
    expect(
      createSecretStoreEntrySchema.safeParse({ kind: 'secret', name: 'a', data: { password: null } }).success,
    ).toBe(false);
    expect(problems(updateSecretStoreEntrySchema.safeParse({ data: { a: 'b' }, name: 'other' }))).toEqual([
      expect.stringMatching(/Unrecognized key/),
    ]);
  });
});
