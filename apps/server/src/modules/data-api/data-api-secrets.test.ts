import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DATA_API_RELATIONS, maskSecrets, maskSecretText, SECRET_BEARING_COLUMNS } from '@lookout/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, type TestUser } from '../../../test/access-helpers.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * Issue 10, item 2: credentials written into specs (canaries here; teams and logging backends
 * below). A reader who may not write canaries
 * (viewer, commander, responder) must find none of them in any response, however the request
 * asks (columns, JSON paths, casts, embedding, CSV, filters, order, counts, the summary, Run
 * Now, the check history); those who may write canaries (editor, admin) see them, since they
 * edit them. Attacks run as real signed-in users.
 */

const SECRETS = {
  urlPassword: 'url-pass-7Qk',
  queryToken: 'query-token-9Zp',
  bearerToken: 'bearer-token-3Hx',
  basicPassword: 'basic-pass-5Wm',
  pgPassword: 'pg-pass-2Rv',
  redisPassword: 'redis-pass-8Lt',
  execPassword: 'exec-pass-4Nc',
  envPassword: 'env-pass-6Yd',
};
const SECRET_VALUES = Object.values(SECRETS);

let testApp: TestApp;
let target: http.Server;
let port: number;
const users: Record<'viewer' | 'commander' | 'responder' | 'editor' | 'admin', TestUser> = {} as never;
let httpCheckId: string;

const canary = {
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Canary',
  metadata: { name: 'with-secrets', namespace: 'default' },
  spec: {
    interval: 300,
    http: [
      {
        name: 'api',
        url: '', // set once the target listens
        headers: [
          { name: 'Authorization', value: `Bearer ${SECRETS.bearerToken}` },
          { name: 'X-Api-Key', valueFrom: { secretKeyRef: { name: 'api-credentials', key: 'api-key' } } },
          { name: 'Accept', value: 'text/plain' },
        ],
        authentication: { username: { value: 'monitor' }, password: { value: SECRETS.basicPassword } },
      },
    ],
    postgres: [
      {
        name: 'db',
        connection: `postgres://app:${SECRETS.pgPassword}@127.0.0.1:1/app`,
        query: 'SELECT 1',
      },
    ],
    redis: [{ name: 'cache', addr: '127.0.0.1:1', password: { value: SECRETS.redisPassword } }],
  },
};

/** Every secret found in a response body. */
const leaked = (body: string): string[] => SECRET_VALUES.filter((secret) => body.includes(secret));

beforeAll(async () => {
  target = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('ok');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  port = (target.address() as AddressInfo).port;
  canary.spec.http[0]!.url = `http://monitor:${SECRETS.urlPassword}@127.0.0.1:${port}/health?token=${SECRETS.queryToken}`;

  testApp = await buildTestApp();
  const { app, database } = testApp;
  users.viewer = await createSignedInUser(app, database.pool, { email: 'viewer@example.com', roles: [] });
  users.commander = await createSignedInUser(app, database.pool, { email: 'cmd@example.com', roles: ['commander'] });
  users.responder = await createSignedInUser(app, database.pool, { email: 'resp@example.com', roles: ['responder'] });
  users.editor = await createSignedInUser(app, database.pool, { email: 'editor@example.com', roles: ['editor'] });
  users.admin = await createSignedInUser(app, database.pool, { email: 'admin@example.com', roles: ['admin'] });

  const applied = await app.inject({
    method: 'POST',
    url: '/api/canary/apply',
    headers: { ...bearer(users.editor), 'content-type': 'application/json' },
    payload: JSON.stringify(canary),
  });
  expect(applied.statusCode, applied.body).toBe(200);
  httpCheckId = applied.json<{ checks: { id: string; type: string }[] }>().checks.find((c) => c.type === 'http')!.id;
  // An exec check written straight to the table (the data directory's files and `lookout
  // apply` are other ways in): its script and environment carry credentials too.
  await database.pool.query(
    `INSERT INTO canaries (name, namespace, spec, source) VALUES ('exec-secrets', 'default', $1, 'ConfigFile')`,
    [
      JSON.stringify({
        interval: 300,
        exec: [
          {
            name: 'psql',
            script: `PGPASSWORD=${SECRETS.execPassword} psql -h db -c 'select 1'`,
            env: [{ name: 'DB_PASSWORD', value: SECRETS.envPassword }],
          },
        ],
      }),
    ],
  );
});
afterAll(async () => {
  await testApp?.close();
  await new Promise((resolve) => target.close(resolve));
});

