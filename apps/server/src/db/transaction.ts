import type pg from 'pg';

/** A pool or a client inside a transaction: what repository methods run their SQL on. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

/** How a transaction starts: PostgreSQL's default, or a read-only one at a chosen isolation. */
export type TransactionMode = { readOnly: true; isolation: 'READ COMMITTED' | 'REPEATABLE READ' };

/**
 * Runs `work` in one transaction on a client of `pool`: COMMIT when it resolves, ROLLBACK
 * when it throws. Every repository's `transaction` method is this; reads that must see one
 * snapshot pass a read-only `mode`.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (tx: pg.PoolClient) => Promise<T>,
  mode?: TransactionMode,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(mode ? `BEGIN ISOLATION LEVEL ${mode.isolation} READ ONLY` : 'BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
