import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgrest } from '../../src/engine.js';
import type { PgrestCaller, PgrestEngine, PgrestHeaders, PgrestRequest } from '../../src/engine-types.js';
import { MAX_PREPARED_PER_CONNECTION } from '../../src/exec/batch.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';

// How requests reach PostgreSQL (src/README.md, "Execution"): a read is one round trip
// whose settings RLS policies and functions see, read-only and bounded by the statement
// timeout; prepared statements are bounded per connection and survive being dropped; a
// remembered read authorizes every caller again.

const SETUP_SQL = `
do $$ begin
  if not exists (select from pg_roles where rolname = 'pgrest_exec_user') then create role pgrest_exec_user nologin; end if;
end $$;
grant usage on schema public to pgrest_exec_user;
create table notes (id int primary key, owner text not null, body text not null);
insert into notes values (1, 'u1', 'one'), (2, 'u2', 'two'), (3, 'u1', 'three');
alter table notes enable row level security;
create policy own_notes on notes using (owner = current_setting('request.jwt.claims', true)::json->>'sub');
grant select on notes to pgrest_exec_user;
create table touched (n int);
create function scribble(notes) returns int language sql volatile as $$ insert into touched values (1) returning 1 $$;
create function request_info() returns json language sql stable as $$
  select json_build_object(
    'method', current_setting('request.method', true),
    'path', current_setting('request.path', true),
    'accept', current_setting('request.headers', true)::json->>'accept',
    'read_only', current_setting('transaction_read_only'),
    'timeout', current_setting('statement_timeout'))
$$;
create view request_view as select request_info() as info;
create view slow_view as select 1 as id from pg_sleep(1);
create table authors (id int primary key, name text not null);
create table books (id int primary key, title text not null, author_id int constraint books_author_fk references authors (id));
insert into authors values (1, 'Ann'), (2, 'Bob');
insert into books values (1, 'first', 1), (2, 'second', 2);
`;

let db: TestDatabase;
/** One connection, so what the engine leaves on it can be inspected. */
let single: pg.Pool;
let engine: PgrestEngine;
/** client.query calls, i.e. round trips the engine started. */
let roundTrips = 0;
const counted = new WeakSet<object>();

function countRoundTrips(pool: pg.Pool): void {
  pool.on('acquire', (client) => {
    if (counted.has(client)) return;
    counted.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      roundTrips += 1;
      return query(...args);
    };
  });
}

async function send(
  target: PgrestEngine,
  pathAndQuery: string,
  headers: Record<string, string> = {},
  caller?: PgrestCaller,
  write?: { method: PgrestRequest['method']; body?: unknown },
): Promise<{ status: number; json: unknown; headers: PgrestHeaders }> {
  const [path = '', query = ''] = pathAndQuery.split(/\?(.*)/s);
  const request: PgrestRequest = {
    method: write?.method ?? 'GET',
    path,
    query,
    headers: write?.body !== undefined ? { 'content-type': 'application/json', ...headers } : headers,
    ...(write?.body !== undefined ? { body: JSON.stringify(write.body) } : {}),
  };
  const response = await target.handle(request, caller);
  return {
    status: response.status,
    headers: response.headers,
    json: response.body === '' ? undefined : (JSON.parse(response.body) as unknown),
  };
}

async function preparedCount(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ n: string }>(
    `select count(*) as n from pg_prepared_statements where name like 'pgrst\\_%'`,
  );
  return Number(result.rows[0]?.n);
}

beforeAll(async () => {
  db = await createTestDatabase(SETUP_SQL);
  single = new pg.Pool({ connectionString: db.url, max: 1 });
  countRoundTrips(single);
  engine = await createPgrest({ pool: single, schemas: ['public'], listen: false, statementTimeoutMs: 300 });
});
afterAll(async () => {
  await engine.close();
  await single.end();
  await db.drop();
});

