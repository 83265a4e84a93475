import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers.js';
import { LOOKOUT_SQL } from './lookout-fixture.js';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine(LOOKOUT_SQL);
});
afterAll(async () => {
  await h.close();
});

const ALICE = '00000000-0000-0000-0000-000000000001';
const REPRESENTATION = { prefer: 'return=representation' };

describe('writes as the web sends them', () => {
  it('creates an incident with "now()" timestamps and returns the row (data[0])', async () => {
    const id = '7a000000-0000-0000-0000-000000000001';
    const r = await h.request('POST', 'incidents', {
      body: { id, title: 'New', severity: 'sev2', created_by: ALICE, created_at: 'now()', updated_at: 'now()' },
      headers: REPRESENTATION,
    });
    expect(r.status).toBe(201);
    const rows = r.json as { id: string; created_at: string; updated_at: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe(id);
    expect(Math.abs(Date.parse(rows[0]?.created_at ?? '') - Date.now())).toBeLessThan(60_000);
    expect(r.headers['content-range']).toBe('*/*');
    expect(r.headers['preference-applied']).toBe('return=representation');
  });

  it('soft-deletes with PATCH {"deleted_at":"now()"} and returns the updated rows', async () => {
    const r = await h.request('PATCH', 'canaries?id=eq.30000000-0000-0000-0000-000000000001&select=id,deleted_at', {
      body: { deleted_at: 'now()' },
      headers: REPRESENTATION,
    });
    expect(r.status).toBe(200);
    const rows = r.json as { deleted_at: string | null }[];
    expect(rows[0]?.deleted_at).not.toBeNull();
    expect(r.headers['content-range']).toBe('0-0/*');
    const list = await h.get('canaries?select=name&deleted_at=is.null');
    expect(list.json).toEqual([{ name: 'dns-checks' }]);
  });

  it('bulk-inserts team members from an array', async () => {
    const r = await h.request('POST', 'team_members', {
      body: [
        { team_id: '10000000-0000-0000-0000-000000000002', person_id: ALICE },
        { team_id: '10000000-0000-0000-0000-000000000002', person_id: '00000000-0000-0000-0000-000000000003' },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.body).toBe('');
    const count = await h.get('team_members?team_id=eq.10000000-0000-0000-0000-000000000002', {
      prefer: 'count=exact',
    });
    expect(count.headers['content-range']).toBe('0-1/2');
  });

  it('returns representations with embeds and answers Location for headers-only', async () => {
    const created = await h.request('POST', 'hypotheses?select=id,title,incident:incident_id(title)', {
      body: {
        id: '8a000000-0000-0000-0000-000000000001',
        incident_id: '70000000-0000-0000-0000-000000000001',
        title: 'Network',
      },
      headers: REPRESENTATION,
    });
    expect(created.json).toEqual([
      { id: '8a000000-0000-0000-0000-000000000001', title: 'Network', incident: { title: 'Checkout down' } },
    ]);
    const headersOnly = await h.request('POST', 'properties', {
      body: { name: 'theme', value: 'dark' },
      headers: { prefer: 'return=headers-only' },
    });
    expect(headersOnly.status).toBe(201);
    expect(headersOnly.headers.location).toBe('/properties?name=eq.theme');
  });

  it('upserts with merge-duplicates and ignore-duplicates', async () => {
    const merged = await h.request('POST', 'properties', {
      body: [{ name: 'theme', value: 'light' }],
      headers: { prefer: 'return=representation,resolution=merge-duplicates' },
    });
    expect(merged.status).toBe(200);
    expect(merged.json).toMatchObject([{ name: 'theme', value: 'light' }]);
    expect(merged.headers['preference-applied']).toBe('resolution=merge-duplicates, return=representation');
    const ignored = await h.request('POST', 'properties?on_conflict=name', {
      body: [
        { name: 'theme', value: 'ignored' },
        { name: 'lang', value: 'en' },
      ],
      headers: { prefer: 'return=representation,resolution=ignore-duplicates' },
    });
    expect(ignored.status).toBe(201);
    expect(ignored.json).toMatchObject([{ name: 'lang', value: 'en' }]);
    const theme = await h.get('properties?select=value&name=eq.theme');
    expect(theme.json).toEqual([{ value: 'light' }]);
  });

  it('PUT replaces by primary key and checks filters and payload', async () => {
    const r = await h.request('PUT', 'properties?name=eq.color', {
      body: { name: 'color', value: 'red' },
      headers: REPRESENTATION,
    });
    expect(r.status).toBe(201);
    const again = await h.request('PUT', 'properties?name=eq.color', {
      body: { name: 'color', value: 'blue' },
      headers: REPRESENTATION,
    });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject([{ value: 'blue' }]);
    const badFilter = await h.request('PUT', 'properties?value=eq.x', { body: { name: 'x', value: 'x' } });
    expect(badFilter.status).toBe(405);
    expect(badFilter.json).toMatchObject({ code: 'PGRST105' });
    const mismatch = await h.request('PUT', 'properties?name=eq.a', { body: { name: 'b', value: 'x' } });
    expect(mismatch.json).toMatchObject({ code: 'PGRST115' });
  });

  it('DELETE with filters answers 204 or the deleted rows', async () => {
    const r = await h.request('DELETE', 'properties?name=eq.lang', { headers: REPRESENTATION });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject([{ name: 'lang' }]);
    const none = await h.request('DELETE', 'properties?name=eq.lang');
    expect(none.status).toBe(204);
    expect(none.headers['content-range']).toBe('*/*');
  });

  it('maps constraint errors to PostgREST statuses', async () => {
    const duplicate = await h.request('POST', 'people', { body: { id: ALICE, name: 'Again' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json).toMatchObject({ code: '23505', details: expect.stringContaining('already exists') });
    const fk = await h.request('POST', 'checks', {
      body: {
        id: '4a000000-0000-0000-0000-000000000001',
        canary_id: '3fffffff-0000-0000-0000-000000000001',
        name: 'x',
      },
    });
    expect(fk.status).toBe(409);
    expect(fk.json).toMatchObject({ code: '23503' });
    const notNull = await h.request('POST', 'people', { body: { id: '0a000000-0000-0000-0000-000000000001' } });
    expect(notNull.status).toBe(400);
    expect(notNull.json).toMatchObject({ code: '23502' });
    const invalid = await h.get('people?id=eq.not-a-uuid');
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ code: '22P02' });
  });

  it('refuses unknown payload columns with PGRST204 and mismatched keys with PGRST102', async () => {
    const unknown = await h.request('POST', 'people', {
      body: { id: '0b000000-0000-0000-0000-000000000001', name: 'x', nope: 1 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({
      code: 'PGRST204',
      message: "Could not find the 'nope' column of 'people' in the schema cache",
    });
    const keys = await h.request('POST', 'people', {
      body: [{ id: '0c000000-0000-0000-0000-000000000001', name: 'a' }, { name: 'b' }],
    });
    expect(keys.json).toMatchObject({ code: 'PGRST102', message: 'All object keys must match' });
    const invalid = await h.request('POST', 'people', { body: '{not json' });
    expect(invalid.json).toMatchObject({ code: 'PGRST102' });
  });

  it('applies column defaults with missing=default and columns=', async () => {
    const r = await h.request('POST', 'teams?columns=id,name,source', {
      body: { id: '1a000000-0000-0000-0000-000000000001', name: 'Defaults' },
      headers: { prefer: 'return=representation,missing=default' },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject([{ name: 'Defaults', source: 'UI' }]);
  });

  it('rolls back with Prefer: tx=rollback only when overriding is allowed', async () => {
    const strict = await h.request('POST', 'properties', {
      body: { name: 'tx-test', value: 'v' },
      headers: { prefer: 'tx=rollback' },
    });
    expect(strict.status).toBe(201);
    expect(strict.headers['preference-applied']).toBeUndefined();
    const present = await h.get('properties?name=eq.tx-test');
    expect(present.json).toHaveLength(1);
  });
});
