import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createSealer } from '../../crypto/sealed-values.js';
import { sealConnectionRow } from './connection-write-fns.js';
import { createConnectionsRepository } from './connections-repository.js';
import { createConnectionsService } from './connections-service.js';

/*
 * Key rotation (docs/secrets.md): a connection sealed under key A is re-sealed under key B by
 * the module's bootstrap when the server starts with B and A as a previous key, and then opens
 * with B alone; a value no key of the ring opens is left and counted.
 */

const KEY_A = 'connections-rotation-key-A-0123456789abcdef';
const KEY_B = 'connections-rotation-key-B-0123456789abcdef';
const logger = pino({ level: 'silent' });
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function insertSealed(name: string, key: string): Promise<string> {
  const row = sealConnectionRow(
    {
      url: 'postgres://app:url-pass@db/app?password=pair-pass',
      password: 'the-password',
      certificate: null,
      properties: { token: 'the-token', region: 'eu' },
    },
    createSealer(key),
  );
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO connections (name, type, url, password, certificate, properties)
     VALUES ($1, 'postgres', $2, $3, $4, $5) RETURNING id`,
    [name, row.url, row.password, row.certificate, JSON.stringify(row.properties)],
  );
  return rows[0]!.id;
}

describe('re-sealing connections after a key rotation', () => {
  it('seals every value again under the new key, so the new key alone opens them', async () => {
    const id = await insertSealed('rotated', KEY_A);
    const repository = createConnectionsRepository(database.pool);
    const rotated = createSealer(KEY_B, [KEY_A]);
    const service = createConnectionsService({ repository, sealer: rotated, logger });
    expect(await service.resealAll()).toEqual({ resealed: 1, failed: 0 });
    expect(await service.resealAll()).toEqual({ resealed: 0, failed: 0 });

    const stored = await repository.findLiveById(id);
    const tokens = JSON.stringify(stored).match(/sealed:v1:[A-Za-z0-9_-]+/g) ?? [];
    expect(tokens.length).toBe(4);
    for (const token of tokens) expect(rotated.keyIdOf(token)).toBe(rotated.keyId);

    const onlyB = createConnectionsService({ repository, sealer: createSealer(KEY_B), logger });
    const resolved = await onlyB.resolve('connection://default/rotated');
    expect(resolved).toMatchObject({
      url: 'postgres://app:url-pass@db/app?password=pair-pass',
      password: 'the-password',
      properties: { token: 'the-token', region: 'eu' },
    });
  });

  it('leaves a value no key opens, counts it, and says which key sealed it when it is used', async () => {
    await insertSealed('orphan', 'a-key-nobody-has-any-more-0123456789');
    const repository = createConnectionsRepository(database.pool);
    const service = createConnectionsService({ repository, sealer: createSealer(KEY_B), logger });
    expect(await service.resealAll()).toEqual({ resealed: 0, failed: 1 });
    await expect(service.resolve('orphan')).rejects.toThrow(
      /^connection:\/\/default\/orphan: could not read its password \(The value was sealed under another LOOKOUT_SECRET_KEY/,
    );
  });
});
