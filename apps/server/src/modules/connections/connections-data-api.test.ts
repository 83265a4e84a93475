import { Writable } from 'node:stream';
import { CONNECTION_TYPES, ROLES, type Role } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../../../test/build-test-app.js';
import { createSealer } from '../../crypto/sealed-values.js';
import { createLogger } from '../../logger.js';

/*
 * Connections through /api/db exactly as the console calls them (ui-calls 3.12), as real
 * signed-in users of each role: credentials are stored sealed, no read shows one (admins
 * included) whatever the spelling, '***' sent back keeps the stored value, bad input is refused
 * saying why, and no log line carries a credential.
 */

const PASSWORD = 'pg-Hunter2-password';
const URL_PASSWORD = 'url-Swordfish-9';
const TOKEN = 'tok-Abracadabra-7';
const CERTIFICATE = '-----BEGIN PRIVATE KEY-----\nMIIEsecretcertificatebody\n-----END PRIVATE KEY-----';
const SECRETS = [PASSWORD, URL_PASSWORD, TOKEN, 'MIIEsecretcertificatebody'];
/** A sealed value, as stored (the bare prefix may appear in a message about it). */
const SEALED_VALUE = /sealed:v1:[A-Za-z0-9_-]+:/;

let testApp: TestApp;
const users = {} as Record<Role, TestUser>;
const logLines: string[] = [];
const sealer = createSealer(TEST_SECRET_KEY);

const call = (user: TestUser, method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  testApp.app.inject({
    method: method as 'GET',
    url,
    headers: {
      ...bearer(user),
      // What the console sends on every call (apps/web/src/lib/api-client.ts).
      prefer: 'return=representation',
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });

const stored = async (id: string) =>
  (
    await testApp.database.pool.query<{
      url: string | null;
      password: string | null;
      certificate: string | null;
      properties: Record<string, string> | null;
      name: string;
    }>('SELECT name, url, password, certificate, properties FROM connections WHERE id = $1', [id])
  ).rows[0]!;

/** The body a console form saves (ui-calls 3.12), with every kind of credential. */
const formBody = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  namespace: 'default',
  type: 'postgres',
  url: `postgres://app:${URL_PASSWORD}@db.internal:5432/app?sslmode=disable`,
  username: 'app',
  password: PASSWORD,
  certificate: CERTIFICATE,
  insecure_tls: false,
  properties: { token: TOKEN, region: 'eu-west-1', dsn: `host=db password=${PASSWORD}` },
  ...extra,
});

async function create(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await call(users.admin, 'POST', '/api/db/connections', formBody(name, extra));
  expect(response.statusCode, response.body).toBe(201);
  return (JSON.parse(response.body) as { id: string }[])[0]!.id;
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(chunk.toString('utf8'));
      callback();
    },
  });
  // The production logger (with its redaction), at the most verbose level, into memory.
  testApp = await buildTestApp({ logger: createLogger('trace', sink) });
  for (const role of ROLES) {
    users[role] = await createSignedInUser(testApp.app, testApp.database.pool, {
      email: `${role}@example.com`,
      roles: [role],
    });
  }
});
afterAll(async () => {
  await testApp.close();
  // Nothing written above, in any request or answer, reached a log line.
  // The filter probes below put the plain values in their own query strings on purpose; the
  // request line echoes what the caller typed (and the logger's own redaction covers most
  // spellings, not `or=(password.eq.…)`), so it is left out: what is checked is everything
  // the server itself wrote.
  const written = logLines.map((line) => {
    const entry = JSON.parse(line) as { req?: { url?: string } };
    if (entry.req) delete entry.req.url;
    return JSON.stringify(entry);
  });
  expect(written.length).toBeGreaterThan(0);
  for (const secret of SECRETS) expect(written.filter((line) => line.includes(secret))).toEqual([]);
  expect(written.join('\n')).not.toMatch(SEALED_VALUE);
});