const get = (user: TestUser, url: string, headers: Record<string, string> = {}) =>
  testApp.app.inject({ method: 'GET', url, headers: { ...bearer(user), ...headers } });

/** Reads that output a spec, however a request can spell them. */
const SPEC_READS = [
  '/api/db/canaries?select=spec',
  '/api/db/canaries?select=*',
  '/api/db/canaries?select=s:spec::text',
  '/api/db/canaries?select=http:spec->http,pg:spec->postgres->0->>connection',
  '/api/db/canaries_with_status?select=*',
  '/api/db/checks?select=*',
  '/api/db/checks?select=spec',
  '/api/db/checks?select=h:spec->headers,p:spec->authentication->password',
  '/api/db/checks?select=t:spec::text,endpoint',
  '/api/db/checks?select=name,canaries(spec)',
  '/api/db/checks?select=name,canaries!inner(*)',
  '/api/db/checks?select=name,canaries!checks_canary_id_fkey(id,spec)',
  '/api/db/checks?select=name,...canaries(canary_spec:spec)',
  '/api/db/canaries?select=name,checks(spec,endpoint)',
  '/api/db/canaries?select=name,checks!inner(*)&order=name',
  '/api/db/agents?select=name,checks(spec)',
];

describe('a reader who may not write canaries', () => {
  const readers = ['viewer', 'commander', 'responder'] as const;

  it('finds no secret in any read of a spec, JSON path, cast or embed', async () => {
    for (const role of readers) {
      for (const url of SPEC_READS) {
        const response = await get(users[role], url);
        expect(response.statusCode, `${role} ${url}: ${response.body}`).toBe(200);
        expect(leaked(response.body), `${role} ${url}`).toEqual([]);
        if (url.includes('spec')) expect(response.body, `${role} ${url}`).toContain('***');
      }
    }
  });

  it('finds no secret in CSV or a single-object answer', async () => {
    for (const url of ['/api/db/canaries?select=name,spec', '/api/db/checks?select=name,spec,endpoint']) {
      const csv = await get(users.viewer, url, { accept: 'text/csv' });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(leaked(csv.body), url).toEqual([]);
    }
    const single = await get(users.viewer, `/api/db/checks?id=eq.${httpCheckId}&select=*`, {
      accept: 'application/vnd.pgrst.object+json',
    });
    expect(single.statusCode).toBe(200);
    expect(leaked(single.body)).toEqual([]);
  });

  it('sees where a secret lives: user names, hosts and valueFrom references stay', async () => {
    const response = await get(users.viewer, `/api/db/checks?id=eq.${httpCheckId}&select=spec`);
    const spec = response.json<{ spec: Record<string, unknown> }[]>()[0]?.spec;
    expect(spec).toMatchObject({
      url: `http://monitor:***@127.0.0.1:${port}/health?token=***`,
      headers: [
        { name: 'Authorization', value: '***' },
        { name: 'X-Api-Key', valueFrom: { secretKeyRef: { name: 'api-credentials', key: 'api-key' } } },
        { name: 'Accept', value: 'text/plain' },
      ],
      authentication: { username: { value: 'monitor' }, password: { value: '***' } },
    });
    const db = await get(users.viewer, '/api/db/checks?type=eq.postgres&select=spec->>connection');
    expect(db.json()).toEqual([{ connection: 'postgres://app:***@127.0.0.1:1/app' }]);
  });

  it('cannot search, order or count its way to a secret', async () => {
    // Each filter matches a row for those who see the secret (checked below for the editor).
    const filters = [
      '/api/db/checks?select=id&spec->authentication->password->>value=like.basic-pass*',
      '/api/db/checks?select=id&spec->>connection=like.*pg-pass*',
      '/api/db/checks?select=id&spec->password->>value=eq.' + SECRETS.redisPassword,
      '/api/db/checks?select=id&spec->>url=ilike.*url-pass*',
      '/api/db/checks?select=id&spec=cs.' + encodeURIComponent(`{"password":{"value":"${SECRETS.redisPassword}"}}`),
      '/api/db/checks?select=id&or=(spec->>script.like.*exec-pass*,name.eq.nothing)',
      '/api/db/canaries?select=id&spec->redis->0->password->>value=gte.redis-pass-',
      '/api/db/canaries?select=id,checks!inner(id)&checks.spec->>connection=like.*pg-pass-2*',
      '/api/db/canaries_with_status?select=id&spec->postgres->0->>connection=like.*pg-pass*',
    ];
    for (const url of filters) {
      const response = await get(users.viewer, url, { prefer: 'count=exact' });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      expect(response.json(), url).toEqual([]);
      expect(response.headers['content-range'], url).toBe('*/0');
      const editor = await get(users.editor, url);
      expect(editor.json<unknown[]>().length, `editor ${url}`).toBeGreaterThan(0);
    }
    // Ordering by a secret orders by its mask: every row ties, so the order tells nothing.
    const ordered = await get(
      users.viewer,
      '/api/db/checks?select=p:spec->password->>value&type=eq.redis&order=spec->password->>value.desc',
    );
    expect(ordered.json()).toEqual([{ p: '***' }]);
    // An error message that would quote the value quotes the mask.
    const cast = await get(users.viewer, '/api/db/checks?select=n:spec->password->>value::int&type=eq.redis');
    expect(cast.statusCode).toBe(400);
    expect(leaked(cast.body)).toEqual([]);
  });

  it('finds no secret in the summary, Run Now, the graph, the check history or the endpoint', async () => {
    const summary = await get(users.viewer, '/api/canary/api/summary');
    expect(summary.statusCode).toBe(200);
    expect(leaked(summary.body)).toEqual([]);
    const endpoints = summary
      .json<{ checks_summary: { type: string; endpoint: string }[] }>()
      .checks_summary.map(({ type, endpoint }) => [type, endpoint]);
    expect(endpoints).toEqual(
      expect.arrayContaining([
        ['http', `http://monitor:***@127.0.0.1:${port}/health?token=***`],
        ['postgres', 'postgres://app:***@127.0.0.1:1/app'],
        ['exec', "PGPASSWORD=*** psql -h db -c 'select 1'"],
      ]),
    );
    // Commanders and responders may run checks; what a run says is masked too.
    const run = await testApp.app.inject({
      method: 'POST',
      url: `/api/canary/run/check/${httpCheckId}`,
      headers: bearer(users.commander),
    });
    expect(run.statusCode, run.body).toBe(200);
    expect(leaked(run.body)).toEqual([]);
    const graph = await get(users.viewer, `/api/canary/api/graph?check=${httpCheckId}&count=300&start=1h`);
    expect(graph.statusCode, graph.body).toBe(200);
    expect(leaked(graph.body)).toEqual([]);
    const history = await get(users.viewer, '/api/db/check_statuses?select=*,checks(*)');
    expect(history.statusCode).toBe(200);
    expect(history.json<unknown[]>().length).toBeGreaterThan(0);
    expect(leaked(history.body)).toEqual([]);
  });
});

