import type pg from 'pg';
import type { Queryable } from '../../db/transaction.js';

export type CredentialType = 'password' | 'totp' | 'lookup_secret' | 'webauthn' | 'oidc';

export type CredentialRow = {
  id: string;
  identity_id: string;
  type: CredentialType;
  config: Record<string, unknown>;
  version: number;
  /** totp only: the time step of the last code accepted (bigint, so pg returns a string). */
  totp_last_step: string | null;
  created_at: Date;
  updated_at: Date;
  identifiers: string[];
};

/** SQL of `identity_credentials` and their identifiers. */
export function createCredentialsRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    async listCredentials(identityIds: string[], tx?: Queryable): Promise<CredentialRow[]> {
      const result = await db(tx).query<CredentialRow>(
        `SELECT c.*, COALESCE(array_agg(i.identifier ORDER BY i.identifier) FILTER (WHERE i.id IS NOT NULL), '{}') AS identifiers
           FROM identity_credentials c
           LEFT JOIN identity_credential_identifiers i ON i.identity_credential_id = c.id
          WHERE c.identity_id = ANY($1::uuid[])
          GROUP BY c.id ORDER BY c.created_at`,
        [identityIds],
      );
      return result.rows;
    },

    async findCredentialByIdentifier(
      type: CredentialType,
      identifier: string,
      tx?: Queryable,
    ): Promise<CredentialRow | undefined> {
      const result = await db(tx).query<CredentialRow>(
        `SELECT c.*, ARRAY[i.identifier] AS identifiers
           FROM identity_credential_identifiers i
           JOIN identity_credentials c ON c.id = i.identity_credential_id
          WHERE i.type = $1 AND i.identifier = $2`,
        [type, identifier],
      );
      return result.rows[0];
    },

    /**
     * Creates or replaces the credential of a type, with its identifiers. A replaced TOTP
     * credential has a new seed, so the step of the old seed's last code is forgotten.
     */
    async upsertCredential(
      identityId: string,
      type: CredentialType,
      config: Record<string, unknown>,
      identifiers: string[],
      tx?: Queryable,
    ): Promise<CredentialRow> {
      const result = await db(tx).query<CredentialRow>(
        `INSERT INTO identity_credentials (identity_id, type, config) VALUES ($1, $2, $3)
         ON CONFLICT (identity_id, type) DO UPDATE SET config = EXCLUDED.config, totp_last_step = NULL
         RETURNING *`,
        [identityId, type, JSON.stringify(config)],
      );
      const credential = result.rows[0]!;
      await db(tx).query('DELETE FROM identity_credential_identifiers WHERE identity_credential_id = $1', [
        credential.id,
      ]);
      for (const identifier of identifiers) {
        await db(tx).query(
          'INSERT INTO identity_credential_identifiers (identity_credential_id, type, identifier) VALUES ($1, $2, $3)',
          [credential.id, type, identifier],
        );
      }
      return { ...credential, identifiers };
    },

    async updateCredentialConfig(credentialId: string, config: Record<string, unknown>, tx?: Queryable): Promise<void> {
      await db(tx).query('UPDATE identity_credentials SET config = $2 WHERE id = $1', [
        credentialId,
        JSON.stringify(config),
      ]);
    },

    /**
     * Records that a TOTP code of time step `step` was accepted, unless a code of this step or
     * a later one already was: false then (a replay). One conditional UPDATE, so two requests
     * racing with the same code cannot both get through.
     */
    async acceptTotpStep(credentialId: string, step: number, tx?: Queryable): Promise<boolean> {
      const result = await db(tx).query(
        `UPDATE identity_credentials SET totp_last_step = $2
          WHERE id = $1 AND type = 'totp' AND (totp_last_step IS NULL OR totp_last_step < $2)`,
        [credentialId, step],
      );
      return result.rowCount === 1;
    },

    async deleteCredential(identityId: string, type: CredentialType, tx?: Queryable): Promise<void> {
      await db(tx).query('DELETE FROM identity_credentials WHERE identity_id = $1 AND type = $2', [identityId, type]);
    },
  };
}