describe('storing a connection', () => {
  it('seals every credential at rest and answers the write with them masked', async () => {
    const response = await call(users.admin, 'POST', '/api/db/connections', formBody('main-db'));
    expect(response.statusCode, response.body).toBe(201);
    const [row] = JSON.parse(response.body) as Record<string, unknown>[];
    expect(row).toMatchObject({
      name: 'main-db',
      namespace: 'default',
      type: 'postgres',
      url: 'postgres://app:***@db.internal:5432/app?sslmode=disable',
      username: 'app',
      password: '***',
      certificate: '***',
      insecure_tls: false,
      properties: { token: '***', region: 'eu-west-1', dsn: 'host=db password=***' },
      source: 'UI',
    });
    const raw = await stored(row!.id as string);
    const text = JSON.stringify(raw);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(raw.password).toMatch(/^sealed:v1:/);
    expect(sealer.open(raw.password!, 'connections:password')).toBe(PASSWORD);
    expect(sealer.open(raw.certificate!, 'connections:certificate')).toBe(CERTIFICATE);
    expect(sealer.open(raw.properties!.token!, 'connections:properties')).toBe(TOKEN);
    expect(raw.properties!.region).toBe('eu-west-1');
    expect(raw.url).toMatch(/^postgres:\/\/app:sealed:v1:\S+@db\.internal:5432\/app\?sslmode=disable$/);
  });

  it('keeps references to the secret store as written, and shows them', async () => {
    const id = await create('by-reference', {
      password: 'secret://db/password',
      certificate: null,
      url: 'postgres://db.internal:5432/app',
      properties: { token: 'configmap://app/token' },
    });
    expect((await stored(id)).password).toBe('secret://db/password');
    const response = await call(users.admin, 'GET', `/api/db/connections?id=eq.${id}&select=password,properties`);
    expect(JSON.parse(response.body)).toEqual([
      { password: 'secret://db/password', properties: { token: 'configmap://app/token' } },
    ]);
  });
});

describe('notification service URLs', () => {
  it('shows the $(username) and $(password) placeholders as written, and masks real credentials beside them', async () => {
    const urls = [
      'zulip://$(username):$(password)@chat.example.org/?stream=ops',
      'googlechat://chat.googleapis.com/v1/spaces/AAA/messages?key=$(username)&token=$(password)',
      'pushover://shoutrrr:$(password)@$(username)/',
      'telegram://$(password)@telegram/?chats=$(username)',
    ];
    for (const [index, url] of urls.entries()) {
      const id = await create(`notify-${index}`, { type: 'zulip_chat', url, properties: {} });
      expect((await stored(id)).url).toBe(url);
      const read = await call(users.admin, 'GET', `/api/db/connections?id=eq.${id}&select=url`);
      expect(JSON.parse(read.body)).toEqual([{ url }]);
    }
    const mixed = await create('notify-mixed', {
      type: 'generic_webhook',
      url: `generic+https://hooks.example.org/in?token=${TOKEN}&user=$(username)`,
      properties: {},
    });
    const read = await call(users.admin, 'GET', `/api/db/connections?id=eq.${mixed}&select=url`);
    expect(JSON.parse(read.body)).toEqual([{ url: 'generic+https://hooks.example.org/in?token=***&user=$(username)' }]);
  });
});

