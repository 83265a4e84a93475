import {
  can,
  DATA_API_RELATIONS,
  dataApiResource,
  READ_ONLY_RELATIONS,
  ROLES,
  type Action,
  type DataApiRelation,
  type Role,
} from '@lookout/contracts';
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';

/*
 * Property-based fuzzing of /api/db as a whole: random methods, relations (listed, unlisted,
 * disguised and named outside ASCII), query strings assembled from PostgREST's grammar,
 * PostgREST's headers and random bodies (binary ones and bytes that are not UTF-8 included),
 * sent by random roles. Whatever arrives:
 * - the answer is never a 5xx;
 * - a relation off the allow-list, or one the caller's roles may not read or write, never
 *   answers 2xx;
 * - nothing from a table off the list ever appears in a body (sentinels are planted there);
 * - rows another source owns, and every table off the list, are exactly as they were.
 */

const rolesFromHeader = async (request: FastifyRequest): Promise<readonly Role[] | null> => {
  const header = request.headers['x-test-roles'];
  if (typeof header !== 'string') return null;
  return header === '' ? [] : (header.split(',') as Role[]);
};

/** Written into tables off the allow-list; no response may ever contain it. */
const SENTINEL = 'sentinel-4f1c9e';
const GUARDED_SNAPSHOT_SQL = `
  SELECT json_build_object(
    'teams', (SELECT json_agg(t ORDER BY id) FROM teams t WHERE source <> 'UI'),
    'team_members', (SELECT json_agg(m ORDER BY team_id, person_id) FROM team_members m WHERE source <> 'UI'),
    'logging_backends', (SELECT json_agg(l ORDER BY id) FROM logging_backends l WHERE source <> 'UI'),
    'canaries', (SELECT json_agg(c ORDER BY id) FROM canaries c WHERE source <> 'UI'),
    'role_assignments', (SELECT json_agg(r ORDER BY person_id, role) FROM role_assignments r),
    'identities', (SELECT json_agg(i ORDER BY id) FROM identities i),
    'identity_credentials', (SELECT json_agg(c ORDER BY id) FROM identity_credentials c),
    'identity_sessions', (SELECT json_agg(s ORDER BY id) FROM identity_sessions s),
    'installation', (SELECT json_agg(i) FROM installation i)
  )::text AS snapshot`;

const UNLISTED = [
  'identity_credentials',
  'identity_sessions',
  'role_assignments',
  'installation',
  'check_status_rollups',
  'job_history',
  'rpc/lookout_try_uuid',
  'rpc/lookout_redact_url',
];
/** Ways of naming a relation that must not reach anything the plain name would not. */
const DISGUISED = [
  'public.identity_credentials',
  '"identity_credentials"',
  'Identity_Credentials',
  'teams/../identity_credentials',
  'teams%2F..%2Fidentity_credentials',
  'identity%5Fcredentials',
  'pg_catalog.pg_authid',
  'pg_authid',
  'information_schema.tables',
  'teams/',
  '',
  'rpc/',
];
/** Names outside ASCII, raw and percent-encoded: never a 500 (Node refuses such header text). */
const NON_ASCII = [
  'größe',
  encodeURIComponent('größe'),
  '日本',
  encodeURIComponent('日本'),
  'rpc/grüße',
  `rpc/${encodeURIComponent('grüße')}`,
  'teams%C3%B6',
  'naïve%20name',
];
const LISTED = Object.keys(DATA_API_RELATIONS);

const relation = fc.oneof(
  { arbitrary: fc.constantFrom(...LISTED), weight: 4 },
  { arbitrary: fc.constantFrom(...UNLISTED, ...DISGUISED), weight: 1 },
  { arbitrary: fc.constantFrom(...NON_ASCII), weight: 1 },
);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS');
const roles = fc.constantFrom<string | undefined>(undefined, '', ...ROLES, 'viewer,editor', 'admin', 'admin', 'editor');

const word = fc.constantFrom(
  'id',
  'name',
  'source',
  'spec',
  'labels',
  'deleted_at',
  'created_by',
  'person_id',
  'team_id',
  'config',
  'token_hash',
  'role',
  '*',
  'identity_credentials',
  'identity_sessions',
  'role_assignments',
  'people',
  'teams',
  'identities',
  'team_members',
  'canaries',
  'checks',
  'größe',
  '日本',
  'naïve',
);
const grammar = fc.constantFrom(
  '(',
  ')',
  ',',
  '.',
  ':',
  '!inner',
  '!',
  '...',
  '->',
  '->>',
  '::text',
  'eq.',
  'neq.',
  'in.(',
  'is.null',
  'like.*',
  'cs.{',
  'not.',
  'eq(any).{',
  'or=(',
  'and=(',
  'UI',
  'ConfigFile',
  'now()',
  '"',
  "'",
  ';',
  '%',
  '\\',
  '-1',
  '99999999999999999999',
);
const fragment = fc
  .array(fc.oneof(word, grammar, fc.string({ maxLength: 3 })), { maxLength: 7 })
  .map((parts) => parts.join(''));
