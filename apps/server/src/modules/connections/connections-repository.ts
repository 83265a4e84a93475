import type { ConnectionType } from '@lookout/contracts';
import type pg from 'pg';
import type { StoredCredentials } from './connection-credentials-fns.js';

/** A connection row as stored: credentials still sealed. Never leaves the connections module. */
export type StoredConnection = StoredCredentials & {
  id: string;
  name: string;
  namespace: string;
  type: ConnectionType;
  username: string | null;
  insecureTls: boolean;
  source: string;
};

export type ConnectionsRepository = ReturnType<typeof createConnectionsRepository>;

const COLUMNS = `id, name, namespace, type, url, username, password, certificate, properties,
  insecure_tls AS "insecureTls", source`;

/** Reads and re-seals connection rows; the data API does every other write. */
export function createConnectionsRepository(pool: pg.Pool) {
  return {
    /** The live connection of that namespace and name. */
    async findLive(namespace: string, name: string): Promise<StoredConnection | undefined> {
      const result = await pool.query<StoredConnection>(
        `SELECT ${COLUMNS} FROM connections WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL`,
        [namespace, name],
      );
      return result.rows[0];
    },

    /** The live connection with that id. */
    async findLiveById(id: string): Promise<StoredConnection | undefined> {
      const result = await pool.query<StoredConnection>(
        `SELECT ${COLUMNS} FROM connections WHERE id = $1 AND deleted_at IS NULL`,
        [id],
      );
      return result.rows[0];
    },

    /** The stored credential columns of one row (deleted ones too: a write may target them). */
    async storedCredentials(id: string): Promise<StoredCredentials | undefined> {
      const result = await pool.query<StoredCredentials>(
        'SELECT url, password, certificate, properties FROM connections WHERE id = $1',
        [id],
      );
      return result.rows[0];
    },

    /** Every row holding a sealed value, deleted ones included (a rotation re-seals them all). */
    async listSealed(): Promise<(StoredCredentials & { id: string })[]> {
      const result = await pool.query<StoredCredentials & { id: string }>(
        `SELECT id, url, password, certificate, properties FROM connections
          WHERE strpos(coalesce(url, '') || coalesce(password, '') || coalesce(certificate, '')
                       || coalesce(properties::text, ''), 'sealed:v1:') > 0`,
      );
      return result.rows;
    },

    /**
     * Replaces the credential columns of a row, if they still are what was read (a write in
     * between wins; its values were sealed under the current key anyway). True when replaced.
     */
    async replaceCredentials(id: string, before: StoredCredentials, after: StoredCredentials): Promise<boolean> {
      const result = await pool.query(
        `UPDATE connections SET url = $6, password = $7, certificate = $8, properties = $9
          WHERE id = $1 AND url IS NOT DISTINCT FROM $2 AND password IS NOT DISTINCT FROM $3
            AND certificate IS NOT DISTINCT FROM $4 AND properties IS NOT DISTINCT FROM $5::jsonb`,
        [
          id,
          before.url,
          before.password,
          before.certificate,
          before.properties === null ? null : JSON.stringify(before.properties),
          after.url,
          after.password,
          after.certificate,
          after.properties === null ? null : JSON.stringify(after.properties),
        ],
      );
      return (result.rowCount ?? 0) > 0;
    },
  };
}
