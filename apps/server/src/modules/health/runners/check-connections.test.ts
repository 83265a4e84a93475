import { describe, expect, it } from 'vitest';
import {
  applyConnection,
  connectionReferenceOf,
  resolveCheckConnection,
  type CheckConnection,
} from './check-connections.js';

const connection = (fields: Partial<CheckConnection> = {}): CheckConnection => ({
  insecureTls: false,
  properties: {},
  ...fields,
});

describe('checks that name a connection', () => {
  it('finds the reference in connection, or in the url of sql checks', () => {
    expect(connectionReferenceOf({ type: 'postgres', check: { name: 'p', url: 'connection://db' } })).toBe(
      'connection://db',
    );
    expect(connectionReferenceOf({ type: 'postgres', check: { name: 'p', url: 'postgres://db/app' } })).toBeUndefined();
    expect(connectionReferenceOf({ type: 'http', check: { name: 'h', connection: 'connection://ns/api' } })).toBe(
      'connection://ns/api',
    );
  });

  it("fills a sql check's url and credentials, the check's own winning", () => {
    const applied = applyConnection(
      { type: 'mysql', check: { name: 'm', connection: 'connection://maria', password: { value: 'mine' } } },
      connection({ url: 'mysql://127.0.0.1:3306/test', username: 'root', password: 'theirs' }),
    );
    expect(applied).toEqual({
      type: 'mysql',
      check: {
        name: 'm',
        url: 'mysql://127.0.0.1:3306/test',
        username: { value: 'root' },
        password: { value: 'mine' },
      },
    });
  });

  it('gives redis the address and database of the url or the db property', () => {
    expect(
      applyConnection(
        { type: 'redis', check: { name: 'r', connection: 'connection://cache' } },
        connection({ url: 'redis://cache.internal/4', password: 'pw' }),
      ),
    ).toEqual({ type: 'redis', check: { name: 'r', addr: 'cache.internal:6379', db: 4, password: { value: 'pw' } } });
    expect(
      applyConnection(
        { type: 'redis', check: { name: 'r', connection: 'connection://cache' } },
        connection({ url: 'cache:6380', properties: { db: '2' } }),
      ),
    ).toEqual({ type: 'redis', check: { name: 'r', addr: 'cache:6380', db: 2 } });
  });

  it('gives http basic auth for a user, a bearer token for a password alone, and insecure TLS when allowed', () => {
    expect(
      applyConnection(
        { type: 'http', check: { name: 'h', connection: 'connection://api' } },
        connection({ url: 'https://api.internal/health', username: 'ops', password: 'pw', insecureTls: true }),
      ),
    ).toEqual({
      type: 'http',
      check: {
        name: 'h',
        url: 'https://api.internal/health',
        authentication: { username: { value: 'ops' }, password: { value: 'pw' } },
        tlsConfig: { insecureSkipVerify: true },
      },
    });
    expect(
      applyConnection(
        { type: 'http', check: { name: 'h', connection: 'connection://api', url: 'https://other/x' } },
        connection({ url: 'https://api.internal/health', password: 'tok' }),
      ),
    ).toEqual({
      type: 'http',
      check: { name: 'h', url: 'https://other/x', headers: [{ name: 'Authorization', value: 'Bearer tok' }] },
    });
  });

  it("puts a monitoring connection's user and password in its url, which the runner sends as basic auth", () => {
    expect(
      applyConnection(
        { type: 'prometheus', check: { name: 'p', connection: 'connection://prom', query: 'up' } },
        connection({ url: 'https://prom.internal:9090', username: 'ops', password: 'p@ss' }),
      ),
    ).toEqual({ type: 'prometheus', check: { name: 'p', query: 'up', url: 'https://ops:p%40ss@prom.internal:9090/' } });
  });

  it('fails the run with the reason when the connection cannot be read or has no URL', async () => {
    const entry = { type: 'postgres' as const, check: { name: 'p', connection: 'connection://ns/db' } };
    expect(await resolveCheckConnection(entry, undefined)).toEqual({
      ok: false,
      message: 'could not read connection://ns/db: connections are not available here',
    });
    expect(
      await resolveCheckConnection(entry, () => Promise.reject(new Error('connection://ns/db does not exist'))),
    ).toEqual({ ok: false, message: 'could not read connection://ns/db: connection://ns/db does not exist' });
    expect(await resolveCheckConnection(entry, () => Promise.resolve(connection()))).toEqual({
      ok: false,
      message: 'connection://ns/db has no URL; set one on the connection',
    });
    const plain = { type: 'tcp' as const, check: { name: 't', endpoint: 'db:5432' } };
    expect(await resolveCheckConnection(plain, undefined)).toEqual({ ok: true, entry: plain });
  });
});