describe('reading connections', () => {
  let id: string;
  beforeAll(async () => {
    id = await create('read-me');
  });

  it('never shows a stored credential to an admin or an editor, in any spelling', async () => {
    const reads = [
      `/api/db/connections?id=eq.${id}`,
      `/api/db/connections?id=eq.${id}&select=*`,
      `/api/db/connections?id=eq.${id}&select=p:password::text,c:certificate,u:url,t:properties->>token,d:properties->dsn`,
      `/api/db/connections?id=eq.${id}&select=properties::text,url::text`,
      `/api/db/connections?id=eq.${id}&order=password.desc,url`,
      `/api/db/people?select=name,connections(password,url,properties)`,
    ];
    for (const role of ['admin', 'editor'] as const) {
      for (const url of reads) {
        const response = await call(users[role], 'GET', url);
        expect(response.statusCode, `${role} ${url}: ${response.body}`).toBe(200);
        for (const secret of SECRETS) expect(response.body, url).not.toContain(secret);
        expect(response.body, url).not.toContain('sealed:v1:');
      }
    }
    const csv = await call(users.admin, 'GET', `/api/db/connections?id=eq.${id}`, undefined, { accept: 'text/csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('***');
    for (const secret of SECRETS) expect(csv.body).not.toContain(secret);
    expect(csv.body).not.toContain('sealed:v1:');
  });

  it('lets no filter find a stored value', async () => {
    const filters = [
      `password=eq.${PASSWORD}`,
      `password=like.*Hunter*`,
      `password=like.sealed*`,
      `url=like.*Swordfish*`,
      `url=like.*sealed*`,
      `properties->>token=eq.${TOKEN}`,
      `properties->>dsn=like.*Hunter*`,
      `certificate=like.*BEGIN*`,
      `or=(password.eq.${PASSWORD},url.ilike.*swordfish*)`,
    ];
    for (const filter of filters) {
      const response = await call(users.admin, 'GET', `/api/db/connections?id=eq.${id}&${filter}`);
      expect(response.statusCode, `${filter}: ${response.body}`).toBe(200);
      expect(JSON.parse(response.body), filter).toEqual([]);
    }
    // What a read shows is what filters see: that a value is set, nothing more.
    const set = await call(users.admin, 'GET', `/api/db/connections?id=eq.${id}&password=eq.***&select=name`);
    expect(JSON.parse(set.body)).toEqual([{ name: 'read-me' }]);
    // An error that quotes a value quotes the mask.
    const cast = await call(users.admin, 'GET', `/api/db/connections?id=eq.${id}&select=n:password::int`);
    expect(cast.statusCode).toBe(400);
    expect(cast.body).not.toContain(PASSWORD);
    expect(cast.body).not.toContain('sealed:v1:');
  });

  it('is refused to the roles without read on connections', async () => {
    for (const role of ['viewer', 'commander', 'responder'] as const) {
      const response = await call(users[role], 'GET', '/api/db/connections');
      expect(response.statusCode, role).toBe(403);
    }
  });
});

describe('editing a connection', () => {
  it("keeps what is stored where '***' comes back, and replaces what changes", async () => {
    const id = await create('edit-me');
    const before = await stored(id);
    const read = JSON.parse((await call(users.admin, 'GET', `/api/db/connections?id=eq.${id}`)).body) as Record<
      string,
      unknown
    >[];
    // The edit form saves what it loaded with one field changed (ui-calls 3.12: "same + id").
    const saved: Record<string, unknown> = {
      ...read[0],
      id,
      url: 'postgres://app:***@db2.internal:5432/app?sslmode=disable',
    };
    for (const key of ['created_at', 'updated_at', 'source', 'created_by', 'deleted_at']) delete saved[key];
    const response = await call(users.admin, 'PATCH', `/api/db/connections?id=eq.${id}`, saved);
    expect(response.statusCode, response.body).toBe(200);
    const after = await stored(id);
    expect(after.password).toBe(before.password);
    expect(after.certificate).toBe(before.certificate);
    expect(after.properties!.token).toBe(before.properties!.token);
    expect(sealer.open(after.properties!.dsn!.split('password=')[1]!, 'connections:properties')).toBe(PASSWORD);
    expect(after.url!.replace(/sealed:v1:\S+@/, 'X@')).toBe('postgres://app:X@db2.internal:5432/app?sslmode=disable');
    expect(sealer.open(/app:(sealed:v1:\S+)@/.exec(after.url!)![1]!, 'connections:url')).toBe(URL_PASSWORD);

    const changed = await call(users.admin, 'PATCH', `/api/db/connections?id=eq.${id}`, { password: 'new-Pass-1' });
    expect(changed.statusCode).toBe(200);
    expect(sealer.open((await stored(id)).password!, 'connections:password')).toBe('new-Pass-1');
    const cleared = await call(users.admin, 'PATCH', `/api/db/connections?id=eq.${id}`, { certificate: null });
    expect(cleared.statusCode).toBe(200);
    expect((await stored(id)).certificate).toBeNull();
  });

  it('soft-deletes as the console does, and the name is free again', async () => {
    const id = await create('short-lived');
    const response = await call(users.admin, 'PATCH', `/api/db/connections?id=eq.${id}`, { deleted_at: 'now()' });
    expect(response.statusCode, response.body).toBe(200);
    const listed = await call(users.admin, 'GET', '/api/db/connections?deleted_at=is.null&select=id');
    expect((JSON.parse(listed.body) as { id: string }[]).map((row) => row.id)).not.toContain(id);
    await create('short-lived');
  });

  it('lets only admins write, and leaves rows from other sources alone', async () => {
    const id = await create('guarded');
    for (const role of ['editor', 'viewer', 'commander', 'responder'] as const) {
      expect((await call(users[role], 'POST', '/api/db/connections', formBody(`by-${role}`))).statusCode, role).toBe(
        403,
      );
      expect((await call(users[role], 'PATCH', `/api/db/connections?id=eq.${id}`, { name: 'x' })).statusCode).toBe(403);
    }
    await testApp.database.pool.query("UPDATE connections SET source = 'KubernetesCRD' WHERE id = $1", [id]);
    const response = await call(users.admin, 'PATCH', `/api/db/connections?id=eq.${id}`, { name: 'renamed' });
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body).message).toBe(
      'Rows of connections that come from KubernetesCRD are read-only here; change them in KubernetesCRD instead.',
    );
  });
});