describe('those who may write canaries', () => {
  it('see the stored values, which they edit', async () => {
    for (const role of ['editor', 'admin'] as const) {
      const canaries = await get(users[role], '/api/db/canaries?select=spec&order=name');
      expect(leaked(canaries.body).sort(), role).toEqual([...SECRET_VALUES].sort());
      const checks = await get(users[role], `/api/db/checks?id=eq.${httpCheckId}&select=spec`);
      expect(checks.json<{ spec: { url: string } }[]>()[0]?.spec.url, role).toBe(canary.spec.http[0]!.url);
    }
  });

  it('still see the endpoint and the summary masked: they show credentials to nobody', async () => {
    const summary = await get(users.admin, '/api/canary/api/summary');
    expect(leaked(summary.body)).toEqual([]);
  });
});

describe('other documents with credentials', () => {
  it('masks team and logging backend specs for readers without write on their resource', async () => {
    const { pool } = testApp.database;
    await pool.query(
      `INSERT INTO teams (name, spec, created_by) VALUES ('sre', $1, '00000000-0000-0000-0000-000000000001')`,
      [JSON.stringify({ notifications: [{ url: `https://hooks:${SECRETS.urlPassword}@chat.example/x` }] })],
    );
    await pool.query(`INSERT INTO logging_backends (name, spec) VALUES ('loki', $1)`, [
      JSON.stringify({ loki: { url: 'https://loki.example', password: { value: SECRETS.basicPassword } } }),
    ]);
    for (const url of ['/api/db/teams?select=name,spec', '/api/db/logging_backends?select=spec->loki']) {
      const viewer = await get(users.viewer, url);
      expect(viewer.statusCode, viewer.body).toBe(200);
      expect(leaked(viewer.body), url).toEqual([]);
      expect(viewer.body, url).toContain('***');
      const editor = await get(users.editor, url);
      expect(leaked(editor.body).length, url).toBe(1);
    }
  });
});

