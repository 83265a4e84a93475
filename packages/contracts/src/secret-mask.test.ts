import { describe, expect, it } from 'vitest';
import { isSecretName, maskSecrets, maskSecretText, redactUrl, SECRET_MASK } from './secret-mask.js';

describe('isSecretName', () => {
  it('recognises credential keys and header names however they are spelt', () => {
    for (const name of [
      'password',
      'PGPASSWORD',
      'db_password',
      'passwd',
      'client_secret',
      'clientSecret',
      'token',
      'accessToken',
      'X-Auth-Token',
      'apiKey',
      'api_key',
      'X-Api-Key',
      'privateKey',
      'credentials',
      'bearer',
      'Authorization',
      'Proxy-Authorization',
      'Cookie',
      'Set-Cookie',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
  });

  it('leaves names that only mention a credential alone', () => {
    for (const name of [
      'username',
      'user',
      'tokenUrl',
      'secretKeyRef',
      'valueFrom',
      'name',
      'url',
      'Accept',
      'tokens',
    ]) {
      expect(isSecretName(name), name).toBe(false);
    }
  });
});

describe('redactUrl', () => {
  it('hides the password of a URL and keeps the rest', () => {
    expect(redactUrl('postgres://lookout:hunter2@db:5432/x')).toBe('postgres://lookout:***@db:5432/x');
    expect(redactUrl('redis://:s3cret@cache:6379')).toBe('redis://:***@cache:6379');
    expect(redactUrl('postgres://app@db/app')).toBe('postgres://app@db/app');
    expect(redactUrl('https://example.com/a?b=c')).toBe('https://example.com/a?b=c');
    expect(redactUrl('')).toBe('');
  });

  it('hides it in text that is no valid URL too, slashes and all', () => {
    expect(redactUrl('postgres://u:secret@')).toBe('postgres://u:***@');
    expect(redactUrl('postgres://:pa/ss@[bad')).toBe('postgres://:***@[bad');
    expect(redactUrl('mysql://root:p/w@db:port')).toBe('mysql://root:***@db:port');
  });
});

describe('maskSecretText', () => {
  it('masks the password of a URL and keeps the user and host', () => {
    expect(maskSecretText('postgres://app:hunter2@db:5432/app?sslmode=disable')).toBe(
      'postgres://app:***@db:5432/app?sslmode=disable',
    );
    expect(maskSecretText('redis://:s3cret@cache:6379')).toBe('redis://:***@cache:6379');
    expect(maskSecretText('curl https://bot:tok3n@api.example.com/x && echo me@example.com')).toBe(
      'curl https://bot:***@api.example.com/x && echo me@example.com',
    );
  });

  it('leaves URLs without a password alone', () => {
    for (const text of [
      'https://example.com:8443/path',
      'postgres://app@db/app',
      'http://[::1]:8080/health',
      'mailto:me@example.com',
    ]) {
      expect(maskSecretText(text)).toBe(text);
    }
  });

  it('masks key=value and key: value credentials in DSNs, query strings, scripts and JSON text', () => {
    expect(maskSecretText('host=db user=app password=hunter2 dbname=app')).toBe(
      'host=db user=app password=*** dbname=app',
    );
    expect(maskSecretText('Server=db;User Id=app;Password=hunter2;')).toBe('Server=db;User Id=app;Password=***;');
    expect(maskSecretText('https://api.example.com/?access_token=abc123&page=2')).toBe(
      'https://api.example.com/?access_token=***&page=2',
    );
    expect(maskSecretText('PGPASSWORD=hunter2 psql -h db')).toBe('PGPASSWORD=*** psql -h db');
    expect(maskSecretText('{"user":"app","password":"hunter2"}')).toBe('{"user":"app","password":"***"}');
    expect(maskSecretText("api_key: 'abc'")).toBe("api_key: '***'");
  });

  it('masks bearer tokens, with or without the Authorization header name', () => {
    expect(maskSecretText('curl -H "Authorization: Bearer eyJhbGciOi.x.y" https://x')).toBe(
      'curl -H "Authorization: Bearer ***" https://x',
    );
    expect(maskSecretText('sent bearer abc.def== upstream')).toBe('sent bearer *** upstream');
    expect(maskSecretText('Authorization: Basic dXNlcjpwYXNz')).toBe('Authorization: Basic ***');
  });

  it('keeps prose that only mentions credentials', () => {
    for (const text of [
      'Invalid token',
      'tokens=5',
      'if [ "$TOKEN" = "" ]; then exit 1; fi',
      'the forbearer of news',
      'password authentication failed for user "app"',
    ]) {
      expect(maskSecretText(text)).toBe(text);
    }
  });

  it('is idempotent', () => {
    const once = maskSecretText('postgres://a:b@h password=c Bearer d');
    expect(maskSecretText(once)).toBe(once);
  });
});

describe('maskSecrets', () => {
  const httpCheck = {
    name: 'api',
    url: 'https://monitor:hunter2@api.example.com/health?token=abc',
    headers: [
      { name: 'Authorization', value: 'Bearer eyJ0' },
      { name: 'X-Api-Key', valueFrom: { secretKeyRef: { name: 'api', key: 'key' } } },
      { name: 'Accept', value: 'application/json' },
    ],
    authentication: { username: { value: 'monitor' }, password: { value: 'hunter2' } },
    tlsConfig: { ca: { valueFrom: { configMapKeyRef: { name: 'ca', key: 'ca.pem' } } } },
  };

  it('masks credentials in a canary-checker http check and keeps everything else', () => {
    expect(maskSecrets(httpCheck)).toEqual({
      name: 'api',
      url: `https://monitor:${SECRET_MASK}@api.example.com/health?token=${SECRET_MASK}`,
      headers: [
        { name: 'Authorization', value: SECRET_MASK },
        { name: 'X-Api-Key', valueFrom: { secretKeyRef: { name: 'api', key: 'key' } } },
        { name: 'Accept', value: 'application/json' },
      ],
      authentication: { username: { value: 'monitor' }, password: { value: SECRET_MASK } },
      tlsConfig: { ca: { valueFrom: { configMapKeyRef: { name: 'ca', key: 'ca.pem' } } } },
    });
  });

  it('keeps valueFrom references under a credential key', () => {
    const ref = { password: { valueFrom: { secretKeyRef: { name: 'redis', key: 'password' } } } };
    expect(maskSecrets(ref)).toEqual(ref);
  });

  it('masks strings and numbers under a credential key, whole, and nested values', () => {
    expect(
      maskSecrets({
        password: 1234,
        token: '',
        apiKey: null,
        credentials: { user: 'u', pass: 'p', list: ['a', 2, true] },
        env: [
          { name: 'DB_PASSWORD', value: 'x' },
          { name: 'DB_HOST', value: 'db' },
        ],
      }),
    ).toEqual({
      password: SECRET_MASK,
      token: '',
      apiKey: null,
      credentials: { user: SECRET_MASK, pass: SECRET_MASK, list: [SECRET_MASK, SECRET_MASK, true] },
      env: [
        { name: 'DB_PASSWORD', value: SECRET_MASK },
        { name: 'DB_HOST', value: 'db' },
      ],
    });
  });

  it('masks connection strings of sql checks and a redis password', () => {
    expect(
      maskSecrets({
        postgres: [{ name: 'db', connection: 'postgres://app:hunter2@db:5432/app' }],
        redis: [{ name: 'cache', addr: 'cache:6379', password: { value: 'r3dis' } }],
      }),
    ).toEqual({
      postgres: [{ name: 'db', connection: `postgres://app:${SECRET_MASK}@db:5432/app` }],
      redis: [{ name: 'cache', addr: 'cache:6379', password: { value: SECRET_MASK } }],
    });
  });

  it('does not change its input', () => {
    const input = structuredClone(httpCheck);
    maskSecrets(input);
    expect(input).toEqual(httpCheck);
  });
});