describe('bad input', () => {
  const refused = async (
    body: unknown,
    status: number,
    message: RegExp,
    method = 'POST',
    url = '/api/db/connections',
  ) => {
    const response = await call(users.admin, method, url, body);
    expect(response.statusCode, response.body).toBe(status);
    expect((JSON.parse(response.body) as { message: string }).message).toMatch(message);
    for (const secret of SECRETS) expect(response.body).not.toContain(secret);
    expect(response.body).not.toMatch(SEALED_VALUE);
  };

  it('names what is wrong with a new connection', async () => {
    await refused(
      formBody('t', { type: 'carrier-pigeon' }),
      400,
      /type "carrier-pigeon" is not a connection type; use one of aws, s3/,
    );
    await refused({ ...formBody('t'), type: undefined }, 400, /type is required/);
    await refused(formBody('   '), 400, /name must be a non-empty text/);
    await refused({ ...formBody('t'), name: undefined }, 400, /name is required/);
    await refused(formBody('t', { properties: { port: 5432 } }), 400, /properties\.port must be a text \(got number\)/);
    await refused(formBody('t', { properties: ['a'] }), 400, /properties must be an object whose values are texts/);
    await refused(formBody('t', { url: 'postgres://app:pw@db /app' }), 400, /holds spaces or line breaks/);
    await refused(formBody('t', { url: 'https://exa mple.org' }), 400, /holds spaces or line breaks/);
    await refused(formBody('t', { url: 'postgres://[::1/app' }), 400, /is not a valid URL/);
    await refused(formBody('t', { insecure_tls: 'yes' }), 400, /insecure_tls must be true or false/);
    await refused(formBody('t', { password: '***' }), 400, /password is '\*\*\*', which keeps a stored value/);
    await refused(formBody('t', { password: 'sealed:v1:abc:def.ghi.jkl' }), 400, /only Lookout writes/);
    await refused('{"name": "x", "password": "hunter', 400, /The body is not valid JSON/);
    const csv = await call(users.admin, 'POST', '/api/db/connections', 'name,type\nx,postgres', {
      'content-type': 'text/csv',
    });
    expect(csv.statusCode).toBe(415);
  });

  it('refuses a second live connection of the same name, saying so, and keeps the first', async () => {
    const id = await create('twin');
    await refused(
      formBody('twin', { password: 'other' }),
      409,
      /A connection named 'twin' already exists in namespace 'default'/,
    );
    expect(sealer.open((await stored(id)).password!, 'connections:password')).toBe(PASSWORD);
    // Another namespace may use the name.
    await create('twin', { namespace: 'staging' });
  });

  it('changes nothing when an edit is refused', async () => {
    const id = await create('steady');
    const before = await stored(id);
    const url = `/api/db/connections?id=eq.${id}`;
    await refused({ type: 'nope' }, 400, /is not a connection type/, 'PATCH', url);
    await refused({ name: '' }, 400, /name must be a non-empty text/, 'PATCH', url);
    await refused({ properties: { a: { b: 1 } } }, 400, /properties\.a must be a text \(got object\)/, 'PATCH', url);
    await refused({ url: 'postgres://db/app?password=***' }, 400, /url is '\*\*\*'/, 'PATCH', url);
    await refused({ password: '***' }, 400, /name one connection/, 'PATCH', '/api/db/connections?name=eq.steady');
    await refused({ name: 'twin' }, 409, /A connection named 'twin' already exists/, 'PATCH', url);
    expect(await stored(id)).toEqual(before);
  });
});

it('knows exactly the connection types of the contract', async () => {
  const { rows } = await testApp.database.pool.query<{ definition: string }>(
    "SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'connections_type_check'",
  );
  const types = [...rows[0]!.definition.matchAll(/'([a-z0-9_]+)'::text/g)].map((match) => match[1]);
  expect(types.sort()).toEqual([...CONNECTION_TYPES].sort());
});