describe('a read is one round trip', () => {
  it('sends the settings, the read and the commit together', async () => {
    await send(engine, 'notes?select=id');
    roundTrips = 0;
    const r = await send(engine, 'books?select=title,authors(name)&order=id');
    expect(r.json).toEqual([
      { title: 'first', authors: { name: 'Ann' } },
      { title: 'second', authors: { name: 'Bob' } },
    ]);
    expect(roundTrips).toBe(1);
    roundTrips = 0;
    const counted = await send(engine, 'books?select=title&limit=1', { prefer: 'count=planned' });
    expect(counted.status).toBe(206);
    expect(roundTrips).toBe(1);
  });

  it('sets the request settings first: RLS policies see the claims', async () => {
    const caller = { role: 'pgrest_exec_user', claims: { sub: 'u1' } };
    const r = await send(engine, 'notes?select=id,body&order=id', {}, caller);
    expect(r.json).toEqual([
      { id: 1, body: 'one' },
      { id: 3, body: 'three' },
    ]);
    const other = await send(engine, 'notes?select=id', {}, { role: 'pgrest_exec_user', claims: { sub: 'u2' } });
    expect(other.json).toEqual([{ id: 2 }]);
  });

  it('sends the claims as they are at each request, frozen ones reused', async () => {
    const frozen = Object.freeze({ sub: 'u2' });
    for (let i = 0; i < 2; i += 1) {
      const r = await send(engine, 'notes?select=id', {}, { role: 'pgrest_exec_user', claims: frozen });
      expect(r.json).toEqual([{ id: 2 }]);
    }
    // An object the host changes between requests is read afresh each time.
    const claims: Record<string, unknown> = { sub: 'u2' };
    const caller = { role: 'pgrest_exec_user', claims };
    expect((await send(engine, 'notes?select=id', {}, caller)).json).toEqual([{ id: 2 }]);
    claims.sub = 'u1';
    expect((await send(engine, 'notes?select=id&order=id', {}, caller)).json).toEqual([{ id: 1 }, { id: 3 }]);
  });

  it('runs read-only with the request settings and the statement timeout', async () => {
    const r = await send(engine, 'request_view', { accept: 'application/json' });
    expect(r.json).toEqual([
      {
        info: { method: 'GET', path: '/request_view', accept: 'application/json', read_only: 'on', timeout: '300ms' },
      },
    ]);
    const write = await send(engine, 'notes?select=id,scribble');
    expect(write.status).toBe(405);
    expect(write.json).toMatchObject({ code: '25006' });
    const slow = await send(engine, 'slow_view');
    expect(slow.status).toBe(500);
    expect(slow.json).toMatchObject({ code: '57014' });
  });

  it('leaves nothing set on the connection', async () => {
    await send(engine, 'request_view');
    const { rows } = await single.query<Record<string, string>>(
      `select current_setting('request.method', true) as method, current_setting('transaction_read_only') as ro,
              current_setting('statement_timeout') as timeout, current_setting('role') as role`,
    );
    expect(rows[0]).toEqual({ method: '', ro: 'off', timeout: '0', role: 'none' });
    expect((await single.query('select count(*)::int as n from touched')).rows[0]).toEqual({ n: 0 });
  });
});

describe('writes', () => {
  it('take one round trip when nothing read decides the commit', async () => {
    roundTrips = 0;
    const created = await send(engine, 'authors', {}, undefined, { method: 'POST', body: { id: 10, name: 'Cy' } });
    expect(created.status).toBe(201);
    expect(roundTrips).toBe(1);
    roundTrips = 0;
    const duplicate = await send(engine, 'authors', {}, undefined, { method: 'POST', body: { id: 10, name: 'Cy' } });
    expect(duplicate.status).toBe(409);
    expect(roundTrips).toBe(1);
    const deleted = await send(engine, 'authors?id=eq.10', {}, undefined, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await send(engine, 'authors?id=eq.10')).json).toEqual([]);
  });

  it('wait for checks on their result before committing', async () => {
    roundTrips = 0;
    const refused = await send(engine, 'authors?id=gt.0', { prefer: 'handling=strict, max-affected=1' }, undefined, {
      method: 'PATCH',
      body: { name: 'renamed' },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'PGRST124' });
    // The write with its opening, then the ROLLBACK.
    expect(roundTrips).toBe(2);
    expect((await send(engine, 'authors?select=name&order=id')).json).toEqual([{ name: 'Ann' }, { name: 'Bob' }]);
  });
});