describe('the masking rules', () => {
  it('cover every spec column the data API reaches, each with the reader of its resource', async () => {
    const { rows } = await testApp.database.pool.query<{ relation: string; column: string }>(
      `SELECT table_name AS relation, column_name AS column FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = ANY($1) AND column_name = 'spec'`,
      [Object.keys(DATA_API_RELATIONS)],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { relation, column } of rows) {
      expect(SECRET_BEARING_COLUMNS[relation as keyof typeof SECRET_BEARING_COLUMNS], relation).toContain(column);
    }
    for (const relation of Object.keys(SECRET_BEARING_COLUMNS)) {
      const resource = DATA_API_RELATIONS[relation as keyof typeof DATA_API_RELATIONS];
      const { rows: found } = await testApp.database.pool.query<{ fn: string | null }>(
        'SELECT to_regprocedure($1)::text AS fn',
        [`lookout_${resource}_secrets(jsonb)`],
      );
      expect(found[0]?.fn, relation).toBe(`lookout_${resource}_secrets(jsonb)`);
    }
  });

  it('are the same in SQL (migration 10) as in contracts (maskSecrets)', async () => {
    const texts = [
      'postgres://app:hunter2@db:5432/app?sslmode=disable',
      'redis://:s3cret@cache:6379',
      'mysql://root:p@ss/word@db/x',
      'https://example.com:8443/path',
      'http://[::1]:8080/health',
      'host=db user=app password=hunter2 dbname=app',
      'Server=db;User Id=app;Password=hunter2;',
      'https://api.example.com/?access_token=abc123&page=2&api-key=k',
      'PGPASSWORD=hunter2 psql -h db && export API_TOKEN="x y"',
      '{"user":"app","password":"hunter2","client_secret": "c"}',
      "api_key: 'abc'\nprivate_key=---BEGIN",
      'curl -H "Authorization: Bearer eyJhbGciOi.x.y" -H "Cookie: session=abc; theme=dark" https://x',
      'Authorization: Basic dXNlcjpwYXNz',
      'Authorization: token ghp_abc',
      'sent bearer abc.def== upstream; Bearer\tzzz',
      'Invalid token',
      'tokens=5 token_count=3',
      'if [ "$TOKEN" = "" ]; then exit 1; fi',
      'the forbearer of news',
      'password authentication failed for user "app"',
      'PASSWORD:=x credentials=y CREDENTIAL=z',
      '',
    ];
    for (const text of texts) {
      const { rows } = await testApp.database.pool.query<{ masked: string }>(
        'SELECT lookout_mask_secret_text($1) AS masked',
        [text],
      );
      expect(rows[0]?.masked, text).toBe(maskSecretText(text));
    }
    const documents: unknown[] = [
      canary.spec,
      {
        password: 1234,
        token: '',
        apiKey: null,
        enabled: true,
        credentials: { user: 'u', pass: 'p', list: ['a', 2, true, null, { deep: 'd' }] },
        env: [
          { name: 'DB_PASSWORD', value: 'x' },
          { name: 'DB_HOST', value: 'db' },
          { name: 'X-Auth-Token', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        ],
        nested: { tokenUrl: 'https://u:p@idp/token', secretKeyRef: { name: 'n', key: 'password' } },
        list: [],
        empty: {},
      },
      'postgres://a:b@h',
      42,
      null,
    ];
    for (const document of documents) {
      const { rows } = await testApp.database.pool.query<{ masked: unknown }>(
        'SELECT lookout_mask_secrets($1::jsonb) AS masked',
        [JSON.stringify(document)],
      );
      expect(rows[0]?.masked, JSON.stringify(document)).toEqual(maskSecrets(document));
    }
  });
});
