import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.js';
import { createTopologyRepository } from './topology-repository.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe("an agent's topologies upstream", () => {
  it('are not planned here: the agent runs them and pushes their components', async () => {
    const [agent] = (
      await database.pool.query<{ id: string }>(`INSERT INTO agents (name) VALUES ('edge') RETURNING id`)
    ).rows;
    await database.pool.query(
      `INSERT INTO topologies (name, agent_id, spec) VALUES ('own', DEFAULT, '{}'), ('pushed', $1, '{}')`,
      [agent!.id],
    );
    const live = await createTopologyRepository(database.pool).liveTopologies();
    expect(live.map((topology) => topology.name)).toEqual(['own']);
  });
});
