import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from './helpers.js';
import { LOOKOUT_SQL } from './lookout-fixture.js';

/*
 * Bad input is never a 500: random requests assembled from real names, operators and
 * grammar characters must end in a 2xx/3xx/4xx, and the database must survive them.
 */

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngine(LOOKOUT_SQL);
});
afterAll(async () => {
  await h.close();
});

const names = fc.constantFrom(
  'id',
  'name',
  'labels',
  'status',
  'canary_id',
  'canaries',
  'agents',
  'checks',
  'nope',
  'created_at',
  '*',
);
const ops = fc.constantFrom(
  'eq.',
  'neq.',
  'gt.',
  'in.(',
  'is.',
  'like.',
  'cs.',
  'fts.',
  'not.',
  'eq(any).',
  'ov.',
  'isdistinct.',
);
const junk = fc.constantFrom(
  '(',
  ')',
  ',',
  '.',
  ':',
  '!',
  '"',
  '*',
  '->',
  '->>',
  '{',
  '}',
  'null',
  'true',
  '1',
  'x',
  "'",
  ';',
  '%',
  '\\',
  '::',
  'inner',
  'desc',
);
const piece = fc.oneof(names, ops, junk, fc.string({ maxLength: 4 }));
const text = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));

describe('random requests never fail with 5xx', () => {
  it('on reads', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, text, text, async (select, key, value, order) => {
        const query = [
          `select=${encodeURIComponent(select)}`,
          `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
          `order=${encodeURIComponent(order)}`,
        ].join('&');
        const response = await h.get(`checks?${query}`);
        expect(response.status, `${query} -> ${response.body}`).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });

  it('on writes and calls', async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.json({ maxDepth: 2 }), async (key, body) => {
        const patch = await h.request(
          'PATCH',
          `canaries?id=eq.00000000-0000-0000-0000-00000000dead&${encodeURIComponent(key)}=eq.1`,
          { body },
        );
        expect(patch.status, patch.body).toBeLessThan(500);
        const call = await h.request('POST', 'rpc/related_configs_recursive', { body });
        expect(call.status, call.body).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    const alive = await h.get('checks?select=id');
    expect(alive.status).toBe(200);
  });
});
