import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { identitiesResponseSchema, type IdentityRow } from '@lookout/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiLogin } from '../../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../../test/build-test-app.js';
import { seedIdentity } from '../../../../test/identity-helpers.js';
import { createPeopleMirror } from './external-people-mirror.js';
import { createIdentityRepository } from '../identity-repository.js';
import { createKratosAdminClient } from './kratos-admin-client.js';
import { createKratosIdentityMirror } from './kratos-identity-mirror.js';

/**
 * The copy of an external Kratos's identities that the Users page lists, over real HTTP and
 * real PostgreSQL. As in external-kratos.test.ts, the Kratos is another Lookout with its
 * built-in service: its admin API speaks Kratos's wire format (identities as JSON, keyset
 * paging with `page_size`, `page_token` and a Link header) and is open to any caller, as
 * Kratos's admin port is (its roles resolve to admin).
 */

const PASSWORD = 'mirror-password-1';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const json = { accept: 'application/json', 'content-type': 'application/json' };
const silent = pino({ level: 'silent' });

describe('identity: the copy of an external Kratos in the identities table', () => {
  let kratos: TestApp;
  let kratosBase: string;
  /** Lookout with KRATOS_ADMIN_URL and the default interval: it syncs once at start. */
  let lookout: TestApp;
  /** Lookout syncing every 200 ms. */
  let fast: TestApp;
  let adminToken: string;

  /** `GET /api/db/identities` as the Users page reads it, as `token`'s user. */
  async function listed(app: TestApp, token: string): Promise<IdentityRow[]> {
    const response = await app.app.inject({
      method: 'GET',
      url: '/api/db/identities?select=id,state,traits,created_at,state_changed_at,updated_at&order=created_at.asc',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    return identitiesResponseSchema.parse(response.json());
  }
  const emailsOf = (rows: IdentityRow[]) => rows.map((row) => row.traits.email).sort();

  /** Signs `email` (an identity of Kratos) in through `app` and makes them admin there. */
  async function signInAdmin(app: TestApp, email: string): Promise<string> {
    const token = await apiLogin(app.app, email, PASSWORD);
    const whoami = await app.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: bearer(token) });
    expect(whoami.statusCode).toBe(200);
    const id = whoami.json<{ payload: { user: { id: string } } }>().payload.user.id;
    await app.database.pool.query("INSERT INTO role_assignments (person_id, role) VALUES ($1, 'admin')", [id]);
    return token;
  }

  beforeAll(async () => {
    kratos = await buildTestApp({ resolveRoles: async () => ['admin'] });
    await kratos.app.listen({ port: 0, host: '127.0.0.1' });
    kratosBase = `http://127.0.0.1:${(kratos.app.server.address() as AddressInfo).port}/api/.ory`;
    await seedIdentity(kratos.database.pool, {
      email: 'chief@example.com',
      password: PASSWORD,
      first: 'Chief',
      last: 'Admin',
      verified: true,
    });
    await seedIdentity(kratos.database.pool, { email: 'grace@example.com', first: 'Grace', last: 'Hopper' });
    lookout = await buildTestApp({ identity: { kratosPublicUrl: kratosBase, kratosAdminUrl: kratosBase } });
    fast = await buildTestApp({
      identity: { kratosPublicUrl: kratosBase, kratosAdminUrl: kratosBase, kratosSyncIntervalMs: 200 },
    });
    adminToken = await signInAdmin(lookout, 'chief@example.com');
  });
  afterAll(async () => {
    await Promise.all([lookout?.close(), fast?.close()]);
    await kratos?.close();
  });

  it('fills the identities table at start with what Kratos has, and no credentials', async () => {
    await vi.waitFor(async () => {
      expect(emailsOf(await listed(lookout, adminToken))).toEqual(['chief@example.com', 'grace@example.com']);
    });
    const rows = await listed(lookout, adminToken);
    const grace = rows.find((row) => row.traits.email === 'grace@example.com');
    const inKratos = await kratos.database.pool.query(
      'SELECT id, state, created_at, updated_at, state_changed_at FROM identities WHERE traits ->> $1 = $2',
      ['email', 'grace@example.com'],
    );
    expect(grace).toMatchObject({
      id: inKratos.rows[0].id,
      state: 'active',
      traits: { email: 'grace@example.com', name: { first: 'Grace', last: 'Hopper' } },
    });
    // Kratos's own times, not when Lookout copied them.
    expect(new Date(grace!.created_at).getTime()).toBe(inKratos.rows[0].created_at.getTime());
    expect(new Date(grace!.updated_at!).getTime()).toBe(inKratos.rows[0].updated_at.getTime());
    // Grace never signed in here, yet has a person (roles can be set on her) with no role.
    const person = await lookout.database.pool.query('SELECT name, email FROM people WHERE id = $1', [grace!.id]);
    expect(person.rows).toEqual([{ name: 'Grace Hopper', email: 'grace@example.com' }]);
    for (const table of ['identity_credentials', 'identity_sessions', 'identity_recovery_addresses']) {
      const count = await lookout.database.pool.query(`SELECT count(*)::int AS n FROM ${table}`);
      expect(count.rows[0].n).toBe(0);
    }
  });

  it('shows an invitation at once, and a deletion through Lookout at once', async () => {
    const invited = await lookout.app.inject({
      method: 'POST',
      url: '/api/auth/invite_user',
      headers: { ...bearer(adminToken), ...json },
      payload: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', role: 'editor' },
    });
    expect(invited.statusCode).toBe(201);
    const id = invited.json<{ id: string }>().id;
    // No waiting: the sync interval of this Lookout is a minute.
    const rows = await listed(lookout, adminToken);
    expect(rows.find((row) => row.id === id)).toMatchObject({
      state: 'active',
      traits: { email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } },
    });

    const edited = await lookout.app.inject({
      method: 'POST',
      url: '/api/people/update',
      headers: { ...bearer(adminToken), ...json },
      payload: { id, firstName: 'Ada', lastName: 'King', email: 'ada@example.com', role: 'editor', active: false },
    });
    expect(edited.statusCode).toBe(200);
    expect((await listed(lookout, adminToken)).find((row) => row.id === id)).toMatchObject({
      state: 'inactive',
      traits: { name: { last: 'King' } },
    });

    const deleted = await lookout.app.inject({
      method: 'DELETE',
      url: `/api/people/${id}`,
      headers: bearer(adminToken),
    });
    expect(deleted.statusCode).toBe(200);
    expect((await listed(lookout, adminToken)).some((row) => row.id === id)).toBe(false);
  });

  it('removes an identity deleted in Kratos itself at the next sync, with its person and roles', async () => {
    const token = await signInAdmin(fast, 'chief@example.com');
    const id = await seedIdentity(kratos.database.pool, { email: 'brief@example.com', first: 'Brief', last: 'Visit' });
    await vi.waitFor(async () => {
      expect((await listed(fast, token)).some((row) => row.id === id)).toBe(true);
    });
    await fast.database.pool.query("INSERT INTO role_assignments (person_id, role) VALUES ($1, 'editor')", [id]);

    // Deleted straight in Kratos (its admin API), not through Lookout.
    const removed = await fetch(`${kratosBase}/admin/identities/${id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    await vi.waitFor(async () => {
      expect((await listed(fast, token)).some((row) => row.id === id)).toBe(false);
    });
    const person = await fast.database.pool.query('SELECT deleted_at FROM people WHERE id = $1', [id]);
    expect(person.rows[0].deleted_at).not.toBeNull();
    const roles = await fast.database.pool.query('SELECT role FROM role_assignments WHERE person_id = $1', [id]);
    expect(roles.rows).toEqual([]);
  });

  it('pages through the admin list with page_token from the Link header', async () => {
    for (let index = 0; index < 5; index += 1) {
      await seedIdentity(kratos.database.pool, { email: `paged-${index}@example.com` });
    }
    const repository = createIdentityRepository(lookout.database.pool);
    const client = createKratosAdminClient({
      adminUrl: kratosBase,
      people: { sync: async () => undefined },
      logger: silent,
    });
    const tokens: (string | undefined)[] = [];
    const mirror = createKratosIdentityMirror({
      repository,
      people: createPeopleMirror({ repository, logger: silent }),
      listIdentities: (query) => {
        tokens.push(query.page_token);
        return client.list(query);
      },
      logger: silent,
      pageSize: 2,
    });
    const outcome = await mirror.syncAll();
    const inKratos = await kratos.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM identities');
    expect(outcome).toMatchObject({ listed: inKratos.rows[0]!.n, removed: 0 });
    // Two per page, and a token of Kratos's own on every page after the first.
    expect(tokens.length).toBe(Math.ceil(inKratos.rows[0]!.n / 2));
    expect(tokens[0]).toBeUndefined();
    expect(tokens.slice(1).every((token) => typeof token === 'string' && token.length > 0)).toBe(true);
    expect(emailsOf(await listed(lookout, adminToken))).toEqual(
      expect.arrayContaining(['paged-0@example.com', 'paged-4@example.com']),
    );
    expect((await listed(lookout, adminToken)).length).toBe(inKratos.rows[0]!.n);

    // A second sync finds nothing to write.
    expect(await mirror.syncAll()).toMatchObject({ written: 0, removed: 0 });
  });

  it('keeps copies away from the built-in service: no credentials, not found, not counted', async () => {
    const repository = createIdentityRepository(lookout.database.pool);
    const [copy] = (await listed(lookout, adminToken)).filter((row) => row.traits.email === 'grace@example.com');
    expect(await repository.findIdentity(copy!.id)).toBeUndefined();
    expect(await repository.findIdentityByEmail('grace@example.com')).toBeUndefined();
    expect(await repository.countIdentities()).toBe(0);
    await expect(
      repository.upsertCredential(copy!.id, 'password', { hashed_password: 'x' }, ['grace@example.com']),
    ).rejects.toThrow(/copy of an external Kratos identity/);
    await expect(repository.syncAddresses(copy!.id, 'grace@example.com', { verified: true })).rejects.toThrow(
      /copy of an external Kratos identity/,
    );
    await expect(
      lookout.database.pool.query('UPDATE identities SET mirrored_at = NULL WHERE id = $1', [copy!.id]),
    ).rejects.toThrow(/cannot change between/);
  });

  it('starts while Kratos is unreachable, and says so in the log', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const away = await buildTestApp({
      logger,
      identity: { kratosPublicUrl: 'http://127.0.0.1:1/api/.ory', kratosAdminUrl: 'http://127.0.0.1:1/api/.ory' },
    });
    try {
      const config = await away.app.inject({ method: 'GET', url: '/api/auth/config' });
      expect(config.statusCode).toBe(200);
      await vi.waitFor(() => {
        expect(lines.some((line) => line.includes('Could not copy the identities of Kratos (KRATOS_ADMIN_URL)'))).toBe(
          true,
        );
      });
      const warning = JSON.parse(lines.find((line) => line.includes('Could not copy the identities'))!);
      expect(warning.level).toBe(40);
    } finally {
      await away.close();
    }
  });
});
