import type pg from 'pg';
import type { Queryable } from '../../db/transaction.js';
import type { Traits } from './ui-nodes-fns.js';

export type IdentityRow = {
  id: string;
  nid: string;
  schema_id: string;
  traits: Traits;
  state: 'active' | 'inactive';
  state_changed_at: Date;
  metadata_public: unknown;
  metadata_admin: unknown;
  external_id: string | null;
  created_at: Date;
  updated_at: Date;
};

export type AddressRow = {
  id: string;
  identity_id: string;
  via: 'email' | 'sms';
  value: string;
  verified?: boolean;
  verified_at?: Date | null;
  status?: 'pending' | 'sent' | 'completed';
  created_at: Date;
  updated_at: Date;
};

/**
 * The built-in service's own identities: copies of an external Kratos's (mirrored_at set) are
 * not its to sign in, recover, administer or count, even after a switch back from Kratos.
 */
const BUILT_IN = 'mirrored_at IS NULL';

/** SQL of `identities` (the built-in service's own), their addresses, and their people rows. */
export function createIdentitiesRepository(pool: pg.Pool) {
  const db = (tx?: Queryable): Queryable => tx ?? pool;

  return {
    async insertIdentity(
      identity: {
        id?: string;
        traits: Traits;
        schemaId: string;
        state: 'active' | 'inactive';
        metadataPublic?: unknown;
        metadataAdmin?: unknown;
        externalId?: string;
      },
      tx?: Queryable,
    ): Promise<IdentityRow> {
      const result = await db(tx).query<IdentityRow>(
        `INSERT INTO identities (id, traits, schema_id, state, metadata_public, metadata_admin, external_id)
         VALUES (COALESCE($1::uuid, lookout_uuid_v7()), $2, $3, $4, $5, $6, $7) RETURNING *`,
        [
          identity.id ?? null,
          JSON.stringify(identity.traits),
          identity.schemaId,
          identity.state,
          json(identity.metadataPublic),
          json(identity.metadataAdmin),
          identity.externalId ?? null,
        ],
      );
      return result.rows[0]!;
    },

    async findIdentity(id: string, tx?: Queryable): Promise<IdentityRow | undefined> {
      const result = await db(tx).query<IdentityRow>(`SELECT * FROM identities WHERE id = $1 AND ${BUILT_IN}`, [id]);
      return result.rows[0];
    },

    async findIdentityByEmail(email: string, tx?: Queryable): Promise<IdentityRow | undefined> {
      const result = await db(tx).query<IdentityRow>(
        `SELECT * FROM identities WHERE lower(traits ->> 'email') = lower($1) AND ${BUILT_IN}`,
        [email],
      );
      return result.rows[0];
    },

    async listIdentities(
      options: { limit: number; afterId?: string; offset?: number; email?: string },
      tx?: Queryable,
    ): Promise<IdentityRow[]> {
      const result = await db(tx).query<IdentityRow>(
        `SELECT * FROM identities
          WHERE ($1::uuid IS NULL OR id > $1::uuid)
            AND ($2::text IS NULL OR lower(traits ->> 'email') = lower($2))
            AND ${BUILT_IN}
          ORDER BY id LIMIT $3 OFFSET $4`,
        [options.afterId ?? null, options.email ?? null, options.limit, options.offset ?? 0],
      );
      return result.rows;
    },

    async updateIdentity(
      id: string,
      patch: {
        traits?: Traits;
        state?: 'active' | 'inactive';
        schemaId?: string;
        metadataPublic?: unknown;
        metadataAdmin?: unknown;
      },
      tx?: Queryable,
    ): Promise<IdentityRow | undefined> {
      const result = await db(tx).query<IdentityRow>(
        `UPDATE identities SET
           traits = COALESCE($2::jsonb, traits),
           state_changed_at = CASE WHEN $3::text IS NOT NULL AND $3::text <> state THEN now() ELSE state_changed_at END,
           state = COALESCE($3::text, state),
           schema_id = COALESCE($4::text, schema_id),
           metadata_public = CASE WHEN $5::boolean THEN $6::jsonb ELSE metadata_public END,
           metadata_admin = CASE WHEN $7::boolean THEN $8::jsonb ELSE metadata_admin END
         WHERE id = $1 AND ${BUILT_IN} RETURNING *`,
        [
          id,
          patch.traits ? JSON.stringify(patch.traits) : null,
          patch.state ?? null,
          patch.schemaId ?? null,
          patch.metadataPublic !== undefined,
          json(patch.metadataPublic),
          patch.metadataAdmin !== undefined,
          json(patch.metadataAdmin),
        ],
      );
      return result.rows[0];
    },

    async deleteIdentity(id: string, tx?: Queryable): Promise<boolean> {
      const result = await db(tx).query(`DELETE FROM identities WHERE id = $1 AND ${BUILT_IN}`, [id]);
      return (result.rowCount ?? 0) > 0;
    },

    /** Keeps the identity's one email as its verifiable and recovery address. */
    async syncAddresses(
      identityId: string,
      email: string,
      options: { verified?: boolean } = {},
      tx?: Queryable,
    ): Promise<void> {
      await db(tx).query(
        `DELETE FROM identity_verifiable_addresses WHERE identity_id = $1 AND lower(value) <> lower($2)`,
        [identityId, email],
      );
      await db(tx).query(
        `DELETE FROM identity_recovery_addresses WHERE identity_id = $1 AND lower(value) <> lower($2)`,
        [identityId, email],
      );
      await db(tx).query(
        `INSERT INTO identity_verifiable_addresses (identity_id, via, value, verified, verified_at, status)
         VALUES ($1, 'email', $2, $3, CASE WHEN $3 THEN now() END, CASE WHEN $3 THEN 'completed' ELSE 'pending' END)
         ON CONFLICT (via, lower(value)) DO NOTHING`,
        [identityId, email, options.verified ?? false],
      );
      await db(tx).query(
        `INSERT INTO identity_recovery_addresses (identity_id, via, value) VALUES ($1, 'email', $2)
         ON CONFLICT (via, lower(value)) DO NOTHING`,
        [identityId, email],
      );
    },

    async listVerifiableAddresses(identityIds: string[], tx?: Queryable): Promise<AddressRow[]> {
      const result = await db(tx).query<AddressRow>(
        'SELECT * FROM identity_verifiable_addresses WHERE identity_id = ANY($1::uuid[]) ORDER BY created_at',
        [identityIds],
      );
      return result.rows;
    },

    async listRecoveryAddresses(identityIds: string[], tx?: Queryable): Promise<AddressRow[]> {
      const result = await db(tx).query<AddressRow>(
        'SELECT * FROM identity_recovery_addresses WHERE identity_id = ANY($1::uuid[]) ORDER BY created_at',
        [identityIds],
      );
      return result.rows;
    },

    async findIdentityIdByRecoveryAddress(email: string, tx?: Queryable): Promise<string | undefined> {
      const result = await db(tx).query<{ identity_id: string }>(
        `SELECT identity_id FROM identity_recovery_addresses WHERE via = 'email' AND lower(value) = lower($1)`,
        [email],
      );
      return result.rows[0]?.identity_id;
    },

    async findIdentityIdByVerifiableAddress(email: string, tx?: Queryable): Promise<string | undefined> {
      const result = await db(tx).query<{ identity_id: string }>(
        `SELECT identity_id FROM identity_verifiable_addresses WHERE via = 'email' AND lower(value) = lower($1)`,
        [email],
      );
      return result.rows[0]?.identity_id;
    },

    async setAddressStatus(email: string, status: 'sent' | 'completed', tx?: Queryable): Promise<void> {
      await db(tx).query(
        `UPDATE identity_verifiable_addresses
            SET status = CASE WHEN verified THEN 'completed' ELSE $2 END,
                verified = verified OR $2 = 'completed',
                verified_at = CASE WHEN $2 = 'completed' AND NOT verified THEN now() ELSE verified_at END
          WHERE via = 'email' AND lower(value) = lower($1)`,
        [email, status],
      );
    },

    /** The avatar of the person mirroring an identity (people is kept in step by trigger). */
    async findPersonAvatar(id: string, tx?: Queryable): Promise<string | null> {
      const result = await db(tx).query<{ avatar: string | null }>('SELECT avatar FROM people WHERE id = $1', [id]);
      return result.rows[0]?.avatar ?? null;
    },

    async countIdentities(tx?: Queryable): Promise<number> {
      const result = await db(tx).query<{ count: string }>(
        `SELECT count(*) AS count FROM identities WHERE ${BUILT_IN}`,
      );
      return Number(result.rows[0]?.count ?? 0);
    },
  };
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
