import type { SecretStoreKind } from '@lookout/contracts';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../../db/transaction.js';

/**
 * SQL of the secret store (migration 16). `data` holds a secret's values sealed and a config
 * map's values plain; nothing here opens or seals (the service does). Every method takes an
 * optional transaction client.
 */

export type SecretStoreRow = {
  id: string;
  kind: SecretStoreKind;
  namespace: string;
  name: string;
  data: Record<string, string>;
  source: string;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = 'id, kind, namespace, name, data, source, created_by, created_at, updated_at';

export type SecretsRepository = ReturnType<typeof createSecretsRepository>;

export function createSecretsRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    /** Runs `work` in one transaction; rolls back when it throws. */
    transaction: <T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> => withTransaction(pool, work),

    /** Live entries, by kind, namespace and name. */
    async list(filter: { kind?: SecretStoreKind; namespace?: string } = {}, tx?: Queryable): Promise<SecretStoreRow[]> {
      const { rows } = await db(tx).query<SecretStoreRow>(
        `SELECT ${COLUMNS} FROM secret_store
          WHERE deleted_at IS NULL AND ($1::text IS NULL OR kind = $1) AND ($2::text IS NULL OR namespace = $2)
          ORDER BY kind DESC, namespace, name`,
        [filter.kind ?? null, filter.namespace ?? null],
      );
      return rows;
    },

    /** The live entry; with `forUpdate`, locked until the transaction ends. */
    async find(
      where: { kind: SecretStoreKind; namespace: string; name: string },
      options: { tx?: Queryable; forUpdate?: boolean } = {},
    ): Promise<SecretStoreRow | undefined> {
      const { rows } = await db(options.tx).query<SecretStoreRow>(
        `SELECT ${COLUMNS} FROM secret_store
          WHERE kind = $1 AND namespace = $2 AND name = $3 AND deleted_at IS NULL${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [where.kind, where.namespace, where.name],
      );
      return rows[0];
    },

    /** Inserts a new entry; a live entry of the same kind, namespace and name raises a unique violation. */
    async insert(
      entry: {
        kind: SecretStoreKind;
        namespace: string;
        name: string;
        data: Record<string, string>;
        createdBy: string | null;
      },
      tx?: Queryable,
    ): Promise<SecretStoreRow> {
      const { rows } = await db(tx).query<SecretStoreRow>(
        `INSERT INTO secret_store (kind, namespace, name, data, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [entry.kind, entry.namespace, entry.name, entry.data, entry.createdBy],
      );
      return rows[0]!;
    },

    /** Replaces an entry's data (an edit: updated_at moves). */
    async updateData(id: string, data: Record<string, string>, tx?: Queryable): Promise<SecretStoreRow> {
      const { rows } = await db(tx).query<SecretStoreRow>(
        `UPDATE secret_store SET data = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, data],
      );
      return rows[0]!;
    },

    /** Deletes an entry: its values are erased, the row stays as the record that it existed. */
    async softDelete(id: string, tx?: Queryable): Promise<void> {
      await db(tx).query(`UPDATE secret_store SET data = '{}', deleted_at = now(), updated_at = now() WHERE id = $1`, [
        id,
      ]);
    },

    /** Every live secret, locked: the re-sealing after a key rotation reads them in its transaction. */
    async lockSecrets(tx: Queryable): Promise<Pick<SecretStoreRow, 'id' | 'namespace' | 'name' | 'data'>[]> {
      const { rows } = await tx.query<Pick<SecretStoreRow, 'id' | 'namespace' | 'name' | 'data'>>(
        `SELECT id, namespace, name, data FROM secret_store WHERE kind = 'secret' AND deleted_at IS NULL FOR UPDATE`,
      );
      return rows;
    },

    /** Writes re-sealed values (no edit: updated_at stays). */
    async replaceSealedData(id: string, data: Record<string, string>, tx: Queryable): Promise<void> {
      await tx.query('UPDATE secret_store SET data = $2 WHERE id = $1', [id, data]);
    },
  };
}