const queryKey = fc.constantFrom(
  'select',
  'order',
  'limit',
  'offset',
  'columns',
  'on_conflict',
  'or',
  'and',
  'id',
  'source',
  'name',
  'people.name',
  'identity_credentials.config',
  'role_assignments.role',
);
const junkQuery = fc
  .array(fc.tuple(fc.oneof(queryKey, fragment), fragment), { maxLength: 4 })
  .map((pairs) => pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&'));
/** Requests that parse, so that the fuzzing reaches planning, SQL and the guards. */
const column = fc.constantFrom('id', 'name', 'source', 'created_by', 'deleted_at', 'person_id', 'team_id', 'spec');
const embed = fc.constantFrom(
  'people(name)',
  'people(name)',
  'teams(name)',
  'created_by(name)',
  'created_by(name)',
  'teams(name,source)',
  'team_members(*)',
  'role_assignments(role)',
  'identity_credentials(config)',
  'identity_sessions(token_hash)',
  'identities(traits,identity_credentials(config))',
  'people!inner(role_assignments(*))',
  '...identity_credentials(config)',
  'checks(name)',
);
const select = fc
  .array(fc.oneof(column, embed), { minLength: 1, maxLength: 3 })
  .map((items) => `select=${encodeURIComponent(items.join(','))}`);
const filter = fc
  .tuple(
    fc.oneof(column, fc.constantFrom('identity_credentials.config', 'role_assignments.role', 'people.name')),
    fc.constantFrom('eq.UI', 'neq.UI', 'is.null', 'not.is.null', 'in.(UI,ConfigFile)', 'like.*', 'eq.ConfigFile'),
  )
  .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
const wellFormedQuery = fc
  .tuple(
    fc.option(select),
    fc.array(filter, { maxLength: 2 }),
    fc.option(
      fc.constantFrom('order=name.desc', 'limit=1', 'on_conflict=id', 'on_conflict=name', 'columns=name,source'),
    ),
  )
  .map(([head, filters, tail]) => [head, ...filters, tail].filter((part) => part !== null).join('&'));
const query = fc.oneof({ arbitrary: wellFormedQuery, weight: 3 }, { arbitrary: junkQuery, weight: 1 });

const prefer = fc
  .subarray([
    'return=representation',
    'return=minimal',
    'return=headers-only',
    'resolution=merge-duplicates',
    'resolution=ignore-duplicates',
    'missing=default',
    'count=exact',
    'count=planned',
    'tx=commit',
    'tx=rollback',
    'handling=strict',
    'max-affected=1',
    'timezone=Mars/Olympus',
    'params=single-object',
  ])
  .map((items) => items.join(', '));
/** Usually `usual`, sometimes one of `others`: odd headers stay common without hiding the rest. */
const mostly = (usual: string, ...others: string[]) =>
  fc.oneof({ arbitrary: fc.constant(usual), weight: 4 }, { arbitrary: fc.constantFrom(...others), weight: 1 });
const headers = fc.record(
  {
    prefer,
    accept: mostly(
      'application/json',
      'application/vnd.pgrst.object+json',
      'text/csv',
      'application/vnd.pgrst.plan+json',
      'text/html',
      '*/*',
    ),
    'content-type': mostly(
      'application/json',
      'text/csv',
      'application/x-www-form-urlencoded',
      'text/xml',
      'application/octet-stream',
      'text/plain',
    ),
    range: fc.constantFrom('0-0', '5-1', 'bytes=0-10', '-1', '0-999999999999'),
    'accept-profile': mostly('public', 'pg_catalog', 'information_schema'),
    'content-profile': mostly('public', 'pg_catalog'),
  },
  { requiredKeys: [] },
);
const bodyValue = fc.oneof(
  fc.constantFrom('UI', 'ConfigFile', 'now()', null, 1, true, '00000000-0000-0000-0000-000000000000'),
  fc.string({ maxLength: 6 }),
);
const row = fc.dictionary(
  fc.constantFrom('id', 'name', 'source', 'spec', 'created_by', 'team_id', 'person_id', 'deleted_at', 'role'),
  bodyValue,
  { maxKeys: 4 },
);
const plausible = fc.constantFrom(
  { name: 'renamed' },
  { name: 'agent-x' },
  { name: 'team-x', created_by: '00000000-0000-0000-0000-000000000000' },
  { name: 'renamed', source: 'UI' },
  { source: 'UI' },
  { source: 'ConfigFile' },
  { name: 'new', spec: {}, source: 'UI' },
  [{ name: 'a' }, { name: 'b', source: 'ConfigFile' }],
  { deleted_at: 'now()' },
);
const body = fc.oneof(
  plausible.map((value) => JSON.stringify(value)),
  plausible.map((value) => JSON.stringify(value)),
  row.map((value) => JSON.stringify(value)),
  fc.array(row, { maxLength: 3 }).map((value) => JSON.stringify(value)),
  fc.constantFrom('name,source\nx,ConfigFile', 'id\n', '{', '[]', '', 'null', '"text"', '{"name":"größe 日本"}'),
  fc.string({ maxLength: 12 }),
  // Binary bodies: any bytes, UTF-8 or not (JSON with a stray byte, a lone continuation byte).
  fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom(Buffer.from('{"name":"\xff"}', 'latin1'), Buffer.from([0xc3, 0x28]), Buffer.from([0x80])),
);

/** The resource and action the allow-list demands for this request, when it is on the list. */
function demanded(rawPath: string, verb: string): { relation: DataApiRelation; action: Action } | undefined {
  // `teams/` names `teams`, as in PostgREST.
  const path = rawPath.replace(/\/$/, '');
  const resource = dataApiResource(path);
  if (!resource) return undefined;
  const reads = verb === 'GET' || verb === 'HEAD' || verb === 'OPTIONS';
  return { relation: path as DataApiRelation, action: reads ? 'read' : 'write' };
}

describe('/api/db under random requests', () => {
  let testApp: TestApp;
  let before: string;

  beforeAll(async () => {
    testApp = await buildTestApp({ resolveRoles: rolesFromHeader });
    const pool = testApp.database.pool;
    const person = await pool.query<{ id: string }>(
      "INSERT INTO people (name, email) VALUES ('Fuzz Owner', 'fuzz@example.com') RETURNING id",
    );
    const personId = person.rows[0]!.id;
    const team = await pool.query<{ id: string }>(
      "INSERT INTO teams (name, source, created_by) VALUES ('from-config', 'ConfigFile', $1), ('from-ui', 'UI', $1) RETURNING id",
      [personId],
    );
    await pool.query("INSERT INTO team_members (team_id, person_id, source) VALUES ($1, $2, 'ConfigFile')", [
      team.rows[0]!.id,
      personId,
    ]);
    await pool.query(
      "INSERT INTO logging_backends (name, spec, source) VALUES ('loki', '{\"url\":\"http://loki\"}', 'ConfigFile')",
    );
    await pool.query(
      `INSERT INTO canaries (name, spec, source) VALUES ('fixed', '{"http":[{"name":"home","url":"http://localhost"}]}', 'kubernetes/abc')`,
    );
    const identity = await pool.query<{ id: string }>(
      `INSERT INTO identities (traits) VALUES ('{"email":"sentinel@example.com","name":{"first":"S","last":"T"}}') RETURNING id`,
    );
    await pool.query(
      `INSERT INTO identity_credentials (identity_id, type, config) VALUES ($1, 'password', json_build_object('hashed_password', $2::text))`,
      [identity.rows[0]!.id, SENTINEL],
    );
    await pool.query(
      `INSERT INTO identity_sessions (identity_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
      [identity.rows[0]!.id, SENTINEL],
    );
    await pool.query("INSERT INTO role_assignments (person_id, role, source) VALUES ($1, 'admin', 'System')", [
      personId,
    ]);
    before = (await pool.query<{ snapshot: string }>(GUARDED_SNAPSHOT_SQL)).rows[0]!.snapshot;
  });
  afterAll(() => testApp.close());

  it('never answers 5xx, never serves what the allow-list or the roles forbid, never leaks or changes guarded rows', async () => {
    const outcomes = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        method,
        relation,
        query,
        headers,
        body,
        roles,
        async (verb, path, queryString, requestHeaders, payload, callerRoles) => {
          const url = `/api/db/${path}${queryString ? `?${queryString}` : ''}`;
          const hasBody = verb === 'POST' || verb === 'PATCH' || verb === 'PUT';
          const response = await testApp.app.inject({
            method: verb,
            url,
            headers: {
              ...requestHeaders,
              ...(callerRoles === undefined ? {} : { 'x-test-roles': callerRoles }),
            },
            ...(hasBody ? { payload } : {}),
          });
          outcomes.set(response.statusCode, (outcomes.get(response.statusCode) ?? 0) + 1);
          const what = `${verb} ${url} as ${String(callerRoles)} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
          expect(response.statusCode, what).toBeLessThan(500);
          expect(response.body, what).not.toContain(SENTINEL);
          if (response.statusCode >= 300) return;
          if (path === '') {
            // The root describes what the caller can reach, and nothing else.
            for (const hidden of UNLISTED) expect(response.body, what).not.toContain(`"/${hidden}"`);
            return;
          }
          // A success: the path must be on the list and the caller's roles must allow it.
          const need = demanded(path, verb);
          expect(need, what).toBeDefined();
          const granted = callerRoles ? (callerRoles.split(',') as Role[]) : [];
          expect(can(granted, dataApiResource(need!.relation)!, need!.action), what).toBe(true);
          if (need!.action === 'write') {
            expect((READ_ONLY_RELATIONS as readonly string[]).includes(need!.relation), what).toBe(false);
          }
        },
      ),
      { numRuns: 600 },
    );
    // The generators must keep reaching the engine's happy paths, not only its refusals.
    const succeeded = [...outcomes].filter(([status]) => status < 300).reduce((sum, [, count]) => sum + count, 0);
    expect(succeeded, JSON.stringify(Object.fromEntries(outcomes))).toBeGreaterThanOrEqual(20);
    const after = (await testApp.database.pool.query<{ snapshot: string }>(GUARDED_SNAPSHOT_SQL)).rows[0]!.snapshot;
    expect(after).toBe(before);
  });
});