describe('prepared statements', () => {
  it('prepares a request shape once per connection', async () => {
    await send(engine, 'authors?select=name&id=eq.1');
    const before = await preparedCount(single);
    const r = await send(engine, 'authors?select=name&id=eq.2');
    expect(r.json).toEqual([{ name: 'Bob' }]);
    expect(await preparedCount(single)).toBe(before);
  });

  it('keeps at most a bounded number per connection', async () => {
    for (let i = 0; i < MAX_PREPARED_PER_CONNECTION + 10; i += 1) {
      const or = Array.from({ length: i + 1 }, (_, k) => `id.eq.${k}`).join(',');
      const r = await send(engine, `authors?select=id&or=(${or})&order=id`);
      expect(r.status).toBe(200);
    }
    // Evicted statements are closed with the next batch.
    expect(await preparedCount(single)).toBeLessThanOrEqual(MAX_PREPARED_PER_CONNECTION + 1);
  });

  it('keeps the same request apart per role, and prepares each once', async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    const fresh = await createPgrest({ pool, schemas: ['public'], listen: false });
    const asUser = { role: 'pgrest_exec_user', claims: { sub: 'u1' } };
    try {
      await send(fresh, 'notes?select=id&order=id');
      const owner = await preparedCount(pool);
      await send(fresh, 'notes?select=id&order=id', {}, asUser);
      const both = await preparedCount(pool);
      // Under the role the read is parsed again (its privileges are checked at parse).
      expect(both).toBeGreaterThan(owner);
      // The owner sees every note; the role only its own (RLS), each through its own statement.
      expect((await send(fresh, 'notes?select=id&order=id')).json).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
      expect((await send(fresh, 'notes?select=id&order=id', {}, asUser)).json).toEqual([{ id: 1 }, { id: 3 }]);
      expect(await preparedCount(pool)).toBe(both);
    } finally {
      await fresh.close();
      await pool.end();
    }
  });

  it('prepares an evicted statement again when it comes back', async () => {
    await send(engine, 'authors?select=name&id=eq.1');
    // Each length of the or-list is another statement text.
    for (let i = 0; i < MAX_PREPARED_PER_CONNECTION + 5; i += 1) {
      const or = Array.from({ length: i + 1 }, (_, k) => `id.eq.${k}`).join(',');
      expect((await send(engine, `authors?select=name&or=(${or})`)).status).toBe(200);
    }
    const r = await send(engine, 'authors?select=name&id=eq.1');
    expect(r.json).toEqual([{ name: 'Ann' }]);
    expect(await preparedCount(single)).toBeLessThanOrEqual(MAX_PREPARED_PER_CONNECTION + 1);
  });

  it('writes a limit into the text, so a limited read settles on one plan', async () => {
    // With a bound LIMIT PostgreSQL re-plans every execution (its generic plan assumes a
    // tenth of the table); with the literal it keeps one generic plan after five runs.
    for (let i = 0; i < 8; i += 1) {
      expect((await send(engine, 'books?select=title&title=neq.x&order=id&limit=1')).json).toEqual([
        { title: 'first' },
      ]);
    }
    const plans = await single.query<{ generic: string; custom: string }>(
      `select generic_plans as generic, custom_plans as custom from pg_prepared_statements
        where name like 'pgrst\\_%' and statement like '%"books"%LIMIT 1)%'`,
    );
    expect(plans.rows).toHaveLength(1);
    expect(Number(plans.rows[0]?.generic)).toBeGreaterThan(0);
    // A limit PostgreSQL refuses is still bound and refused as before.
    const negative = await send(engine, 'books?select=title,authors(name)&authors.limit=-1');
    expect([negative.status, (negative.json as { code?: string }).code]).toEqual([400, '2201W']);
    const huge = await send(engine, 'books?select=title,authors(name)&authors.limit=9223372036854775808');
    expect([huge.status, (huge.json as { code?: string }).code]).toEqual([400, '22003']);
  });

  it('recovers when the statements are dropped behind its back', async () => {
    await send(engine, 'authors?select=name&id=eq.1');
    await single.query('DEALLOCATE ALL');
    const r = await send(engine, 'authors?select=name&id=eq.1');
    expect(r.json).toEqual([{ name: 'Ann' }]);
  });

  it('stays usable after statements fail', async () => {
    for (let i = 0; i < 3; i += 1) {
      const bad = await send(engine, 'authors?id=eq.not-a-number');
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ code: '22P02' });
      const unknown = await send(engine, 'authors?name=cs.x');
      expect(unknown.status).toBe(404);
    }
    const good = await send(engine, 'authors?select=name&id=eq.1');
    expect(good.json).toEqual([{ name: 'Ann' }]);
  });

  it('sends only unnamed statements when turned off', async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    const plain = await createPgrest({ pool, schemas: ['public'], listen: false, preparedStatements: false });
    try {
      const r = await send(plain, 'books?select=title,authors(name)&id=eq.1');
      expect(r.json).toEqual([{ title: 'first', authors: { name: 'Ann' } }]);
      expect(await preparedCount(pool)).toBe(0);
    } finally {
      await plain.close();
      await pool.end();
    }
  });
});

describe('remembered reads', () => {
  it('authorize every caller again, embeds included', async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    const guarded = await createPgrest({
      pool,
      schemas: ['public'],
      listen: false,
      authorize: (access, caller) =>
        access.relation === 'authors' && caller.claims?.sub !== 'reader'
          ? { allowed: false, status: 403, message: 'no authors' }
          : { allowed: true },
    });
    try {
      const path = 'books?select=title,authors(name)&id=eq.1';
      const reader = { claims: { sub: 'reader' } };
      expect((await send(guarded, path, {}, reader)).status).toBe(200);
      const refused = await send(guarded, path, {}, { claims: { sub: 'other' } });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ message: 'no authors' });
      expect((await send(guarded, path, {}, reader)).status).toBe(200);
    } finally {
      await guarded.close();
      await pool.end();
    }
  });

  it('are planned again after a schema reload', async () => {
    const path = 'books?select=title,authors(name)&id=eq.1';
    expect((await send(engine, path)).status).toBe(200);
    await db.pool.query('alter table books drop constraint books_author_fk');
    await engine.reloadSchema();
    const r = await send(engine, path);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'PGRST200' });
    await db.pool.query(
      'alter table books add constraint books_author_fk foreign key (author_id) references authors (id)',
    );
    await engine.reloadSchema();
    expect((await send(engine, path)).status).toBe(200);
  });
});
