import type { AgentPushTable } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { parsePushBody, PushBodyError, rowId, rowsNotStored, upsertSql } from './agent-push-fns.js';
import type { PushSchema, PushTableSchema } from './push-schema-repository.js';
import { basicAuthToken } from './upstream-routes.js';

const table = (name: AgentPushTable, overrides: Partial<PushTableSchema> = {}): PushTableSchema => ({
  table: name,
  columns: ['id', 'name', 'agent_id', 'created_by'],
  key: ['id'],
  requiredKey: ['id'],
  conflictSafe: true,
  hasAgentId: true,
  foreignKeys: [],
  localReferences: [{ columns: ['created_by'], parentTable: 'people', parentColumns: ['id'] }],
  ownedParents: [],
  ...overrides,
});

const schema: PushSchema = new Map([
  ['canaries', table('canaries')],
  ['checks', table('checks')],
  [
    'component_relationships',
    table('component_relationships', {
      columns: ['component_id', 'relationship_id', 'selector_id', 'created_at'],
      key: ['component_id', 'relationship_id', 'selector_id'],
      requiredKey: ['component_id', 'relationship_id'],
      conflictSafe: false,
      hasAgentId: false,
      localReferences: [],
    }),
  ],
]);

describe('parsePushBody', () => {
  it('orders tables parents first, keeps the last of repeated rows and only the columns the table has', () => {
    const parsed = parsePushBody(
      {
        checks: [{ id: 'b', name: 'check', newer: 1 }],
        canaries: [
          { id: 'a', name: 'first' },
          { id: 'a', name: 'second' },
        ],
        backlog: { queue_length: 3, oldest_unpushed_at: '2026-11-20T10:00:00Z' },
      },
      schema,
    );
    expect(parsed.batches.map((batch) => batch.schema.table)).toEqual(['canaries', 'checks']);
    expect(parsed.batches[0]!.rows).toEqual([{ id: 'a', name: 'second' }]);
    expect(parsed.batches[1]!.columns).toEqual(['id', 'name', 'agent_id']);
    expect(parsed.backlog).toEqual({ queue_length: 3, oldest_unpushed_at: '2026-11-20T10:00:00Z' });
  });

  it('skips empty and null tables', () => {
    expect(parsePushBody({ canaries: [], checks: null }, schema).batches).toEqual([]);
  });

  it('lets a nullable key column be missing', () => {
    const parsed = parsePushBody({ component_relationships: [{ component_id: 'p', relationship_id: 'c' }] }, schema);
    expect(parsed.batches[0]!.rows).toHaveLength(1);
  });

  it.each([
    ['a string', 'must be a JSON object'],
    [{ widgets: [] }, "Unknown table 'widgets'"],
    [{ canaries: 'x' }, "'canaries' must be an array of rows, not string"],
    [{ canaries: [null] }, 'canaries[0] must be an object'],
    [{ canaries: [{ name: 'no id' }] }, 'canaries[0] has no id: every row needs its key (id)'],
    [{ component_relationships: [{ component_id: 'p' }] }, 'component_relationships[0] has no relationship_id'],
    [{ backlog: { queue_length: 1.5, oldest_unpushed_at: null } }, 'backlog.queue_length: must be a whole number'],
    [{ backlog: { queue_length: 1, oldest_unpushed_at: 'yesterday' } }, 'backlog.oldest_unpushed_at'],
  ])('refuses %j', (body, message) => {
    expect(() => parsePushBody(body, schema)).toThrow(PushBodyError);
    expect(() => parsePushBody(body, schema)).toThrow(message);
  });
});

describe('upsertSql', () => {
  it('upserts by key, stores the caller as agent_id, keeps only known people, and spares other owners', () => {
    const [batch] = parsePushBody({ canaries: [{ id: 'a', name: 'x', created_by: 'p' }] }, schema).batches;
    const text = upsertSql(batch!);
    expect(text).toContain('ON CONFLICT ("id") DO UPDATE SET');
    expect(text).toContain('$2::uuid AS "agent_id"');
    expect(text).toContain('(SELECT p."id" FROM "people" p WHERE p."id" = r."created_by") AS "created_by"');
    expect(text).toContain('WHERE t.agent_id = EXCLUDED.agent_id');
    expect(text).toContain('RETURNING t."id"::text');
  });

  it('merges tables keyed by a nullable column with IS NOT DISTINCT FROM', () => {
    const [batch] = parsePushBody(
      { component_relationships: [{ component_id: 'p', relationship_id: 'c', selector_id: null }] },
      schema,
    ).batches;
    const text = upsertSql(batch!);
    expect(text).toMatch(/^MERGE INTO "component_relationships"/);
    expect(text).toContain('t."component_id" = s."component_id"');
    expect(text).toContain('t."selector_id" IS NOT DISTINCT FROM s."selector_id"');
    expect(text).not.toContain('$2');
  });
});

describe('rowId and rowsNotStored', () => {
  it('names rows by their key values', () => {
    expect(rowId({ check_id: 'c', time: '2026-11-20T10:00:00Z' }, ['check_id', 'time'])).toBe('c,2026-11-20T10:00:00Z');
  });

  it('lists the rows RETURNING did not give back, comparing uuids case-insensitively', () => {
    const [batch] = parsePushBody({ canaries: [{ id: 'AB' }, { id: 'cd' }] }, schema).batches;
    expect(rowsNotStored(batch!, [{ id: 'ab' }])).toEqual(['cd']);
    expect(rowsNotStored(batch!, [{ id: 'ab' }, { id: 'cd' }])).toEqual([]);
  });
});

describe('basicAuthToken', () => {
  const header = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

  it('reads the password of the username token', () => {
    expect(basicAuthToken(header('token:lka_abc:def'))).toBe('lka_abc:def');
  });

  it.each([undefined, 'Bearer lka_abc', header('admin:lka_abc'), header('token:'), header('token')])(
    'finds no token in %s',
    (value) => {
      expect(basicAuthToken(value)).toBeUndefined();
    },
  );
});
